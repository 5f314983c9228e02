import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import { platformAuth } from '../../middleware/auth';
import { partnerAuth } from '../partners/service';
import { underwriterAuth } from './messages';
import * as s from './schemas';

const otags = ['Coverage offerings'];
const rtags = ['Coverage review'];
const tags = ['Coverage'];
const ptags = ['Coverage at checkout (renter)'];
const mtags = ['Coverage message requests'];
const partner = { access: 'none' as const, auth: partnerAuth };
const platform = { access: 'none' as const, auth: platformAuth };

// ---------------------------------------------------------------------------------------------
// Offerings (partner token)

export const createOffering = route({
  method: 'post',
  path: '/partners/coverage/offerings',
  operationId: 'createCoverageOffering',
  tags: otags,
  ...partner,
  summary: 'Register an offering: a draft usable in the sandbox at once; the signing secret is shown once',
  description: `\`baseUrl\` must be https (no query, fragment or credentials; in staging and production no private, loopback or link-local
address). \`supportedCountries\` empty means nowhere. \`quoteTimeoutMs\` at most 5000. The answer carries \`signingSecret\` (\`cvs_...\`) once: keep it in
\`SERVICE_SIGNING_SECRET\` or the credentials file; no endpoint returns it again (rotate it with POST .../secret). The partner's payout account, once
connected, is attached automatically.`,
  body: s.CreateOfferingBody,
  ok: s.OfferingCreated,
  status: 201,
  errors: [401, 403, 429],
});
export const listOfferings = route({
  method: 'get',
  path: '/partners/coverage/offerings',
  operationId: 'listCoverageOfferings',
  tags: otags,
  ...partner,
  summary: "The partner's offerings",
  description: 'Newest first, `limit`/`offset`. Secrets are never answered (only their prefix and the end of a rotation overlap).',
  query: s.ListQuery,
  ok: s.OfferingList,
  errors: [401, 403, 429],
});
export const getOffering = route({
  method: 'get',
  path: '/partners/coverage/offerings/{offeringId}',
  operationId: 'getCoverageOffering',
  tags: otags,
  ...partner,
  summary: 'One offering (the offering file of `coverage pull`)',
  description: "Another partner's offering answers 404.",
  params: s.OfferingParams,
  ok: s.Offering,
  errors: [401, 403, 404, 429],
});
export const updateOffering = route({
  method: 'patch',
  path: '/partners/coverage/offerings/{offeringId}',
  operationId: 'updateCoverageOffering',
  tags: otags,
  ...partner,
  summary: 'Change an offering (`coverage push`)',
  description: `Name, support address, quote timeout and the on/off switch change freely. A change of \`baseUrl\`, \`supportedCountries\` or
\`currencies\` of an approved offering sends it back to \`in_review\`: live operators stop being offered it until platform staff approve it again,
the sandbox keeps using it meanwhile (so does a new payout account). A concurrent change answers 409 \`version_conflict\`.`,
  params: s.OfferingParams,
  body: s.UpdateOfferingBody,
  ok: s.Offering,
  errors: [401, 403, 404, 409, 429],
});
export const deleteOffering = route({
  method: 'delete',
  path: '/partners/coverage/offerings/{offeringId}',
  operationId: 'deleteCoverageOffering',
  tags: otags,
  ...partner,
  summary: 'Delete an offering: it is offered nowhere from now on',
  description: 'Policies already sold keep being bound, amended and cancelled through the offering\u2019s endpoints.',
  params: s.OfferingParams,
  ok: z.object({ success: z.boolean(), offeringId: z.string() }).openapi('CoverageOfferingDeleted'),
  errors: [401, 403, 404, 429],
});
export const rotateSecret = route({
  method: 'post',
  path: '/partners/coverage/offerings/{offeringId}/secret',
  operationId: 'rotateCoverageSecret',
  tags: otags,
  ...partner,
  summary: 'Rotate the signing secret: a new one is shown once; the previous one works for 24 more hours',
  description: `During the 24-hour overlap every call Berth makes carries two signatures in \`X-Service-Signature\` (the new secret's first,
comma-separated) and message requests signed with either secret are accepted. Install the new secret on the underwriter within the overlap.`,
  params: s.OfferingParams,
  ok: s.SecretRotated,
  errors: [401, 403, 404, 429],
});
export const offeringStatus = route({
  method: 'get',
  path: '/partners/coverage/offerings/{offeringId}/status',
  operationId: 'getCoverageOfferingStatus',
  tags: otags,
  ...partner,
  summary: 'What must still be true before review (`coverage status`)',
  description: `Lists what is missing for review: a payout account connected and onboarded (US, UK, EEA, Canada or Switzerland), at least one
licensed country, a signing secret. Reading it also refreshes the payout account from the payment provider and attaches it when onboarded.`,
  params: s.OfferingParams,
  ok: s.OfferingReadiness,
  errors: [401, 403, 404, 429],
});
export const submitOffering = route({
  method: 'post',
  path: '/partners/coverage/offerings/{offeringId}/submit',
  operationId: 'submitCoverageOffering',
  tags: otags,
  ...partner,
  summary: 'Send a draft offering for review (`coverage submit`)',
  description: `draft -> in_review. Refused with 409 \`offering_not_ready\` listing in \`details\` what is missing (payout account, licensed country,
signing secret); an offering that is not a draft answers 409 \`invalid_state\`.`,
  params: s.OfferingParams,
  ok: s.Offering,
  errors: [401, 403, 404, 409, 429],
});
export const offeringCalls = route({
  method: 'get',
  path: '/partners/coverage/offerings/{offeringId}/calls',
  operationId: 'listCoverageCalls',
  tags: otags,
  ...partner,
  summary: 'The calls Berth made to the underwriter (30 days): endpoint, outcome, status, duration',
  description: `Newest first. \`outcome\` is \`ok\`, \`timeout\`, \`network\`, \`http_error\`, \`invalid_json\`, \`too_large\` or \`refused_url\`; an
answer that broke the contract (a string premium, a deposit effect without its value, an http documentUrl, a hostile schema) is logged beside it
as \`<endpoint>:rejected\` with the reason.`,
  params: s.OfferingParams,
  query: s.ListQuery,
  ok: s.CallList,
  errors: [401, 403, 404, 429],
});
export const connectPayout = route({
  method: 'post',
  path: '/partners/payout-account',
  operationId: 'connectPayoutAccount',
  tags: otags,
  ...partner,
  summary: "Connect the payout account (the payment provider's Express onboarding link)",
  description: `Creates an Express account in \`country\` at the payment provider (or continues an unfinished one) and answers its onboarding link;
the offline simulator completes the onboarding at once. Payouts go only to the US, the UK, the EEA, Canada and Switzerland: any other country
answers 422 \`payout_country_unsupported\`. Once payouts are enabled the account is attached to every offering of the partner; premiums are
transferred to it after each bind. A new account on an approved offering sends it back to review.`,
  body: s.PayoutBody,
  ok: s.PayoutAccount,
  errors: [401, 403, 422, 429],
});
export const getPayout = route({
  method: 'get',
  path: '/partners/payout-account',
  operationId: 'getPayoutAccount',
  tags: otags,
  ...partner,
  summary: 'The payout account and its onboarding state',
  description: 'Refreshed from the payment provider; while onboarding is unfinished, a fresh onboarding link. 404 before one was connected.',
  ok: s.PayoutAccount,
  errors: [401, 403, 404, 429],
});

