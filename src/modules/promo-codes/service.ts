/**
 * Promo codes and gift cards: the module's face (the logic is in codes.ts, queries.ts, use.ts,
 * purchase.ts, counter.ts; a booking's code and gift card plug into the sale through sale-extension.ts,
 * listed in module.ts). Other modules use it for:
 * - affiliate earnings: affiliateOfCode, codesOfAffiliate
 * - the widget's checkout: findBookingGiftCard
 * - the point of sale's gift-card lines (sell and reload at the counter, and refunds of those lines):
 *   planCounterGiftCards, counterGiftCardStmts, isGiftCardCodeTaken, takeGiftCardValue,
 *   giveGiftCardValueBack, giftCardBalance
 */
export { findBookingGiftCard } from './use';
export { affiliateOfCode, codesOfAffiliate } from './queries';
export {
  planCounterGiftCards,
  counterGiftCardStmts,
  isGiftCardCodeTaken,
  takeGiftCardValue,
  giveGiftCardValueBack,
  giftCardBalance,
  type CounterGiftCardInput,
  type CounterGiftCardPlan,
} from './counter';
