import { route } from '../../lib/openapi';
import * as s from './schemas';
import { twilioSignature } from './auth';

const tags = ['Voice'];
const signed = `Called by the telephony provider with form-encoded parameters (CallSid, From, To, Digits, DialCallStatus, Recording*) and
\`X-Twilio-Signature\` (HMAC-SHA1 of the exact URL and the sorted parameters with the auth token): a missing or wrong signature answers 401
\`unauthenticated\`. Query inputs are validated before the signature (400).`;

export const incomingCall = route({
  method: 'post',
  path: '/communication/voice/incoming-call',
  operationId: 'answerIncomingCall',
  tags,
  access: 'none',
  auth: twilioSignature(),
  summary: 'Incoming call: the TwiML menu of the location called, greeting a known caller',
  produces: 'text/xml',
  errors: [401],
  description: `${signed} The location is found by the number called (\`To\`: a number bought for it, else its own number). The caller (\`From\`,
E.164) is matched to the location's renters: a known caller is greeted by name with their next booking at the location and may press 9 to be
put through about it. Then the greeting and the menu of the location's \`ivrConfig\` (a location without a menu rings its ring list). An unknown
number answers a short "not in service" TwiML.`,
});
export const handleKey = route({
  method: 'post',
  path: '/communication/voice/handle-key',
  operationId: 'handleCallKey',
  tags,
  access: 'none',
  auth: twilioSignature(s.KeyQuery),
  summary: 'A key pressed in the menu (`Digits`): forward, ring group, message, voicemail or hang up',
  query: s.KeyQuery,
  produces: 'text/xml',
  errors: [401, 404],
  description: `${signed} An unknown key or none replays the menu; after 3 tries the caller is offered voicemail.`,
});
export const dialNext = route({
  method: 'post',
  path: '/communication/voice/sequential-dial-next',
  operationId: 'dialNextInRingList',
  tags,
  access: 'none',
  auth: twilioSignature(s.DialQuery),
  summary: 'Ring the next number of the ring list (or take a voicemail when nobody answered)',
  query: s.DialQuery,
  produces: 'text/xml',
  errors: [401, 404],
  description: `${signed} Rings \`ringList[currentIndex]\` for 20 seconds and comes back with the next index; when the previous number answered
(\`DialCallStatus=completed\`) the call ends; past the end of the list the caller leaves a voicemail.`,
});
export const recordingWebhook = route({
  method: 'post',
  path: '/communication/voice/recording-webhook',
  operationId: 'receiveRecordingStatus',
  tags,
  access: 'none',
  auth: twilioSignature(),
  summary: "The provider's notice that a voicemail recording is ready (or failed)",
  ok: s.RecordingReceipt,
  errors: [400, 401],
  description: `${signed} 400 without \`CallSid\` and \`RecordingSid\`, or for a call this service did not answer.`,
});
export const handleRecording = route({
  method: 'post',
  path: '/communication/voice/handle-recording',
  operationId: 'completeVoicemail',
  tags,
  access: 'none',
  auth: twilioSignature(s.RecordingQuery),
  summary: 'Voicemail completed: stored, e-mailed to the location, the caller thanked',
  query: s.RecordingQuery,
  produces: 'text/xml',
  errors: [401, 404],
  description: `${signed} The recording is stored with the call (caller and renter) and e-mailed to \`ivrConfig.voicemailEmail\` when set.`,
});
export const listVoicemails = route({
  method: 'get',
  path: '/communication/voice/voicemails',
  operationId: 'listVoicemails',
  description: `With the caller (and the renter they were matched to), the recording URL and its length. Needs the \`voice\` permission (admins and managers
have it); \`locationId\` keeps one location.`,
  tags,
  summary: 'Voicemails left at the operator’s locations, newest first',
  query: s.VoicemailQuery,
  ok: s.VoicemailList,
  errors: [403],
});
