import { defineModule } from '../../lib/module';
import router from './index';
import { acctErrors } from './errors';
import { dailyExports, nextDailyExport } from './exports';

export default defineModule({
  name: 'accounting',
  router,
  errors: acctErrors.table,
  // Daily: yesterday's journals (on a test clock, at each daily run while the operator is connected).
  jobs: [{ name: 'accounting.daily_export', cron: '0 3 * * *', run: (ctx) => dailyExports(ctx), nextDue: nextDailyExport }],
  tags: [
    {
      name: 'Accounting',
      description: `The accounting system (Wave; simulated offline in development): OAuth connection, business, bank account, GL mappings, and a
balanced daily journal per location from Berth's ledger, sent through a per-operator queue at the provider's pace.`,
    },
  ],
});
