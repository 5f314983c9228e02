import { defineModule } from '../../lib/module';
import router from './index';
import { depositErrors } from './errors';

export default defineModule({
  name: 'deposits',
  router,
  errors: depositErrors.table,
  tags: [{ name: 'Deposits', description: 'Security deposits held as card pre-authorizations: authorize, capture, release, audit.' }],
});
