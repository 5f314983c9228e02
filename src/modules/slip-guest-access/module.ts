import { defineModule } from '../../lib/module';
import router from './index';
import { guestAccessErrors } from './errors';
import { nextPassExpiry, onReservationDeleted, onReservationDetail, onReservationEnded, sweepExpiredPasses } from './passes';

export default defineModule({
  name: 'slip-guest-access',
  router,
  errors: guestAccessErrors.table,
  // Passes past their window become `expired`; due when the next active pass ends.
  jobs: [{ name: 'slip-guest-access.expire_passes', cron: '*/5 * * * *', run: sweepExpiredPasses, nextDue: nextPassExpiry }],
  // Passes die with their reservation, go with a deleted one, and show on its detail view.
  hooks: { 'slip_reservation.ended': onReservationEnded, 'slip_reservation.deleted': onReservationDeleted, 'slip_reservation.detail': onReservationDetail },
  tags: [
    {
      name: 'Slip guest access',
      description: `Guest passes of slip reservations: an access code of an unambiguous alphabet, a validity window within the stay, permissions, gate verification (throttled against guessing), check-ins and ID checks. A pass stops working at once when its reservation is cancelled, checked out or expires.`,
    },
  ],
});
