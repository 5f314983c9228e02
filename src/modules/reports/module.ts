import { defineModule } from '../../lib/module';
import router from './index';

export default defineModule({
  name: 'reports',
  router,
  tags: [
    {
      name: 'Reports',
      description: `Financial reports an accountant can use, read from the ledger: the sales journal (one row per entry) and payouts by day, item or
payment method, with gross, discounts, refunds, net, taxes, fees, tips, deposits held and captured, and the gift card liability; JSON or CSV
(RFC 4180, equal to the ledger to the cent). Money in integer cents (\`...Cents\`).`,
    },
  ],
});
