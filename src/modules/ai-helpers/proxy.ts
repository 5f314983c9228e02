/**
 * `GET /ai/proxy-page`: a public page, fetched through the safe public fetch, answered as HTML for
 * the operator's "pick the items on your website" screen: every script of the page is removed
 * (script elements, inline event handlers, `javascript:` URLs, frames, objects, embeds, refresh and
 * CSP meta tags, script preloads), a `<base>` makes its links and images resolve to the original
 * site, and Berth's selection script is added: hovering outlines an element, clicking it posts
 * `{type: 'berth:select', selector, text, tag, href, src}` to the parent window instead of
 * following links or submitting forms. The answer carries a Content-Security-Policy (header and
 * meta, so it also holds in an `iframe srcdoc`) that lets only that script run, sandboxed.
 */
import { fetchPublic } from '../../adapters/http';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';

const REMOVE = 'script,iframe,frame,frameset,object,embed,applet,base,portal,noscript';
const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background', 'srcdoc'];
const DANGEROUS_URL = /^\s*(javascript|vbscript|data:text\/html|data:application\/(x-)?javascript)/i;

/** Berth's selection script (no dependency; runs in the proxied page only). */
export const SELECTION_SCRIPT = `(function () {
  var last = null;
  function path(el) {
    if (!(el instanceof Element)) return '';
    var parts = [];
    while (el && el.nodeType === 1 && parts.length < 12) {
      if (el.id && /^[A-Za-z][\\w-]*$/.test(el.id)) { parts.unshift('#' + el.id); break; }
      var tag = el.tagName.toLowerCase(), i = 1, s = el;
      while ((s = s.previousElementSibling)) if (s.tagName === el.tagName) i++;
      parts.unshift(tag + ':nth-of-type(' + i + ')');
      el = el.parentElement;
    }
    return parts.join(' > ');
  }
  function mark(el, on) { if (el && el.style) el.style.outline = on ? '2px solid #0a84ff' : ''; }
  document.addEventListener('mouseover', function (e) { mark(last, false); last = e.target; mark(last, true); }, true);
  document.addEventListener('click', function (e) {
    e.preventDefault(); e.stopPropagation();
    var el = e.target;
    parent.postMessage({ type: 'berth:select', selector: path(el), tag: el.tagName ? el.tagName.toLowerCase() : null,
      text: (el.innerText || el.textContent || '').trim().slice(0, 1000), href: el.closest && el.closest('a') ? el.closest('a').href : null,
      src: el.currentSrc || el.src || null }, '*');
  }, true);
  document.addEventListener('submit', function (e) { e.preventDefault(); }, true);
  window.addEventListener('message', function (e) {
    if (!e.data || e.data.type !== 'berth:highlight') return;
    var el = document.querySelector(e.data.selector); mark(last, false); last = el; mark(el, true);
    if (el && el.scrollIntoView) el.scrollIntoView({ block: 'center' });
  });
  parent.postMessage({ type: 'berth:ready', url: document.baseURI }, '*');
})();`;

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function proxyCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src * 'unsafe-inline'",
    'img-src * data: blob:',
    'font-src * data:',
    'media-src *',
    "connect-src 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-src 'none'",
  ].join('; ');
}

export async function proxyPage(ctx: Ctx, q: { url: string }): Promise<{ html: string; headers: Record<string, string> }> {
  tenantOf(ctx);
  const page = await fetchPublic(ctx.env, q.url, { accept: ['text/html', 'application/xhtml+xml'], maxBytes: 3 * 1024 * 1024 });
  const nonce = crypto.randomUUID().replace(/-/g, '');
  const csp = proxyCsp(nonce);
  let headSeen = false;
  let bodySeen = false;
  const head = `<base href="${escapeAttr(page.url)}"><meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">`;
  const rewriter = new HTMLRewriter()
    .on(REMOVE, { element: (e) => void e.remove() })
    .on('meta', {
      element: (e) => {
        const equiv = (e.getAttribute('http-equiv') ?? '').toLowerCase();
        if (equiv === 'refresh' || equiv === 'content-security-policy' || equiv === 'set-cookie') e.remove();
      },
    })
    .on('link', {
      element: (e) => {
        const rel = (e.getAttribute('rel') ?? '').toLowerCase();
        if (/(preload|modulepreload|prefetch|import|serviceworker|manifest)/.test(rel)) e.remove();
      },
    })
    .on('*', {
      element: (e) => {
        const names = [...e.attributes].map(([name]) => name);
        for (const name of names) {
          const lower = name.toLowerCase();
          if (lower.startsWith('on')) e.removeAttribute(name);
          else if (URL_ATTRS.includes(lower) && DANGEROUS_URL.test(e.getAttribute(name) ?? '')) e.removeAttribute(name);
          else if (lower === 'srcdoc') e.removeAttribute(name);
        }
      },
    })
    .on('head', {
      element: (e) => {
        headSeen = true;
        e.prepend(head, { html: true });
      },
    })
    .on('body', {
      element: (e) => {
        bodySeen = true;
        e.append(`<script nonce="${nonce}">${SELECTION_SCRIPT}</script>`, { html: true });
      },
    })
    .onDocument({
      end: (end) => {
        // A page without explicit <head> or <body> tags still gets the base, the policy and the script.
        if (!headSeen) end.append(head, { html: true });
        if (!bodySeen) end.append(`<script nonce="${nonce}">${SELECTION_SCRIPT}</script>`, { html: true });
      },
    });
  const charset = page.charset ?? 'utf-8';
  let html: string;
  try {
    html = new TextDecoder(charset).decode(page.body);
  } catch {
    html = new TextDecoder().decode(page.body);
  }
  const out = await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })).text();
  return {
    html: out,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `${csp}; sandbox allow-scripts`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-proxied-url': page.url,
    },
  };
}
