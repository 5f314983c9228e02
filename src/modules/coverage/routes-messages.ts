import { route } from '../../lib/openapi';
import { underwriterAuth } from './messages';
import * as s from './schemas';

const mtags = ['Coverage message requests'];

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
