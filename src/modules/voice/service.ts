/**
 * The voice module's face. No other module calls it today: the telephony webhooks (calls.ts,
 * voicemail.ts), the IVR menu (ivr.ts) and caller and voicemail reads (queries.ts) are reached
 * through its router only.
 */
export {};
