import { defineModule } from '../../lib/module';
import router from './index';
import { expireHolds, nextHoldExpiry } from './service';

export default defineModule({
  name: 'holds',
  router,
  jobs: [{ name: 'holds.expire', cron: '*/5 * * * *', run: expireHolds, nextDue: nextHoldExpiry }],
});
