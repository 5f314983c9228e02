import { defineModule } from '../../lib/module';
import router from './index';
import { gpsErrors } from './errors';
import { nextOverdueDue, overdueSweep } from './alerts';

export default defineModule({
  name: 'gps',
  router,
  errors: gpsErrors.table,
  jobs: [{ name: 'gps.overdue', cron: '*/5 * * * *', run: (ctx) => overdueSweep(ctx), nextDue: (ctx) => nextOverdueDue(ctx) }],
  tags: [
    {
      name: 'GPS alerts',
      description: `Boats' trackers report positions (each with its own key); geofence exits (accuracy-aware, two consecutive fixes), overdue
returns and automatic returns (\`booking.checked_out\`) become alerts.`,
    },
  ],
});
