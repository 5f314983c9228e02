import { defineErrors } from '../../lib/errors';

/** Codes of embedded coverage (offerings, checkout, message requests). */
export const coverageErrors = defineErrors({
  offering_not_ready: { status: 409, meaning: 'The offering cannot be sent for review yet; `details` lists what is missing' },
  payout_country_unsupported: { status: 422, meaning: 'Payouts go only to the US, the UK, the EEA, Canada and Switzerland' },
  coverage_price_changed: {
    status: 409,
    meaning: 'The coverage price rose above the displayed estimate: the renter must accept the new price (or drop the coverage) before paying',
  },
  offering_disabled: { status: 403, meaning: 'The operator no longer offers this coverage: message requests stop at once' },
});

export const coverageFail = coverageErrors.fail;
