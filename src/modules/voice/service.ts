/**
 * Voice: the telephony provider's webhooks answered with TwiML. An incoming call finds its
 * location by the number called and its caller among the location's renters (E.164 match), greets
 * a known caller by name with their next booking, and reads the location's `ivrConfig` menu; key
 * presses forward, ring the team one number after the other, read a message, hang up or take a
 * voicemail (recorded by the provider, completed and e-mailed to `voicemailEmail`).
 */
export { incomingCall, handleKey, dialNext } from './calls';
export { handleRecording, recordingWebhook } from './voicemail';
export { identifyCaller, listVoicemails, type Caller } from './queries';
export { BOOKING_KEY } from './ivr';
