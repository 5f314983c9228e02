/**
 * GET /widget: the booking widget page (what the embed script /widget.js opens in an iframe). A small
 * HTML shell whose layout is reserved by its stylesheet; the app (/static/widget/app.js, no framework;
 * built from src/widget-app/ by scripts/build-widget.mjs)
 * and its styles are Workers Static Assets of this deployment, never a CDN. The Content-Security-Policy
 * allows scripts from Berth's origin only (and the payment provider's script when the provider's
 * payment element is configured); any site may frame the page (no frame-ancestors restriction).
 */
import { renterPageHtml } from '../../lib/renter-page';

export function widgetHtml(): string {
  return renterPageHtml({
    title: 'Book online',
    referrer: 'strict-origin-when-cross-origin',
    styles: [],
    skip: 'Skip to the booking form',
    nav: '<nav class="bw-nav" aria-label="Booking steps"><ol class="bw-steps" id="bw-steps"></ol></nav>',
    noscript: 'Online booking needs JavaScript. Please call us to book.',
    script: '/static/widget/app.js',
  });
}
