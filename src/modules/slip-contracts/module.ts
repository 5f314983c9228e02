import { defineModule } from '../../lib/module';
import router from './index';
import { onReservationDeleted } from './contracts';
import { onTermsChanged } from './renewal';
import { CONTRACT_TERMS_CHANGED } from '../slip-reservations/types';

export default defineModule({
  name: 'slip-contracts',
  router,
  // A permanently deleted reservation takes its contracts and their PDFs with it.
  hooks: { 'slip_reservation.deleted': onReservationDeleted },
  // A reservation whose terms changed gets its contract regenerated with them and resent (renewal.ts).
  queue: { [CONTRACT_TERMS_CHANGED]: onTermsChanged },
  tags: [
    {
      name: 'Slip contracts',
      description: `Contract templates with variables, contracts generated for slip reservations as PDFs (embedded Unicode font), sent for signature, signed with a signature record (signature, signer, time, IP, user agent, SHA-256 of the document), resent, voided and regenerated. A contract follows its reservation's terms: when the dates, rate type, unit, rate, billable length or total change, it goes back to unsigned and is regenerated with the new terms and resent.`,
    },
  ],
});
