import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'analytics',
  router,
  tags: [
    {
      name: 'Analytics',
      description: `Figures of the business from its own records: revenue, tax, tips, discounts and bookings by local day, the best items and
assets, year over year with targets, realized and deferred revenue, and the renter forecast. Money in integer cents (\`...Cents\`).`,
    },
  ],
});
