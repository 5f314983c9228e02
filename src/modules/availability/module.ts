import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'availability',
  router,
  tags: [{ name: 'Availability, holds and drydock', description: 'Live availability of items and tours, holds with expiry, and drydock blocks.' }],
});
