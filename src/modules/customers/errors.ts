import { defineErrors } from '../../lib/errors';

export const customerErrors = defineErrors({
  subscription_change_failed: { status: 400, meaning: 'The plan change could not be made at the payment provider' },
});