// ---------------------------------------------------------------------------------------------
// Review (platform staff)

export const listReview = route({
  method: 'get',
  path: '/platform/coverage/offerings',
  operationId: 'listCoverageOfferingsForReview',
  tags: rtags,
  ...platform,
  summary: 'Offerings by status (default: in review), oldest submission first',
  query: s.ReviewQuery,
  ok: s.ReviewList,
  errors: [401, 403, 429],
  description: 'Platform staff only (`x-platform-key`).',
});
export const getReview = route({
  method: 'get',
  path: '/platform/coverage/offerings/{offeringId}',
  operationId: 'getCoverageOfferingForReview',
  tags: rtags,
  ...platform,
  summary: 'One offering with its partner',
  params: s.OfferingParams,
  ok: s.ReviewOffering,
  errors: [401, 403, 404, 429],
  description: 'Platform staff only (`x-platform-key`).',
});
export const approveOffering = route({
  method: 'post',
  path: '/platform/coverage/offerings/{offeringId}/approve',
  operationId: 'approveCoverageOffering',
  tags: rtags,
  ...platform,
  summary: 'Approve an offering in review; fixes how date changes reach /reschedule',
  description: `in_review -> approved: live operators may enable it per location and real renters are offered it. \`rescheduleDelivery\`: \`hourly\`
(default: within the hour: queued 5 minutes after the change, so quick successive moves collapse, retried), \`immediate\` (queued at once)
or \`none\` (never called; recorded). Another status: 409
\`invalid_state\`.`,
  params: s.OfferingParams,
  body: s.ApproveBody,
  ok: s.ReviewOffering,
  errors: [401, 403, 404, 409, 429],
});
export const rejectOffering = route({
  method: 'post',
  path: '/platform/coverage/offerings/{offeringId}/reject',
  operationId: 'rejectCoverageOffering',
  tags: rtags,
  ...platform,
  summary: 'Send an offering in review back to draft with reasons',
  description: 'The partner reads `review.reasons`, fixes the offering and submits it again.',
  params: s.OfferingParams,
  body: s.RejectBody,
  ok: s.ReviewOffering,
  errors: [401, 403, 404, 409, 429],
});

