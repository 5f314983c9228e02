import { defineModule } from '../../lib/module';
import router from './index';
import { nextCartDue, processCartRecovery } from './contact';

export default defineModule({
  name: 'cart-recovery',
  router,
  // nextDue: the next cart's contact time.
  jobs: [{ name: 'cart-recovery.contact', cron: '*/5 * * * *', run: (ctx) => processCartRecovery(ctx), nextDue: nextCartDue }],
  tags: [
    {
      name: 'Cart recovery',
      description: `Abandoned carts of the booking widget: public capture (throttled per IP and per address), operator lists with statistics, a recovery e-mail with a short tracking link sent once per cart, and the recovery funnel.`,
    },
  ],
});
