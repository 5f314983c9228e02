import { defineModule } from '../../lib/module';
import { ensureSandbox } from './service';

/**
 * The sandbox tenant ("Demo Marina" and "Other Rentals") exists in every environment: the spec's
 * sandbox is a real tenant that test keys sell. In staging and production it is seeded by this job
 * on the first cron tick after a deploy (idempotent; later ticks only confirm it is there).
 */
export default defineModule({
  name: 'sandbox',
  jobs: [{ name: 'sandbox.ensure', cron: '*/5 * * * *', run: (ctx) => ensureSandbox(ctx) }],
});
