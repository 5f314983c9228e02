import { defineErrors } from '../../lib/errors';

export const bookingErrors = defineErrors({
  invalid_promo_code: { status: 400, meaning: 'An unknown, expired or inapplicable promo code' },
});
