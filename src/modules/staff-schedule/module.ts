import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'staff-schedule',
  router,
  tags: [{ name: 'Staff schedule', description: 'Shifts of staff members per location and day, and their time off.' }],
});
