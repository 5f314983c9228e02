import { defineModule } from '../../lib/module';
import router from './index';
import { bookingErrors } from './errors';

export default defineModule({
  name: 'bookings',
  router,
  errors: bookingErrors.table,
  tags: [{ name: 'Bookings', description: 'Bookings: create with live availability and payment, lifecycle, reschedule, cancel, ledger.' }],
});
