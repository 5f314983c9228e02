import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'schedule',
  router,
  tags: [{ name: 'Schedule', description: "The operator's day sheet: bookings by day, week, staff member and item." }],
});
