/**
 * Verification of the telephony provider's voice webhooks (Twilio): `X-Twilio-Signature` is the
 * base64 HMAC-SHA1, keyed with the account's auth token, of the exact URL Twilio called followed by
 * every POST parameter as name + value, sorted by name (`twilioSignature` of the SMS adapter).
 * Development and tests without `TWILIO_AUTH_TOKEN` sign and verify with a fixed development token
 * (`DEV_TWILIO_AUTH_TOKEN`), so the offline telephony simulator (and the tests) sign the same way.
 */
import type { Env } from '../env';
import { isProduction } from '../env';
import { timingSafeEqual } from '../lib/crypto';
import { twilioSignature } from './sms';

export { twilioSignature };

export const DEV_TWILIO_AUTH_TOKEN = 'dev-only-twilio-auth-token-0000';

/** The token webhooks are verified with, or null when none is configured in a deployed environment. */
export function twilioAuthToken(env: Env): string | null {
  return env.TWILIO_AUTH_TOKEN ?? (isProduction(env) ? null : DEV_TWILIO_AUTH_TOKEN);
}

/** True when `signature` matches one of the URLs the request may have been addressed to. */
export async function verifyTwilioSignature(
  authToken: string,
  urls: string[],
  params: Record<string, string>,
  signature: string | undefined,
): Promise<boolean> {
  if (!signature) return false;
  let ok = false;
  for (const url of [...new Set(urls)]) if (timingSafeEqual(await twilioSignature(authToken, url, params), signature)) ok = true;
  return ok;
}
