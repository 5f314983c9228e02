import { defineErrors } from '../../lib/errors';

export const depositErrors = defineErrors({
  payment_not_successful: { status: 400, meaning: 'The payment intent did not succeed at the provider; nothing was recorded' },
  not_capturable: { status: 400, meaning: 'The deposit is not in a state that can be captured' },
  not_releasable: { status: 400, meaning: 'The deposit is not in a state that can be released' },
});
