import { defineModule } from '../../lib/module';
import router from './index';
import { guestAccessErrors } from './errors';
import { onReservationDeleted, onReservationDetail, onReservationEnded, sweepExpiredPasses } from './service';

export default defineModule({
  name: 'slip-guest-access',
  router,
  errors: guestAccessErrors.table,
  jobs: [{ name: 'slip-guest-access.expire_passes', cron: '*/5 * * * *', run: (ctx, now) => sweepExpiredPasses(ctx.env, now) }],
  // Passes die with their reservation, go with a deleted one, and show on its detail view.
  hooks: { 'slip_reservation.ended': onReservationEnded, 'slip_reservation.deleted': onReservationDeleted, 'slip_reservation.detail': onReservationDetail },
  tags: [
    {
      name: 'Slip guest access',
      description: `Guest passes of slip reservations: an access code of an unambiguous alphabet, a validity window within the stay, permissions, gate verification (throttled against guessing), check-ins and ID checks. A pass stops working at once when its reservation is cancelled, checked out or expires.`,
    },
  ],
});
