import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'renters',
  router,
  tags: [{ name: 'Renters', description: "The operator's renters (end customers): records, payment methods, balances, exports." }],
});
