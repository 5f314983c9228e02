import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import { partnerAuth } from '../partners/service';
import * as s from './schemas';

const otags = ['Coverage offerings'];

const partner = { access: 'none' as const, auth: partnerAuth };

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
address; under \`wrangler dev\` a loopback URL, http too, only when the machine's owner sets DEV_PARTNER_LOOPBACK, e.g. for \`npm run underwriter\`).
\`supportedCountries\` empty means nowhere. \`quoteTimeoutMs\` at most 5000. The answer carries \`signingSecret\` (\`cvs_...\`) once: keep it in
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
  description: `Newest first. \`outcome\` is \`ok\`, \`timeout\`, \`network\` (also a base URL the outbound URL policy refuses at call time: one
outcome, one message, whatever happened), \`http_error\`, \`invalid_json\` or \`too_large\`; an
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
