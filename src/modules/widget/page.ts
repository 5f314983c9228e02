/**
 * GET /widget: the booking widget page (what the embed script /widget.js opens in an iframe). A small
 * HTML shell whose layout is reserved by its stylesheet; the app (/static/widget/app.js, no framework;
 * built from src/widget-app/ by scripts/build-widget.mjs)
 * and its styles are Workers Static Assets of this deployment, never a CDN. The Content-Security-Policy
 * allows scripts from Berth's origin only (and the payment provider's script when the provider's
 * payment element is configured); any site may frame the page (no frame-ancestors restriction).
 */
import { RENTER_ASSET_VERSION } from '../../lib/renter-page';

export function widgetHtml(): string {
  const v = RENTER_ASSET_VERSION;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="strict-origin-when-cross-origin" />
    <title>Book online</title>
    <link rel="stylesheet" href="/static/widget/app.css?v=${v}" />
  </head>
  <body>
    <a class="bw-skip" href="#bw-main">Skip to the booking form</a>
    <div class="bw" id="bw">
      <header class="bw-head">
        <img class="bw-logo" id="bw-logo" alt="" width="40" height="40" hidden />
        <div>
          <h1 class="bw-title" id="bw-title">Book online</h1>
          <p class="bw-tz" id="bw-tz"></p>
        </div>
      </header>
      <nav class="bw-nav" aria-label="Booking steps"><ol class="bw-steps" id="bw-steps"></ol></nav>
      <main class="bw-main" id="bw-main" tabindex="-1">
        <section class="bw-view" id="bw-view" aria-live="off"><p class="bw-loading">Loading…</p></section>
      </main>
      <div class="bw-sr" id="bw-live" role="status" aria-live="polite" aria-atomic="true"></div>
      <div class="bw-sr" id="bw-alert" role="alert"></div>
    </div>
    <noscript><p class="bw-noscript">Online booking needs JavaScript. Please call us to book.</p></noscript>
    <script src="/static/widget/app.js?v=${v}" defer></script>
  </body>
</html>
`;
}
