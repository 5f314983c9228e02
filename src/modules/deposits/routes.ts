import { route } from '../../lib/openapi';
import * as s from './schemas';
import { SIMULATED_READERS } from './authorize';

const tags = ['Deposits'];
const MONEY = 'Amounts are dollars (`feeInCents` is cents).';
const LEDGER = `Each change writes a memo entry to the ledger (\`deposit_hold\`, \`deposit_capture\`, \`deposit_release\`; memo entries do not change
the renter's balance), updates the rental's \`depositInformation\` and is audited.`;

export const authorize = route({
  method: 'post',
  path: '/preAuth/authorize-deposit',
  operationId: 'authorizeDeposit',
  idempotent: true,
  tags,
  summary: 'Place a security-deposit hold on a card or a card reader',
  body: s.AuthorizeBody,
  ok: s.AuthorizeResponse,
  errors: [402, 403, 404, 409],
  description: `Creates a manual-capture payment intent for \`authorizeAmount\` dollars on a rental of the caller (another operator's rental
answers 404).

- \`paymentMethodType: "card"\` needs \`paymentMethodId\` (a saved card or a test token: \`pm_card_visa\` succeeds, \`pm_card_chargeDeclined\` is
declined, \`pm_card_authenticationRequired\` needs 3-D Secure). The hold is placed at once: status \`authorized\`. A declined card answers **402**
\`payment_failed\` with \`declineCode\` \`card_declined\`; a card needing authentication answers 402 with \`declineCode\` \`authentication_required\`,
the \`paymentIntentId\` and its \`clientSecret\` (complete it client-side, then record it with POST /preAuth/post-deposit).
- \`paymentMethodType: "terminal"\` or \`"card_present"\` needs \`readerId\`. The intent is created unconfirmed for the reader (answer: status
\`pending\`, the \`clientSecret\` for the reader SDK and \`nextStep\`); when the reader has processed the card, POST /preAuth/post-deposit records the
hold. With the offline payment simulator the reader is simulated and processes the card immediately: ${Object.entries(SIMULATED_READERS)
    .map(
      ([k, v]) => `\`${k}\`
${v === null ? 'never gets a card (post-deposit then answers 400)' : v.includes('Declined') ? 'declines (402)' : 'approves'}`,
    )
    .join(', ')}; any other reader id answers 400.

\`customerId\` (the operator account) must be the caller's (403). A cancelled or no-show rental answers 409 \`invalid_state\`. \`locationId\` defaults
to the rental's location. \`connectedAccountId\` is accepted for compatibility; \`platformFeePercent\` is recorded on the intent. ${MONEY} ${LEDGER}`,
});

export const postDeposit = route({
  method: 'post',
  path: '/preAuth/post-deposit',
  operationId: 'postDeposit',
  idempotent: true,
  tags,
  summary: 'Record a completed card-reader hold on the rental',
  body: s.PostDepositBody,
  ok: s.DepositWithProvider,
  errors: [403, 404],
  description: `For terminal deposits (and cards that needed authentication): reads the intent at the payment provider and records it on the rental.
The intent must have reached \`requires_capture\` (hold placed → \`authorized\`) or \`succeeded\` (captured → \`captured\`, fires
\`payment.completed\`); any other state answers **400** \`payment_not_successful\` with \`providerStatus\`. Calling it again is harmless. An intent of
another operator or unknown to the provider answers 404; one made for another rental answers 400. ${MONEY} ${LEDGER}`,
});

export const capture = route({
  method: 'post',
  path: '/preAuth/capture-deposit',
  operationId: 'captureDeposit',
  idempotent: true,
  tags,
  summary: 'Capture all or part of a deposit hold (dollars)',
  body: s.CaptureBody,
  ok: s.CaptureResponse,
  errors: [403, 404],
  description: `Captures \`captureAmount\` dollars of an authorized hold (a partial capture is allowed; the provider releases the rest, which is
recorded as \`deposit_release\`). Status becomes \`captured\` or \`partially_captured\` and \`payment.completed\` fires. A hold that is not authorized
any more (released, already captured, still pending at a reader) or an amount above the hold answers **400** \`not_capturable\`; a payment intent with
no deposit of the caller answers **404**. Needs the \`payments\` permission (admins and managers have it). ${MONEY} ${LEDGER}`,
});

export const release = route({
  method: 'post',
  path: '/preAuth/release-deposit',
  operationId: 'releaseDeposit',
  tags,
  summary: 'Release (cancel) a deposit hold',
  body: s.ReleaseBody,
  ok: s.ReleaseResponse,
  errors: [403, 404],
  description: `Cancels the hold at the provider; status \`released\`. A hold is released whole: \`amount\`, when given, must equal the held amount
(to keep part of it, capture that part instead). Releasing a released or captured deposit answers **400** \`not_releasable\`. When both \`customerId\`
(the operator account, must be the caller's, 403 otherwise) and \`locationId\` are given, the renter is e-mailed that the hold was released
(\`notified\`, \`notifiedTo\`); the message appears in GET /outbox/messages. ${LEDGER}`,
});

export const sync = route({
  method: 'post',
  path: '/preAuth/sync-missing-preauth/{paymentIntentId}',
  operationId: 'syncMissingDeposit',
  tags,
  summary: 'Record a hold the payment provider has but Berth lacks',
  params: s.SyncParams,
  body: s.SyncBody,
  ok: s.SyncResponse,
  errors: [404],
  description: `Reads the intent at the provider (404 when the provider does not know it or it belongs to another operator) and creates the deposit
record with the status the provider state implies (\`requires_capture\` → authorized, \`succeeded\` → captured, \`canceled\` → released, otherwise
pending). The rental is the intent's \`rentalId\` metadata unless \`rentalId\` overrides it (required for intents made outside Berth). An intent that
is not manual-capture answers 400. Already recorded: answers the existing record with \`synced: false\`.`,
});

export const audit = route({
  method: 'get',
  path: '/preAuth/audit-preauths/{rentalId}',
  operationId: 'auditRentalDeposits',
  tags,
  summary: 'Deposit holds of a rental beside their provider state',
  params: s.AuditParams,
  query: s.AuditQuery,
  ok: s.AuditResponse,
  errors: [404],
  description: `Every deposit record of the rental (optionally of one \`locationId\`) with the live provider state, the status that state implies
(\`expectedStatus\`) and \`inSync\`. \`untracked\` lists an intent named in the rental's \`depositInformation\` that has no deposit record (fix with
sync-missing-preauth). \`connected_account_id\` is accepted for compatibility. Amounts in dollars. Another operator's rental answers 404.`,
});

export const connectionToken = route({
  method: 'post',
  path: '/preAuth/connection-token',
  operationId: 'createConnectionToken',
  tags,
  summary: 'Connection token for the card-reader SDK',
  body: s.ConnectionTokenBody,
  ok: s.ConnectionToken,
  errors: [404],
  description: `A short-lived secret the point-of-sale app hands to the card-reader SDK. With \`locationId\` (one of the caller's locations) the token
is scoped to that location's reader location (\`details.terminalLocationId\`) when configured. The offline simulator answers a \`pst_sim_...\` secret.`,
});
