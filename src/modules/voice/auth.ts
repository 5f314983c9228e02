/**
 * Every request of the telephony provider is verified with `X-Twilio-Signature`: HMAC-SHA1 of the
 * exact URL called and the sorted POST parameters, keyed with the auth token. The query is
 * validated first (400), then the signature (401 `unauthenticated` when missing or wrong; 503 when
 * no auth token is configured in a deployed environment). The URL is checked as received and as
 * rebuilt on PUBLIC_BASE_URL (a proxy in front may change the scheme or host).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import type { AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import type { AuthScheme } from '../../lib/openapi';
import { readBodyText, validatedScheme } from '../../lib/provider-auth';
import { twilioAuthToken, verifyTwilioSignature } from '../../adapters/telephony-signature';

/** The provider's POST parameters (form-encoded); empty for any other body. */
export async function formParams(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/application\/x-www-form-urlencoded/i.test(type)) return {};
  return Object.fromEntries(new URLSearchParams(await readBodyText(c, 64 * 1024)));
}

function candidateUrls(c: Context<AppEnv>): string[] {
  const url = new URL(c.req.url);
  const out = [url.toString()];
  if (url.protocol === 'http:') out.push(`https://${url.host}${url.pathname}${url.search}`);
  if (c.env.PUBLIC_BASE_URL) out.push(`${c.env.PUBLIC_BASE_URL.replace(/\/$/, '')}${url.pathname}${url.search}`);
  return out;
}

const check: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = twilioAuthToken(c.env);
  if (!token) throw new ApiError('service_unavailable', 'Telephony webhooks are not configured on this service (TWILIO_AUTH_TOKEN)');
  const ok = await verifyTwilioSignature(token, candidateUrls(c), await formParams(c), c.req.header('x-twilio-signature'));
  if (!ok) throw new ApiError('unauthenticated', 'Missing or invalid X-Twilio-Signature');
  await next();
};

export const twilioSignature = (query?: ZodType): AuthScheme => validatedScheme({ security: [{ TwilioSignature: [] }], check }, { query });