// ---------------------------------------------------------------------------------------------
// Operator: catalog and enablements

export const listAvailable = route({
  method: 'get',
  path: '/coverage/offerings',
  operationId: 'listAvailableCoverageOfferings',
  tags,
  summary: 'Offerings this operator can enable, with the locations where it offers them',
  description: 'Approved offerings; the sandbox operator also sees drafts and offerings in review (usable there at once).',
  ok: s.OperatorOfferingList,
  errors: [401, 403, 429],
});
export const listEnablements = route({
  method: 'get',
  path: '/coverage/enablements',
  operationId: 'listCoverageEnablements',
  tags,
  summary: 'Where this operator offers which coverage',
  query: s.EnablementQuery,
  ok: s.EnablementList,
  errors: [401, 403, 429],
  description: 'Optionally for one `locationId`.',
});
export const enable = route({
  method: 'post',
  path: '/coverage/enablements',
  operationId: 'enableCoverageOffering',
  tags,
  access: 'admin',
  summary: 'Offer a coverage at a location (admins)',
  description: `The offering must be approved (any status for the sandbox operator), else 404. Twice: 409 \`already_exists\`. Renters at that
location are quoted when its country is licensed and its currency priced (the location's country: \`details.country\`, or the country named at
the end of its address).`,
  body: s.EnablementBody,
  ok: s.Enablement,
  status: 201,
  errors: [404, 409],
});
export const disable = route({
  method: 'delete',
  path: '/coverage/enablements/{enablementId}',
  operationId: 'disableCoverageOffering',
  tags,
  access: 'admin',
  summary: 'Stop offering a coverage at a location (admins)',
  description: `No new quotes there, and the underwriter's message requests about its policies there are refused from now on. Policies sold stay
in force.`,
  params: s.EnablementParams,
  ok: z.object({ success: z.boolean(), enablementId: z.string() }).openapi('CoverageDisabled'),
  errors: [404],
});

// ---------------------------------------------------------------------------------------------
// Operator checkout

