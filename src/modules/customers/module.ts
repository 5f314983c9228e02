import { defineModule } from '../../lib/module';
import router from './index';
import { customerErrors } from './errors';

export default defineModule({
  name: 'customers',
  router,
  errors: customerErrors.table,
  tags: [{ name: 'Customers', description: "The operator's account: profile, plan and subscription, payment methods, integrations, settings." }],
});
