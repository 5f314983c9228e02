import { CORE_ERRORS, errorTableMarkdown } from '../../lib/errors';
import { defineModule } from '../../lib/module';
import router from './index';
import { channelErrors } from './errors';
import { purgeExpiredKeys } from './idempotency';

/** The shared codes a reseller meets besides the channel's own. */
const SHARED = ['not_found', 'validation_failed', 'unavailable', 'not_cancellable', 'idempotency_key_reuse', 'rate_limited', 'service_unavailable'] as const;

const errorTable = errorTableMarkdown({ ...channelErrors.table, ...Object.fromEntries(SHARED.map((c) => [c, CORE_ERRORS[c]])) });

export default defineModule({
  name: 'channel',
  router,
  errors: channelErrors.table,
  jobs: [{ name: 'channel.idempotency_purge', cron: '0 3 * * *', scope: 'platform', run: (ctx) => purgeExpiredKeys(ctx) }],
  tags: [
    {
      name: 'Channel API',
      description: `Resellers sell operators' rentals and tours from their own checkout. Authenticate with \`Authorization: Bearer <rtc_live_... | rtc_test_...>\`
or \`X-Channel-Key\`. Errors are \`{error, message}\` (plus \`requestId\`); branch on \`error\`:

${errorTable}`,
    },
    {
      name: 'Channel partner portal',
      description: `Reseller-side portal: register a channel, rotate the platform key, pause, settlement, webhook subscription.
Authenticate with the portal token (\`rtp_...\`) or the partner token (\`bpt_...\`) of the account that owns the channel.`,
    },
  ],
});
