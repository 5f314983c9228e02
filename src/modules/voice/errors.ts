import { defineErrors } from '../../lib/errors';

/** Codes of the telephony webhooks. */
export const voiceErrors = defineErrors({
  unknown_call: { status: 400, meaning: 'The CallSid is not a call this service answered' },
});

export const voiceFail = voiceErrors.fail;
