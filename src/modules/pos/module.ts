import { defineModule } from '../../lib/module';
import router from './index';
import { posErrors } from './errors';

export default defineModule({
  name: 'pos',
  router,
  errors: posErrors.table,
  tags: [
    {
      name: 'Point of sale',
      description: `The counter at the dock: products with variants and stock per location and till (atomic SQL changes that never go below zero unless allowed), folders, sales priced on the server and paid by cash, card, card reader or account, refunds that can never exceed the sale, and cash-drawer settlement with numbered Z reports. Amounts are dollars in the API, integer cents inside.`,
    },
    {
      name: 'Point of sale: payments',
      description: `The payment provider behind the counter: card-reader intents and connection tokens, off-session charges, connected (merchant) accounts with onboarding links, embedded sessions and dashboard links; \`stripeRegion\` US or CA picks the platform account. Amounts are integer cents. Offline, the simulator answers with the provider's shapes and states.`,
    },
  ],
});
