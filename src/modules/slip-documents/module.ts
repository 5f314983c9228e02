import { defineModule } from '../../lib/module';
import router from './index';
import { documentErrors } from './errors';
import { onReservationDeleted, onReservationDetail, purgeStaleUploads } from './service';

export default defineModule({
  name: 'slip-documents',
  router,
  errors: documentErrors.table,
  jobs: [{ name: 'slip-documents.purge_stale_uploads', cron: '0 3 * * *', run: (ctx, now) => purgeStaleUploads(ctx.env, now) }],
  hooks: { 'slip_reservation.detail': onReservationDetail, 'slip_reservation.deleted': onReservationDeleted },
  tags: [
    {
      name: 'Slip documents',
      description: `Documents of slip reservations (insurance, registration, ...) against the location's required documents: files stored in R2 with the type read from their content and a size cap, submitted by renters in the tenant portal or after a public booking, reviewed by staff.`,
    },
  ],
});
