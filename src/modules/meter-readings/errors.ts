import { defineErrors } from '../../lib/errors';

export const meterErrors = defineErrors({
  meter_reading_billed: { status: 409, meaning: 'The reading (or the next one, whose usage depends on it) is billed and can no longer change' },
  meter_reading_out_of_order: {
    status: 409,
    meaning: 'A reading must be later than the latest reading of the unit and utility (correct an earlier one with PUT)',
  },
  meter_already_billed: { status: 409, meaning: 'Some of the readings are billed already; nothing was changed' },
  no_unbilled_usage: { status: 409, meaning: 'There is no unbilled, reviewed usage to charge' },
});
