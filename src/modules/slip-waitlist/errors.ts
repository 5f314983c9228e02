import { defineErrors } from '../../lib/errors';

export const waitlistErrors = defineErrors({
  waitlist_offer_open: { status: 409, meaning: 'The waitlist entry already has an open offer; it is accepted, declined, cancelled or expires first' },
  waitlist_unit_mismatch: { status: 409, meaning: 'The unit is not of the type or in the location the waitlist entry asks for' },
});
