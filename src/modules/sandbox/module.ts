import { defineModule } from '../../lib/module';
import router from './index';
import { sandboxErrors } from './errors';
import { ensureSandbox } from './service';

/**
 * The sandbox: the demo tenants ("Demo Marina" and "Other Rentals") that exist in every environment
 * (the spec's sandbox is a real tenant that test keys sell; in staging and production it is seeded
 * by this job on the first cron tick after a deploy, idempotent), and sandbox test clocks, each
 * driving a private demo operator whose time moves only when the clock is advanced.
 */
export default defineModule({
  name: 'sandbox',
  router,
  errors: sandboxErrors.table,
  jobs: [{ name: 'sandbox.ensure', cron: '*/5 * * * *', scope: 'platform', run: (ctx) => ensureSandbox(ctx) }],
  tags: [
    {
      name: 'Sandbox test clocks',
      description: `Simulate time in the sandbox, the way payment providers' test clocks do: create a clock frozen at any instant, get a private
demo operator whose "now" is the clock, then advance it and watch renewals, reminders, expiries and retries happen in time order.`,
    },
  ],
});
