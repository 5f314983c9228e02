import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'drydock',
  router,
});