const QUOTE_DOC = `Calls \`/quote\` of every offering enabled at the item's location whose licensed countries include the location's and whose
currencies include its currency, in parallel, each within its \`quoteTimeoutMs\` (never more than 5000 ms), with the item and the window only (no
renter identity). A timeout, an error, a premium that is not a JSON number or a reducing deposit effect without its value means no card for that
offering (listed in \`unavailable\` with the reason): **the booking goes on without it**. The question schema is fetched once per version, sanitised
(at most 12 drawable fields of the types text, number, date, checkbox, dropdown, multiselect, address, notice; other types dropped; no HTML; a
pattern with a nested quantifier refuses the schema) and pinned to the quote. A card without questions is \`ready\`; with questions it is \`quoted\`
until the answers are sent. Quotes are valid one hour.`;

export const quote = route({
  method: 'post',
  path: '/coverage/quotes',
  operationId: 'quoteCoverage',
  tags,
  summary: 'Coverage cards for an item and a time (operator checkout)',
  description: QUOTE_DOC,
  body: s.QuoteBody,
  ok: s.QuoteResult,
  errors: [404, 409],
});
export const getQuote = route({
  method: 'get',
  path: '/coverage/quotes/{quoteId}',
  operationId: 'getCoverageQuote',
  tags,
  summary: 'One coverage card with its pinned questions',
  params: s.QuoteParams,
  ok: s.Quote,
  errors: [404],
  description: "Another operator's quote answers 404.",
});

const ANSWERS_DOC = `The answers are checked against the questions pinned to the quote first (required fields, \`pattern\`, \`minAgeYears\` on the rental
date, options; a question whose condition was never met is neither required nor sent): 400 \`validation_failed\` names each field. Then \`/requote\`:
\`accepted\` at the estimate -> \`ready\`; at a lower price -> \`ready\` with the new \`premium\`; at a higher price -> \`needs_acceptance\` (the
checkout refuses to charge it until the renter accepts it); \`declined\` -> \`declined\`, a failure (timeout, error, malformed answer) -> \`failed\`:
the coverage is removed and the booking continues without it. Answers may be sent again while the quote is quoted, ready or awaiting acceptance.
An expired quote: 410 \`expired\`.`;

export const answers = route({
  method: 'post',
  path: '/coverage/quotes/{quoteId}/answers',
  operationId: 'answerCoverageQuestions',
  tags,
  summary: "The renter's answers: validated, then /requote",
  description: ANSWERS_DOC,
  params: s.QuoteParams,
  body: s.AnswersBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});

const ACCEPT_DOC = `Only for a quote in \`needs_acceptance\`. \`premium\` must be the new price as displayed (else 409 \`coverage_price_changed\` with the
current one); the quote becomes \`ready\` at that price.`;

export const accept = route({
  method: 'post',
  path: '/coverage/quotes/{quoteId}/accept',
  operationId: 'acceptCoveragePrice',
  tags,
  summary: 'The renter explicitly accepts a higher final price',
  description: ACCEPT_DOC,
  params: s.QuoteParams,
  body: s.AcceptBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});

const CHECKOUT_DOC = `POST /coreBooking/book with \`coverage: {quoteId}\`: the booking commit every sales path uses, with **one card payment for the
rental plus the premium** (the premium is a \`coverage_premium\` charge on the first rental, in its \`total\` and \`feeTotal\`), the deposit changed by
the coverage's \`depositEffect\` (\`waive\`, \`reduce_to\`, \`reduce_by\`, \`reduce_by_percent\`), and the policy written in the booking's own batch.
\`/bind\` follows from the queue (retried; the operator is flagged within 30 minutes if it still fails); the premium goes to the underwriter's payout
account only after the bind confirms.

**Coverage never blocks the rental**: when the quote is unknown, expired, declined, failed, unanswered or already used, when the booking is not the
quoted item, time and quantity, when it is not paid in full by card now, or when the offering is no longer offered, the booking is placed without coverage and
\`coverage.status\` is \`not_purchased\` with the \`reason\`. The one stop is the spec's rule: a final price above the displayed estimate that the renter
has not accepted answers 409 \`coverage_price_changed\` (accept it with POST .../accept, or book without the coverage). A declined card (402) or a
taken time (409 \`unavailable\`) writes nothing and leaves the quote buyable.`;

