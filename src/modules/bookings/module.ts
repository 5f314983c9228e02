import { defineModule } from '../../lib/module';
import router from './index';
import { chargeDueInstallments, nextInstallmentDue } from './installments';
import { bookingErrors } from './errors';

export default defineModule({
  name: 'bookings',
  router,
  errors: bookingErrors.table,
  // Installments of payment plans, charged on their due dates with retries (installments.ts).
  jobs: [{ name: 'bookings.installments', cron: '0 3 * * *', run: chargeDueInstallments, nextDue: nextInstallmentDue }],
  tags: [{ name: 'Bookings', description: 'Bookings: create with live availability and payment, lifecycle, reschedule, cancel, ledger.' }],
});
