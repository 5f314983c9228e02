/**
 * The renter-facing pages the Worker serves as HTML shells (the booking widget at /widget, the member portal at
 * /member-portal, the tenant portal at /slip-portal): their Content-Security-Policy and headers, and the shell of a portal
 * page. Each page's app is a script of this deployment's static assets (/static/...; built from src/widget-app/ by
 * scripts/build-widget.mjs), styled by the widget's stylesheet: scripts, styles and fonts come from Berth's origin only (and
 * the payment provider's script when its card element is configured). The widget may be framed by any site (it is embedded);
 * a portal, which acts on a signed-in person's account, may not be framed at all.
 */
import type { Env } from '../env';

/** Bumped when the widget's or the portals' static files change (cache busting of /static/widget/* and /static/portal/*). */
export const RENTER_ASSET_VERSION = '5';

export function renterPageCsp(env: Env, o: { framed: boolean }): string {
  const stripe = !!(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);
  return [
    "default-src 'self'",
    `script-src 'self'${stripe ? ' https://js.stripe.com' : ''}`,
    "style-src 'self'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    `connect-src 'self'${stripe ? ' https://api.stripe.com' : ''}`,
    `frame-src ${stripe ? 'https://js.stripe.com https://hooks.stripe.com' : "'none'"}`,
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    ...(o.framed ? [] : ["frame-ancestors 'none'"]),
  ].join('; ');
}

/** The headers of a renter page's HTML answer. */
export function renterPageHeaders(env: Env, o: { framed: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': renterPageCsp(env, o),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': o.framed ? 'strict-origin-when-cross-origin' : 'no-referrer',
    'Cache-Control': 'public, max-age=300',
    ...(o.framed ? {} : { 'X-Frame-Options': 'DENY' }),
  };
}

/**
 * A renter page: its head (its stylesheets, after the widget's), the operator's header (logo and title, filled by the app),
 * `nav`, the view (its heading takes the focus on every change), the live regions, and the app's script.
 */
export function renterPageHtml(o: { title: string; referrer: string; styles: string[]; skip: string; nav: string; noscript: string; script: string }): string {
  const v = RENTER_ASSET_VERSION;
  const styles = ['/static/widget/app.css', ...o.styles].map((href) => `<link rel="stylesheet" href="${href}?v=${v}" />`).join('\n    ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="${o.referrer}" />
    <title>${o.title}</title>
    ${styles}
  </head>
  <body>
    <a class="bw-skip" href="#bw-main">${o.skip}</a>
    <div class="bw" id="bw">
      <header class="bw-head">
        <img class="bw-logo" id="bw-logo" alt="" width="40" height="40" hidden />
        <div>
          <h1 class="bw-title" id="bw-title">${o.title}</h1>
          <p class="bw-tz" id="bw-tz"></p>
        </div>
      </header>
      ${o.nav}
      <main class="bw-main" id="bw-main" tabindex="-1">
        <section class="bw-view" id="bw-view" aria-live="off"><p class="bw-loading">Loading…</p></section>
      </main>
      <div class="bw-sr" id="bw-live" role="status" aria-live="polite" aria-atomic="true"></div>
      <div class="bw-sr" id="bw-alert" role="alert"></div>
    </div>
    <noscript><p class="bw-noscript">${o.noscript}</p></noscript>
    <script src="${o.script}?v=${v}" defer></script>
  </body>
</html>
`;
}

/**
 * A portal page: the renter page with the portal's navigation (the app fills it once signed in) and the portal's own
 * stylesheet and script (/static/portal/{app}.js). No referrer leaves the page (a sign-in link's token is in its first address).
 */
export function portalPageHtml(o: { app: 'member' | 'tenant'; title: string; noscript: string }): string {
  return renterPageHtml({
    title: o.title,
    referrer: 'no-referrer',
    styles: ['/static/portal/portal.css'],
    skip: 'Skip to the content',
    nav: '<nav class="pt-nav" id="pt-nav" aria-label="Portal" hidden></nav>',
    noscript: o.noscript,
    script: `/static/portal/${o.app}.js`,
  });
}