export const checkout = route({
  method: 'post',
  path: '/coverage/checkout',
  operationId: 'checkoutWithCoverage',
  tags,
  idempotent: true,
  status: 201,
  summary: 'Place a booking with the chosen coverage: one payment for rental plus premium',
  description: CHECKOUT_DOC,
  body: s.CheckoutBody,
  ok: s.CheckoutResult,
  errors: [402, 403, 404, 409],
});

// ---------------------------------------------------------------------------------------------
// Operator: policies and flags

export const listPolicies = route({
  method: 'get',
  path: '/coverage/policies',
  operationId: 'listCoveragePolicies',
  tags,
  summary: "The operator's policies (by status or booking)",
  description: `Statuses: \`pending\` (paid, bind not confirmed yet; retried), \`bound\` (issued: policy number and document), \`not_issued\` (the bind
failed: flagged), \`not_covered\` (a date change was declined: flagged), \`cancelled\` (booking cancelled or coverage voided: \`/cancel\` called and the
transfer reversed). Newest first.`,
  query: s.PolicyQuery,
  ok: s.PolicyList,
  errors: [401, 403, 429],
});
export const getPolicy = route({
  method: 'get',
  path: '/coverage/policies/{policyId}',
  operationId: 'getCoveragePolicy',
  tags,
  summary: 'One policy with its date-change amendments',
  params: s.PolicyParams,
  ok: s.PolicyDetail,
  errors: [404],
  description: "Another operator's policy answers 404.",
});
export const bindNow = route({
  method: 'post',
  path: '/coverage/policies/{policyId}/bind',
  operationId: 'retryCoverageBind',
  tags,
  summary: 'Try the bind again now (a policy not issued yet)',
  description: `For a \`pending\` or \`not_issued\` policy: one \`/bind\` attempt now (one at a time per policy: a concurrent attempt leaves this one as
it is). The underwriter is idempotent on the quote, so this never makes a second policy. Other statuses: 409 \`invalid_state\`.`,
  params: s.PolicyParams,
  ok: s.Policy,
  errors: [404, 409],
});
export const voidCoverage = route({
  method: 'post',
  path: '/coverage/policies/{policyId}/void',
  operationId: 'voidCoverage',
  tags,
  idempotent: true,
  summary: 'Void the coverage of a booking (and refund the premium): /cancel, transfer reversed',
  description: `The booking stays. The policy turns \`cancelled\`, the premium's transfer to the underwriter is reversed, \`/cancel\` is called (from
the queue, retried) and, unless \`refund\` is false, the premium is refunded to the renter's card and taken off the booking's total (through the
payments service: \`payment.refunded\`). Already cancelled: 409 \`invalid_state\`.`,
  params: s.PolicyParams,
  body: s.VoidBody,
  ok: s.Policy,
  errors: [404, 409],
});
export const listFlags = route({
  method: 'get',
  path: '/coverage/flags',
  operationId: 'listCoverageFlags',
  tags,
  summary: 'Coverage problems raised to the operator (bind failed, paid renter no longer covered)',
  description: 'Each flag was also e-mailed to the operator\u2019s address. `open=true` lists the unresolved ones.',
  query: s.FlagQuery,
  ok: s.FlagList,
  errors: [401, 403, 429],
});
export const resolveFlag = route({
  method: 'post',
  path: '/coverage/flags/{flagId}/resolve',
  operationId: 'resolveCoverageFlag',
  tags,
  summary: 'Mark a flag resolved with a note',
  params: s.FlagParams,
  body: s.ResolveBody,
  ok: s.Flag,
  errors: [404],
  description: 'Resolving twice keeps the first resolution.',
});

// ---------------------------------------------------------------------------------------------
// Renter-facing (the widget)

