import { defineErrors } from '../../lib/errors';

export const slipErrors = defineErrors({
  slip_subscription_required: {
    status: 402,
    meaning: 'Adding or re-opening slips needs an active slip subscription (POST /slip-subscription/create-checkout)',
  },
});
