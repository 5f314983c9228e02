import { route } from '../../lib/openapi';
import { platformAuth } from '../../middleware/auth';
import * as s from './schemas';

const rtags = ['Coverage review'];

const platform = { access: 'none' as const, auth: platformAuth };

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
