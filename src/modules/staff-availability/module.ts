import { defineModule } from '../../lib/module';
import router from './index';

/** Public staff availability by skill (the booking widget's captain or coach choice). Its routes use the Public tag. */
export default defineModule({ name: 'staff-availability', router });
