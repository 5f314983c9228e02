import { defineModule } from '../../lib/module';
import router from './index';
import { renterErrors } from './errors';

export default defineModule({
  name: 'renter-self-service',
  router,
  errors: renterErrors.table,
  tags: [
    {
      name: 'Renter self-service',
      description: 'What renters did on their bookings without operator credentials (uploaded documents, participants), as the operator sees it.',
    },
  ],
});
