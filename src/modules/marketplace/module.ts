import { defineModule } from '../../lib/module';
import router from './index';
import { marketplaceErrors } from './errors';
import { onCapacityReleased } from './notify';
import { nextDueReservations, sweepReservations } from './sweep';

export default defineModule({
  name: 'marketplace',
  router,
  errors: marketplaceErrors.table,
  hooks: { 'capacity.released': onCapacityReleased },
  jobs: [
    {
      name: 'marketplace.sweep',
      cron: '*/5 * * * *',
      run: (ctx) => sweepReservations(ctx),
      nextDue: (ctx) => nextDueReservations(ctx),
    },
  ],
  tags: [
    { name: 'Tour marketplace', description: "The operator's tour-marketplace configuration (admins)." },
    {
      name: 'Tour marketplace supplier API',
      description: `The API the tour marketplace calls (\`/ota/*\`), authenticated with the marketplace's key: catalog, availability,
reservations that hold price and inventory for 20 minutes through the item's lock, confirmations, cancellations and amendments through the same
booking service as every sale. Berth notifies the marketplace (outbound key) when capacity comes back.`,
    },
  ],
});
