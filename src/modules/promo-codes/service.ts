/**
 * Promo codes and gift cards: the module's face (the logic is in codes.ts, queries.ts, use.ts,
 * purchase.ts; a booking's code and gift card plug into the sale through sale-extension.ts, listed
 * in module.ts). Other modules use it for:
 * - affiliate earnings: affiliateOfCode, codesOfAffiliate
 * - the widget's checkout: findBookingGiftCard
 */
export { findBookingGiftCard } from './use';
export { affiliateOfCode, codesOfAffiliate } from './queries';
