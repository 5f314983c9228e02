/**
 * The page the OAuth popup lands on after consent: it tells the opener (the dashboard) the outcome
 * with `postMessage`, addressed to the dashboard's origin only, and closes itself. The inline
 * script is allowed by its hash in the Content-Security-Policy; nothing else may run or load.
 */
import { base64Encode } from '../../lib/crypto';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export async function popupPage(opts: { title: string; text: string; message: Record<string, unknown>; targetOrigin: string }) {
  const script = `(function(){var m=${scriptJson(opts.message)};try{if(window.opener){window.opener.postMessage(m,${scriptJson(opts.targetOrigin)});}}finally{window.close();}})();`;
  const hash = base64Encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script))));
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(opts.title)}</title></head>
<body><p>${escapeHtml(opts.text)}</p><p>You can close this window.</p><script>${script}</script></body></html>`;
  return {
    html,
    headers: {
      'content-security-policy': `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  };
}
