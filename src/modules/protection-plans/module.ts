import { defineModule } from '../../lib/module';
import router from './index';
import { protectionErrors } from './errors';

export default defineModule({
  name: 'protection-plans',
  router,
  errors: protectionErrors.table,
  tags: [
    {
      name: 'Protection plans',
      description: `Add-on cover a renter buys with a booking (damage waiver, cancellation cover, fuel and equipment cover, weather guarantee) and bundles of them, per industry (\`marine\` by default), under \`/api/v2\`. Locations choose which to offer and may override a plan's percentage and cap. The premium is computed on the server (percentage of the booking total, capped, floored by the plan minimum) and charged to the booking's stored card.`,
    },
  ],
});
