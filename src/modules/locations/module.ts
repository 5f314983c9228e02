import { defineModule } from '../../lib/module';
import router from './index';
import { purgeDeletedLocations } from './service';

export default defineModule({
  name: 'locations',
  router,
  jobs: [{ name: 'locations.purge', cron: '0 3 * * *', run: (ctx, now) => purgeDeletedLocations(ctx, now) }],
  tags: [
    { name: 'Locations', description: 'Locations of the operator: address (geocoded), time zone, currency, voice menu, scheduled deletion after 60 days.' },
  ],
});
