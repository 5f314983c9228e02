import { defineModule } from '../../lib/module';
import { purgeExpiredIdempotencyKeys } from './service';

/** The payments service (no routes): every capture and refund goes through it; it also purges expired Idempotency-Key records. */
export default defineModule({
  name: 'payments',
  jobs: [{ name: 'payments.idempotency-purge', cron: '0 3 * * *', scope: 'platform', run: purgeExpiredIdempotencyKeys }],
});
