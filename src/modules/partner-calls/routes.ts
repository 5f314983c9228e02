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
});
