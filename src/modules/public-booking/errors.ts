import { defineErrors } from '../../lib/errors';

export const publicBookingErrors = defineErrors({
  forbidden_path: { status: 400, meaning: 'A renter tried to edit a booking field that renters may not change' },
});
