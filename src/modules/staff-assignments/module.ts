import { defineModule } from '../../lib/module';
import router from './index';
import { staffErrors } from './errors';

/** Staff on bookings without double-booking: manual and automatic assignment against shifts, time off and other assignments. */
export default defineModule({
  name: 'staff-assignments',
  router,
  errors: staffErrors.table,
  tags: [{ name: 'Staff assignments', description: 'Staff members assigned to bookings: no one is in two places at once.' }],
});
