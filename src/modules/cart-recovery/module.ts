import { defineModule } from '../../lib/module';
import router from './index';
import { processCartRecovery } from './service';

export default defineModule({
  name: 'cart-recovery',
  router,
  jobs: [{ name: 'cart-recovery.contact', cron: '*/5 * * * *', run: (ctx, now) => processCartRecovery(ctx, now) }],
  tags: [
    {
      name: 'Cart recovery',
      description: `Abandoned carts of the booking widget: public capture (throttled per IP and per address), operator lists with statistics, a recovery e-mail with a short tracking link sent once per cart, and the recovery funnel.`,
    },
  ],
});
