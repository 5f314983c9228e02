import { defineModule } from '../../lib/module';
import router from './index';
import { onCapacityReleased, sweepWaitlist } from './service';

export default defineModule({
  name: 'waitlist',
  router,
  jobs: [{ name: 'waitlist.sweep', cron: '*/5 * * * *', run: (ctx, now) => sweepWaitlist(ctx, now) }],
  // Released seats and units cascade to the waitlist, whichever path cancelled the booking.
  hooks: { 'capacity.released': onCapacityReleased },
  tags: [{ name: 'Waitlist', description: 'Renters waiting for a sold-out slot; released seats are offered to them in order as holds.' }],
});
