import type { Command } from 'commander';
import { Api, anonymousApi, currentSession } from '../lib/api';
import { openBrowser } from '../lib/browser';
import { apiUrl, CLI_CLIENT_ID } from '../lib/config';
import { accountOf, credentialsPath, updateAccount, type Session } from '../lib/credentials';
import { CliError, EXIT } from '../lib/errors';
import { c, data, info, json, notice, success } from '../lib/output';

interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval: number;
}
interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  error?: string;
  message?: string;
  error_description?: string;
  interval?: number;
}
interface Me {
  partnerId: string;
  email: string;
  name: string;
  company: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `berth login`: the OAuth device authorization grant (RFC 8628). Shows the code and the approval
 * URL (on stderr, also in --json mode: a person has to read them), opens the browser when it can,
 * then polls the token endpoint at the interval the server asks for (`slow_down` adds 5 s).
 */
/** Answers to a device-code poll that say nothing about the code: the poll is simply made again. */
const TRANSIENT = [429, 502, 503, 504];

async function login(o: { browser: boolean }) {
  const base = apiUrl();
  const api = anonymousApi();
  const dc = await api.post<DeviceCode>('/oauth/device/code', undefined, { form: { client_id: CLI_CLIENT_ID } });
  const k = c();
  notice(`To sign in to ${base}, open ${k.bold(dc.verification_uri)} and enter the code ${k.bold(dc.user_code)}`);
  if (o.browser && openBrowser(dc.verification_uri_complete ?? dc.verification_uri)) notice('(opened in your browser)');
  notice('Waiting for approval...');
  let interval = Math.max(1, dc.interval) * 1000;
  const deadline = Date.now() + dc.expires_in * 1000;
  let token: { value: string; expiresIn: number } | undefined;
  while (!token) {
    await sleep(interval);
    if (Date.now() > deadline) throw new CliError('The code expired before it was approved', EXIT.failure, 'expired_token', 'Run `berth login` again.');
    let r: Awaited<ReturnType<typeof api.request<TokenAnswer>>>;
    try {
      r = await api.request<TokenAnswer>('POST', '/oauth/token', {
        form: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: dc.device_code, client_id: CLI_CLIENT_ID },
        accept: [400, ...TRANSIENT],
      });
    } catch (err) {
      // A poll lost on the way (the connection dropped): poll again at the next interval.
      if (err instanceof CliError && err.exitCode === EXIT.network) continue;
      throw err;
    }
    // A busy or restarting server (429, 502-504) is not an answer: poll again at the next interval.
    if (TRANSIENT.includes(r.status)) continue;
    const t = r.body;
    if (r.status === 200 && t.access_token) {
      token = { value: t.access_token, expiresIn: t.expires_in ?? 30 * 86400 };
      break;
    }
    const why = t.message ?? t.error_description ?? t.error ?? `HTTP ${r.status}`;
    if (t.error === 'authorization_pending') continue;
    if (t.error === 'slow_down') {
      interval = Math.max(interval + 5000, (t.interval ?? 0) * 1000);
      continue;
    }
    if (t.error === 'access_denied') throw new CliError('The sign-in was denied in the browser', EXIT.refused, 'access_denied');
    if (t.error === 'expired_token') throw new CliError('The code expired before it was approved', EXIT.failure, 'expired_token', 'Run `berth login` again.');
    throw new CliError(`Sign-in failed: ${why}`, EXIT.failure, t.error ?? 'login_failed');
  }
  const me = await new Api(base, token.value).get<Me>('/partners/me');
  const previous = accountOf(base).session;
  const session: Session = {
    token: token.value,
    expiresAt: new Date(Date.now() + token.expiresIn * 1000).toISOString(),
    partner: { partnerId: me.partnerId, email: me.email, name: me.name, company: me.company },
    signedInAt: new Date().toISOString(),
  };
  updateAccount(base, (e) => ({ ...e, session }));
  // The previous session of this machine stops now (best effort).
  if (previous && previous.token !== token.value) await revokeToken(base, previous.token).catch(() => {});
  success(`Signed in to ${base} as ${me.email}${me.company ? ` (${me.company})` : ''}; session saved in ${credentialsPath()}`);
  json({ apiUrl: base, partner: session.partner, expiresAt: session.expiresAt });
}

const revokeToken = (base: string, token: string) =>
  new Api(base).request('POST', '/oauth/revoke', { form: { client_id: CLI_CLIENT_ID, token }, timeoutMs: 10_000 });

/** `berth logout`: revokes the session's token at Berth and forgets it (machine secrets stay). */
async function logout() {
  const base = apiUrl();
  const s = accountOf(base).session;
  if (!s) {
    info(`Not signed in to ${base}; nothing to do.`);
    json({ apiUrl: base, signedOut: false });
    return;
  }
  let revoked = true;
  try {
    await revokeToken(base, s.token);
  } catch (err) {
    revoked = false;
    info(`Could not revoke the token at ${base} (${(err as Error).message}); it is forgotten here and expires on ${s.expiresAt}.`);
  }
  updateAccount(base, (e) => {
    delete e.session;
    return e;
  });
  success(`Signed out of ${base}`);
  json({ apiUrl: base, signedOut: true, revoked });
}

/** `berth whoami`: the partner account of the session, as the server sees it now. */
async function whoami() {
  const base = apiUrl();
  const s = currentSession(base);
  const me = await new Api(base, s.token).get<Me & { status: string }>('/partners/me');
  data(`${me.email}  ${me.name}${me.company ? `, ${me.company}` : ''}  (${me.partnerId})`);
  data(`API ${base}, session expires ${s.expiresAt}`);
  json({ apiUrl: base, partner: me, expiresAt: s.expiresAt });
}

export function registerAuth(program: Command) {
  program
    .command('login')
    .description('Sign in with your partner account (device authorization: approve a code in the browser)')
    .option('--no-browser', 'do not try to open the browser; just print the URL and code')
    .action((o: { browser: boolean }) => login(o));
  program
    .command('logout')
    .description('Revoke and forget the session of this machine')
    .action(() => logout());
  program
    .command('whoami')
    .description('Show the partner account you are signed in as')
    .action(() => whoami());
}
