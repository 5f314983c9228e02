import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'users',
  router,
  tags: [{ name: 'Users', description: 'Dashboard users of the operator: invitations, roles and permissions, skills, exports.' }],
});
