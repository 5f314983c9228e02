import { defineModule } from '../../lib/module';
import router from './index';
import { calendarErrors } from './errors';
import { onCapacityReleased, syncAll } from './push';

export default defineModule({
  name: 'calendar-sync',
  router,
  errors: calendarErrors.table,
  hooks: { 'capacity.released': onCapacityReleased },
  jobs: [
    {
      name: 'calendar-sync.incremental',
      cron: '*/5 * * * *',
      run: (ctx) => syncAll(ctx),
      // A sync with the provider has no due time of the operator's own: on a test clock it runs at each step of an advance.
      nextDue: async () => null,
    },
  ],
  tags: [
    {
      name: 'Calendar sync',
      description: `Each user's bookings in their own calendar (Google Calendar; simulated offline in development): OAuth connection, choice of
calendar, incremental sync every 5 minutes with the provider's sync token (a 410 means a full resync), cancellations pushed at once. Plus private
iCalendar feed URLs (RFC 5545) for any calendar app.`,
    },
  ],
});
