import { defineModule } from '../../lib/module';
import router from './index';
import { publicBookingErrors } from './errors';

export default defineModule({
  name: 'public-booking',
  router,
  errors: publicBookingErrors.table,
  tags: [{ name: 'Public', description: 'Endpoints the booking widget calls without operator credentials.' }],
});
