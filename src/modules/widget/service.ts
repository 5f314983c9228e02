/**
 * The booking widget's face: what other modules may call, and today nothing outside calls it: the
 * widget plugs in through module.ts (its router). The logic lives beside it: its page (page.ts),
 * catalog (catalog.ts), quote and checkout (checkout.ts) and funnel events (events.ts). The embed
 * script and the page's scripts are static files in public/.
 */
export {};
