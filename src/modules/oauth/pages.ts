import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context';
import { SCOPES, EMBED_LOCATIONS, isScope } from '../partners/types';

/** HTML escaping for text and attribute values. */
export const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"'`]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' })[ch]!);

const STYLE = `body{font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f6f8;color:#1c2430;margin:0}
main{max-width:480px;margin:6vh auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:28px 32px}
h1{font-size:1.3rem;margin:0 0 .5rem}h2{font-size:1rem;margin:1.2rem 0 .4rem}p{margin:.4rem 0}.muted{color:#5a6675;font-size:.9rem}
ul{padding-left:1.2rem}li{margin:.25rem 0}code{background:#eef1f4;padding:1px 5px;border-radius:4px}
label{display:block;margin:.6rem 0 .2rem;font-weight:600}input,select{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #c8d0d9;border-radius:6px;font:inherit}
.row{display:flex;gap:.6rem;margin-top:1.2rem}button{flex:1;padding:.65rem;border-radius:6px;border:1px solid #1f5fbf;background:#1f5fbf;color:#fff;font:inherit;cursor:pointer}
button.secondary{background:#fff;color:#1f5fbf}.error{background:#fdecec;color:#8a1c1c;padding:.6rem .8rem;border-radius:6px}.ok{background:#e8f6ec;color:#1c5a2c;padding:.6rem .8rem;border-radius:6px}
.badge{display:inline-block;background:#fff4d6;color:#6b4d00;border-radius:4px;padding:0 6px;font-size:.8rem;font-weight:600}hr{border:0;border-top:1px solid #e3e7ec;margin:1.2rem 0}`;

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)} · Berth</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** An HTML answer that no one may frame (clickjacking of the consent) and no cache keeps. */
export function html(c: Context<AppEnv>, body: string, status = 200, headers: Record<string, string> = {}) {
  const res = c.html(body, status as 200);
  res.headers.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'");
  res.headers.set('X-Frame-Options', 'DENY');
  res.headers.set('Cache-Control', 'no-store');
  res.headers.set('Referrer-Policy', 'no-referrer');
  for (const [k, v] of Object.entries(headers)) res.headers.append(k, v);
  return res;
}

export const errorPage = (title: string, message: string) =>
  layout(title, `<h1>${esc(title)}</h1><p class="error">${esc(message)}</p><p class="muted">You can close this window.</p>`);

const scopeList = (scopes: string[]) => `<ul>${scopes.map((s) => `<li><code>${esc(s)}</code> ${esc(isScope(s) ? SCOPES[s] : '')}</li>`).join('')}</ul>`;

const hidden = (name: string, value: string) => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

export interface SignInView {
  requestId: string;
  appName: string;
  partnerName: string;
  scopes: string[];
  idpUrl: string | null;
  devUsers: { userId: string; name: string; email: string; role: string; operator: string }[] | null;
  error?: string;
}

export function signInPage(v: SignInView): string {
  const parts: string[] = [
    `<h1>Install ${esc(v.appName)}</h1><p class="muted">by ${esc(v.partnerName)}</p>`,
    v.error ? `<p class="error">${esc(v.error)}</p>` : '',
    `<p>Sign in with your Berth account to choose whether <b>${esc(v.appName)}</b> may:</p>${scopeList(v.scopes)}`,
  ];
  if (v.idpUrl) parts.push(`<div class="row"><a href="${esc(v.idpUrl)}" style="flex:1"><button type="button">Sign in to Berth</button></a></div>`);
  if (v.devUsers) {
    parts.push(`<form method="post" action="/oauth/authorize/login">${hidden('request', v.requestId)}${hidden('method', 'development')}
<label for="userId">Development sign-in: a seeded user</label><select id="userId" name="userId">${v.devUsers
      .map((u) => `<option value="${esc(u.userId)}">${esc(u.operator)}: ${esc(u.name)} (${esc(u.role)}, ${esc(u.email)})</option>`)
      .join('')}</select><div class="row"><button type="submit">Continue as this user</button></div></form>`);
  }
  parts.push(`<hr><form method="post" action="/oauth/authorize/login">${hidden('request', v.requestId)}${hidden('method', 'partner')}
<p class="muted">Developer of this app? Sign in with your partner account to install it in your own private sandbox (no approval needed).</p>
<label for="email">Partner e-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="row"><button class="secondary" type="submit">Install in the sandbox</button></div></form>`);
  return layout(`Install ${v.appName}`, parts.join('\n'));
}

export interface ConsentView {
  requestId: string;
  appName: string;
  partnerName: string;
  operatorName: string;
  sandbox: boolean;
  userName: string;
  userEmail: string;
  scopes: string[];
  embedLocations: string[];
  redirectHost: string;
}

export function consentPage(v: ConsentView): string {
  const embeds = v.embedLocations.length
    ? `<h2>It will appear in</h2><ul>${v.embedLocations.map((e) => `<li>${esc(e)}: ${esc((EMBED_LOCATIONS as Record<string, string>)[e] ?? '')}</li>`).join('')}</ul>`
    : '';
  return layout(
    `Authorize ${v.appName}`,
    `<h1>${esc(v.appName)} wants access to ${esc(v.operatorName)}</h1>
<p class="muted">by ${esc(v.partnerName)}${v.sandbox ? ' · <span class="badge">SANDBOX</span>' : ''}</p>
<p>Signed in as ${esc(v.userName)} (${esc(v.userEmail)}).</p>
<h2>It will be able to</h2>${scopeList(v.scopes)}${embeds}
<p class="muted">You will be sent back to <code>${esc(v.redirectHost)}</code>. An admin can uninstall the app at any time under Admin &gt; Apps; every token stops at once.</p>
<form method="post" action="/oauth/authorize/decision">${hidden('request', v.requestId)}
<div class="row"><button class="secondary" type="submit" name="decision" value="deny">Deny</button><button type="submit" name="decision" value="allow">Allow</button></div></form>`,
  );
}

export function devicePage(v: { userCode: string; error?: string; done?: 'approved' | 'denied' }): string {
  if (v.done) {
    return layout(
      'Device',
      v.done === 'approved'
        ? `<h1>Signed in</h1><p class="ok">The command line is now signed in to your partner account. You can close this window and return to the terminal.</p>`
        : `<h1>Request denied</h1><p class="error">The command line was not signed in. You can close this window.</p>`,
    );
  }
  return layout(
    'Sign in the command line',
    `<h1>Sign in the Berth command line</h1>
<p>Check that the code below is the one your terminal shows, then sign in with your partner account.</p>
${v.error ? `<p class="error">${esc(v.error)}</p>` : ''}
<form method="post" action="/device">
<label for="user_code">Code</label><input id="user_code" name="user_code" value="${esc(v.userCode)}" autocomplete="off" required placeholder="BCDF-GHJK">
<label for="email">Partner e-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="row"><button class="secondary" type="submit" name="action" value="deny">Deny</button><button type="submit" name="action" value="approve">Approve</button></div></form>`,
  );
}
