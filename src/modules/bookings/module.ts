import { defineModule } from '../../lib/module';
import router from './index';
import { chargeDueInstallments, nextInstallmentDue } from './installments';
import { bookingErrors } from './errors';
import { accountCreditSale } from './account-credit';

export default defineModule({
  name: 'bookings',
  router,
  errors: bookingErrors.table,
  // The renter's account credit as a payment source of the booking sale (account-credit.ts).
  sale: [accountCreditSale],
  // Installments of payment plans, charged on their due dates with retries (installments.ts).
  jobs: [{ name: 'bookings.installments', cron: '0 3 * * *', run: chargeDueInstallments, nextDue: nextInstallmentDue }],
  tags: [{ name: 'Bookings', description: 'Bookings: create with live availability and payment, lifecycle, reschedule, cancel, ledger.' }],
});
