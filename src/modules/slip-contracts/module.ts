import { defineModule } from '../../lib/module';
import router from './index';
import { onReservationDeleted } from './contracts';

export default defineModule({
  name: 'slip-contracts',
  router,
  // A permanently deleted reservation takes its contracts and their PDFs with it.
  hooks: { 'slip_reservation.deleted': onReservationDeleted },
  tags: [
    {
      name: 'Slip contracts',
      description: `Contract templates with variables, contracts generated for slip reservations as PDFs (embedded Unicode font), sent for signature, signed with a signature record (signature, signer, time, IP, user agent, SHA-256 of the document), resent, voided and regenerated.`,
    },
  ],
});
