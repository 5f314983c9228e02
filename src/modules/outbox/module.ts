import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'outbox',
  router,
  tags: [{ name: 'Messages', description: 'E-mail, SMS and chat messages the platform sent (the offline adapters write them here).' }],
});