export const publicQuote = route({
  method: 'post',
  path: '/public/coverage/quotes',
  operationId: 'quotePublicCoverage',
  tags: ptags,
  access: 'public',
  summary: 'Coverage cards for a public item of an operator (the widget)',
  description: `${QUOTE_DOC}\n\nFor public items of \`customerId\` only (anything else 404). No credentials needed; the quote id is what later calls need.`,
  body: s.PublicQuoteBody,
  ok: s.QuoteResult,
  errors: [404, 409],
});
export const publicGetQuote = route({
  method: 'get',
  path: '/public/coverage/quotes/{quoteId}',
  operationId: 'getPublicCoverageQuote',
  tags: ptags,
  access: 'public',
  summary: 'One coverage card with its questions (the widget)',
  params: s.QuoteParams,
  ok: s.Quote,
  errors: [404],
  description: 'No credentials needed: the quote id is the capability.',
});
export const publicAnswers = route({
  method: 'post',
  path: '/public/coverage/quotes/{quoteId}/answers',
  operationId: 'answerPublicCoverageQuestions',
  tags: ptags,
  access: 'public',
  summary: "The renter's answers (the widget)",
  description: ANSWERS_DOC,
  params: s.QuoteParams,
  body: s.AnswersBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});
export const publicAccept = route({
  method: 'post',
  path: '/public/coverage/quotes/{quoteId}/accept',
  operationId: 'acceptPublicCoveragePrice',
  tags: ptags,
  access: 'public',
  summary: 'The renter accepts the higher price (the widget)',
  description: ACCEPT_DOC,
  params: s.QuoteParams,
  body: s.AcceptBody,
  ok: s.Quote,
  errors: [404, 409, 410],
});
export const publicCheckout = route({
  method: 'post',
  path: '/public/coverage/checkout',
  operationId: 'checkoutPublicWithCoverage',
  tags: ptags,
  access: 'public',
  idempotent: true,
  status: 201,
  summary: 'Book and pay from the widget with the chosen coverage',
  description: `${CHECKOUT_DOC}\n\nThe widget's form: a public item of \`customerId\`, the renter, the card (\`paymentMethodId\`), paid in full. No
credentials needed.`,
  body: s.PublicCheckoutBody,
  ok: s.PublicCheckoutResult,
  errors: [402, 404, 409],
});
export const publicCoverage = route({
  method: 'get',
  path: '/public/coverage',
  operationId: 'getPublicCoverage',
  tags: ptags,
  access: 'public',
  summary: "The coverage of an order on the renter's booking page",
  description: `By the order's \`TransactionId\`: each policy's status in words (\`issued\` with the policy number and the https document link;
\`not_issued_yet\`: "the policy has not issued yet"; \`not_covered\`; \`cancelled\`), the underwriter and its support address. An order without
coverage answers an empty list; an unknown order 404. No credentials needed.`,
  query: s.PublicCoverageQuery,
  ok: s.PublicCoverage,
  errors: [404],
});

// ---------------------------------------------------------------------------------------------
// Underwriter -> Berth

export const message = route({
  method: 'post',
  path: '/underwriter/v1/messages',
  operationId: 'requestCoverageMessage',
  tags: mtags,
  access: 'none',
  auth: underwriterAuth,
  summary: 'The underwriter asks Berth to e-mail the renter of a policy',
  description: `Signed with the offering's secret exactly like Berth's calls to the underwriter: \`X-Service-Offering: cov_...\`,
\`X-Service-Timestamp\` (Unix seconds, within 300 s of Berth's clock) and \`X-Service-Signature\` (hex HMAC-SHA256 of \`{timestamp}.{raw body}\`);
unsigned, stale or wrong: 401. The policy is named by \`policyNumber\` or the underwriter's \`quoteId\`; the recipient is the renter of its booking
(never an address the underwriter gives). Categories \`policy_issued\`, \`policy_document\`, \`policy_cancelled\`, \`claim_update\` only. \`text\` is plain
text: it is escaped into Berth's template, with the offering's support address as Reply-To. One message per category per policy: a repeat answers
200 with \`duplicate: true\` and sends nothing (the first answers 201). Once the operator stops offering the coverage at that location: 403
\`offering_disabled\`. 300 requests per minute per offering.`,
  body: s.MessageBody,
  ok: s.MessageResult,
  status: 201,
  errors: [401, 403, 404, 409, 429],
});
