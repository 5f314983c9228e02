import { ApiError, defineErrors } from '../../lib/errors';

export const bookingErrors = defineErrors({
  invalid_promo_code: { status: 400, meaning: 'An unknown, expired or inapplicable promo code' },
});

/** 400 `bad_request` naming the field at fault. */
export const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});
