import { defineModule } from '../../lib/module';
import { errorTableMarkdown } from '../../lib/errors';
import router from './index';
import { octoErrors } from './errors';
import { expireOctoHolds, nextOctoHoldExpiry, onSandboxReset } from './jobs';

const OCTO_TABLE = errorTableMarkdown({
  ...octoErrors.table,
  BAD_REQUEST: { status: 400, meaning: 'A malformed body, a missing or invalid field, or a combination OCTO does not allow' },
  UNAUTHORIZED: { status: 400, meaning: 'No API key in `Authorization: Bearer ...`' },
  FORBIDDEN: { status: 400, meaning: 'An unknown, rotated or paused key, or a booking sold through a connection the key no longer has' },
  NOT_FOUND: { status: 404, meaning: 'A path `/octo/v1` does not have' },
  TOO_MANY_REQUESTS: { status: 429, meaning: 'Over 300 requests per minute per key holder (shared with `/channel/v1`); see `Retry-After`' },
  INTERNAL_SERVER_ERROR: { status: 500, meaning: 'A bug (500) or a transient failure (503: retry)' },
});

export default defineModule({
  name: 'octo',
  router,
  errors: octoErrors.table,
  hooks: { 'channel.sandbox_reset': onSandboxReset },
  jobs: [{ name: 'octo.expire_holds', cron: '*/5 * * * *', run: (ctx) => expireOctoHolds(ctx), nextDue: (ctx) => nextOctoHoldExpiry(ctx) }],
  tags: [
    {
      name: 'OCTO',
      description: `OCTO (Open Connectivity for Tours, Activities and Attractions) supplier API: every operator can be sold by any OCTO reseller.
Authenticate with a channel key as \`Authorization: Bearer rtc_live_...\` (or \`rtc_test_...\`: test keys sell the key holder's private sandbox
operator, seeded with the demo data on first use and seen by no other reseller, and never move money); the same connections, offer sets, 300 requests per minute, commission and settlement as the channel API apply.

**Capabilities:** \`octo/pricing\` (net and retail prices in minor units with taxes) and \`octo/content\` (titles, descriptions, images,
locations), negotiated with the \`Octo-Capabilities\` request header and echoed in the answer's; \`Octo-Env\` is \`test\` or \`live\`.

**Reservations are holds** (an OCTO-only deviation: the channel API has none): reserve, extend, confirm or let them expire (15 minutes at
least). Every sale runs inside the item's inventory lock, like every other Berth sale.

Errors are OCTO's \`{error, errorMessage}\` (plus \`productId\`, \`optionId\`, \`unitId\`, \`availabilityId\` or \`uuid\` where OCTO
defines them), on this prefix only:

${OCTO_TABLE}`,
    },
    { name: 'OCTO settings', description: "The operator's settings for OCTO sales (the cancellation policy resellers see)." },
  ],
});
