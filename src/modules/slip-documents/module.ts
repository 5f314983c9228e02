import { defineModule } from '../../lib/module';
import router from './index';
import { documentErrors } from './errors';
import { nextStaleUpload, onReservationDeleted, onReservationDetail, purgeStaleUploads } from './documents';

export default defineModule({
  name: 'slip-documents',
  router,
  errors: documentErrors.table,
  // Uploads never attached and public documents never sent, a day on; due when the next one turns a day old.
  jobs: [{ name: 'slip-documents.purge_stale_uploads', cron: '0 3 * * *', run: purgeStaleUploads, nextDue: nextStaleUpload }],
  hooks: { 'slip_reservation.detail': onReservationDetail, 'slip_reservation.deleted': onReservationDeleted },
  tags: [
    {
      name: 'Slip documents',
      description: `Documents of slip reservations (insurance, registration, ...) against the location's required documents: files stored in R2 with the type read from their content and a size cap, submitted by renters in the tenant portal or after a public booking, reviewed by staff.`,
    },
  ],
});
