import { defineErrors } from '../../lib/errors';

export const protectionErrors = defineErrors({
  plan_not_offered: { status: 400, meaning: "The plan is unknown, inactive or not enabled at the booking's location" },
  no_payment_method: { status: 400, meaning: 'The booking has no stored payment method to charge' },
});

export const protectionFail = protectionErrors.fail;
