import { route } from '../../lib/openapi';
import * as s from './schemas';
import { tags } from './routes-docs';

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
