/**
 * Promo codes and gift cards: the entry point other modules import (bookings honour codes through
 * `findBookingPromo` / `bookingPromoUse`). The logic lives next to it: codes.ts (CRUD, search,
 * balance), queries.ts (code reads, the affiliate of a code), use.ts (atomic use, booking use and its release, affiliate analytics) and purchase.ts
 * (gift cards bought online, the provider's webhook, e-mail, saved-card purchase).
 */
export { listCodes, createCode, updateCode, deleteCode, searchCodes, balanceOf, parseDiscount } from './codes';
export {
  useCode,
  findBookingPromo,
  bookingPromoUse,
  isPromoExhausted,
  releaseBookingUse,
  affiliateStats,
  findBookingGiftCard,
  bookingGiftCardUse,
  isGiftCardOverdrawn,
} from './use';
export { createGiftCardIntent, confirmGiftCardPayment, giftCardWebhook, sendGiftCardEmail, chargeSavedCard, generateCode } from './purchase';
export { affiliateOfCode, codesOfAffiliate } from './queries';
export type { BookingGiftCard, BookingPromo } from './types';
