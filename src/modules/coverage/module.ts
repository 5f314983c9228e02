import { defineModule } from '../../lib/module';
import router from './index';
import { coverageErrors } from './errors';
import { onBookingRescheduled } from './amendments';
import { onBookingCancelled } from './cancel';
import { nextCoverageDue, onBindMessage, onCancelMessage, onRescheduleMessage, purgeCoverageCalls, sweepCoverage } from './jobs';

const SIGNING_DOC = `**Signed calls.** Berth calls the underwriter at \`POST {baseUrl}/quote\`, \`/schema\`, \`/requote\`, \`/bind\`, \`/reschedule\` and \`/cancel\`
(JSON in, HTTP 200 with JSON out), each signed like Berth's webhooks: \`X-Service-Timestamp\` is the Unix time in seconds and
\`X-Service-Signature\` the lowercase hex HMAC-SHA256 of \`{timestamp}.{raw body}\` with the offering's signing secret. During a secret rotation's
24-hour overlap the header carries two signatures, comma-separated (the new secret's first): accept the request when any verifies. Refuse an
unsigned request and a timestamp more than **300 seconds** from your clock. \`X-Service-Offering\` names the offering and \`X-Service-Request-Id\`
the call. Calls never follow redirects and read at most 64 KiB of the answer. Verifying in Node or a Worker:

\`\`\`js
const enc = new TextEncoder();
async function verify(req, secrets) {            // secrets: [current, previous during an overlap]
  const ts = req.headers.get('x-service-timestamp'), sig = req.headers.get('x-service-signature');
  const body = await req.text();
  if (!ts || !sig || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return null;     // unsigned or stale: answer 401
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(\`\${ts}.\${body}\`)));
    const hex = [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (sig.split(',').some((s) => s.trim() === hex)) return JSON.parse(body);          // compare in constant time in production
  }
  return null;
}
\`\`\`

The reference underwriter (\`examples/reference-underwriter\`) implements the six endpoints this way; the sandbox's offering uses it.`;

export default defineModule({
  name: 'coverage',
  router,
  errors: coverageErrors.table,
  hooks: { 'booking.cancelled': onBookingCancelled, 'booking.rescheduled': onBookingRescheduled },
  queue: { 'coverage.bind': onBindMessage, 'coverage.reschedule': onRescheduleMessage, 'coverage.cancel': onCancelMessage },
  jobs: [
    { name: 'coverage.sweep', cron: '*/5 * * * *', run: sweepCoverage, nextDue: nextCoverageDue },
    { name: 'coverage.purge-calls', cron: '0 3 * * *', scope: 'platform', run: purgeCoverageCalls },
  ],
  tags: [
    {
      name: 'Coverage offerings',
      description: `An underwriter's offerings, managed with its partner token (\`Authorization: Bearer bpt_...\`): the offering file of the command
line (\`coverage create/pull/push/status/submit\`). States: \`draft\` (usable in the sandbox at once) -> \`in_review\` (submit: refused with what is
missing) -> \`approved\` (platform staff); a change of \`baseUrl\`, payout account, countries or currencies while approved goes back to review (the
sandbox keeps using it). Payouts: connect the payout account (Express onboarding; US, UK, EEA, Canada, Switzerland).

${SIGNING_DOC}`,
    },
    {
      name: 'Coverage review',
      description: 'Platform staff (`x-platform-key`) approve offerings in review (fixing the reschedule delivery) or send them back with reasons.',
    },
    {
      name: 'Coverage',
      description: `Embedded coverage for operators: enable approved offerings per location, show coverage cards at checkout (quotes, questions,
answers, the higher-price acceptance), place the booking with one payment for rental plus premium, and follow the policies (bind, date changes,
cancellation, void and refund) and the flags raised when a policy did not issue or a paid renter is no longer covered. **Coverage may never block a
rental**: underwriter timeouts, errors, malformed answers and outages only remove the coverage.

Quote states: \`quoted\` (questions to answer) -> \`ready\` (buyable) or \`needs_acceptance\` (a higher final price: payment waits for the renter's
explicit acceptance) -> \`purchased\`; \`declined\` and \`failed\` remove the card. Policy states: \`pending\` -> \`bound\`, or \`not_issued\` (flagged);
\`bound\` -> \`not_covered\` (a declined date change, flagged) or \`cancelled\`.`,
    },
    {
      name: 'Coverage at checkout (renter)',
      description: `The same checkout for the booking widget (no credentials: quote ids and booking references are the capabilities) and the
coverage on the renter's booking page.`,
    },
    {
      name: 'Coverage message requests',
      description: `The underwriter asks Berth to e-mail the renter of a policy (signed like Berth's calls to it). ${'`policy_issued`'}, ${'`policy_document`'},
${'`policy_cancelled`'}, ${'`claim_update`'}; one message per category per policy.`,
    },
  ],
});
