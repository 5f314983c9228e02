import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'api-keys',
  router,
  tags: [{ name: 'API keys', description: 'Operator API keys; a key carries the permissions of the user who created it.' }],
});
