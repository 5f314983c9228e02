import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Partner calls'];

export const placeCall = route({
  method: 'post',
  path: '/calls/partner/calls',
  operationId: 'placePartnerCall',
  tags,
  summary: "Place a voice call from the location's number (text-to-speech message)",
  body: s.PlaceCall,
  ok: s.Call,
  status: 201,
  errors: [403, 404],
  description: `Through the telephony adapter (Twilio with credentials; offline: a simulated call that is queued, in progress for a few seconds, then completed). Needs the \`calls\` permission. Gateway scope: \`audio_calling\` (POST /api/v1/calls/partner/calls).`,
});
export const listCalls = route({
  method: 'get',
  path: '/calls/partner/calls',
  operationId: 'listPartnerCalls',
  tags,
  summary: 'Calls placed (an installed app sees those of its installation)',
  query: s.ListQuery,
  ok: s.CallList,
  description: `Newest first, \`limit\`/\`offset\`, \`total\`; \`locationId\` keeps the calls of one location. Calls that have not ended are refreshed from the provider first, so \`status\`, \`durationSeconds\` and \`endedAt\` are current. An operator credential sees every call of the operator; an installed app (through the gateway) only those its installation placed. Gateway scope: \`audio_calling\`.`,
});
export const getCall = route({
  method: 'get',
  path: '/calls/partner/calls/{callId}',
  operationId: 'getPartnerCall',
  tags,
  summary: 'One call, with its status refreshed from the provider',
  params: s.CallIdParam,
  ok: s.Call,
  errors: [404],
  description: `\`status\` (queued, ringing, in-progress, then completed, busy, failed, no-answer or canceled), \`durationSeconds\` and \`endedAt\` come from the provider when the call has not ended yet. A call of another operator, or for an installed app one placed by another installation, answers 404. Gateway scope: \`audio_calling\`.`,
});
export const hangup = route({
  method: 'post',
  path: '/calls/partner/calls/{callId}/hangup',
  operationId: 'hangupPartnerCall',
  tags,
  summary: 'End a call that has not ended',
  params: s.CallIdParam,
  ok: s.Call,
  errors: [403, 404, 409],
  description: `Asks the provider to end the call and answers it with its final status and \`endedAt\`. 409 \`invalid_state\` once it has ended (completed, busy, failed, no-answer or canceled). Needs the \`calls\` permission. A call of another operator answers 404. Gateway scope: \`audio_calling\`.`,
});
