import { defineErrors } from '../../lib/errors';

/** Codes of promo codes and gift cards. */
export const promoErrors = defineErrors({
  invalid_promo_code: { status: 400, meaning: 'An unknown, expired or inapplicable promo code, or a gift card that cannot pay (a booking)' },
  invalid_discount: { status: 400, meaning: '`Details` must hold exactly one of `$Discount` (> 0) or `%Discount` (above 0, at most 100)' },
  invalid_affiliate: { status: 400, meaning: 'The affiliate does not exist for the operator' },
  code_not_usable: { status: 400, meaning: 'The code is expired, used up, inactive or out of scope (anonymous callers get one generic message)' },
  gift_card_code_taken: { status: 400, meaning: 'A gift card purchase names a code the operator already has' },
  payment_not_completed: { status: 400, meaning: 'The payment intent has not succeeded (yet)' },
  webhook_not_configured: { status: 400, meaning: 'No webhook signing secret is configured' },
  invalid_signature: { status: 400, meaning: 'The payment-provider webhook signature is missing, stale or wrong' },
});

export const promoFail = promoErrors.fail;
