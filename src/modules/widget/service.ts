/**
 * The booking widget: its page (page.ts), catalog (catalog.ts), quote and checkout (checkout.ts) and
 * funnel events (events.ts). The embed script and the page's scripts are static files in public/.
 */
export { widgetCatalog, TEST_CARDS } from './catalog';
export { quoteOrder, checkout, asWidget, type CheckoutInput } from './checkout';
export { recordEvent, widgetEventStmt, type WidgetEventInput, type FunnelEvent } from './events';
export { widgetHtml, widgetCsp, WIDGET_ASSET_VERSION } from './page';
