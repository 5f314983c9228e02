import { defineModule } from '../../lib/module';
import router from './index';
import { onCapacityReleased } from './offers';
import { nextWaitlistDue, sweepWaitlist } from './sweep';

export default defineModule({
  name: 'waitlist',
  router,
  // nextDue: the next offer expiry, or the next instant a waiting entry's date or time passes.
  jobs: [{ name: 'waitlist.sweep', cron: '*/5 * * * *', run: (ctx) => sweepWaitlist(ctx), nextDue: nextWaitlistDue }],
  // Released seats and units cascade to the waitlist, whichever path cancelled the booking.
  hooks: { 'capacity.released': onCapacityReleased },
  tags: [{ name: 'Waitlist', description: 'Renters waiting for a sold-out slot; released seats are offered to them in order as holds.' }],
});
