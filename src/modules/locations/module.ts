import { defineModule } from '../../lib/module';
import router from './index';
import { nextPurgeDue, purgeDeletedLocations } from './service';

export default defineModule({
  name: 'locations',
  router,
  // nextDue: the end of the earliest grace period.
  jobs: [{ name: 'locations.purge', cron: '0 3 * * *', run: (ctx) => purgeDeletedLocations(ctx), nextDue: nextPurgeDue }],
  tags: [
    { name: 'Locations', description: 'Locations of the operator: address (geocoded), time zone, currency, voice menu, scheduled deletion after 60 days.' },
  ],
});
