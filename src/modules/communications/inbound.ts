import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import type { AuthScheme } from '../../lib/openapi';
import { recordProviderStatus, recordSmsOptIn, recordSmsOptOut } from '../../adapters/messages';
import { verifyTwilioSignature } from '../../adapters/sms';
import { tryPhone } from './phone';

/** Keywords (the whole message, case and punctuation ignored) that stop later SMS to the sender's number. */
export const STOP_KEYWORDS = ['STOP', 'STOPALL', 'STOP ALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'OPT OUT', 'REVOKE'];
/** Keywords that re-open the number. */
export const START_KEYWORDS = ['START', 'YES', 'UNSTOP', 'OPTIN', 'OPT IN'];

export const keywordOf = (body: string) =>
  body
    .toUpperCase()
    .replace(/[^A-Z ]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Requests from Twilio: `X-Twilio-Signature` must be Twilio's signature of the URL and the form
 * parameters with TWILIO_AUTH_TOKEN (403 otherwise; 503 when no token is configured).
 */
export const twilioWebhookAuth: AuthScheme = {
  security: [],
  middleware: async (c, next) => {
    const token = c.env.TWILIO_AUTH_TOKEN;
    if (!token) throw new ApiError('service_unavailable', 'The SMS webhook is not configured (TWILIO_AUTH_TOKEN is not set)');
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) if (typeof v === 'string') params[k] = v;
    if (!(await verifyTwilioSignature(token, c.req.url, params, c.req.header('x-twilio-signature')))) {
      throw new ApiError('forbidden', 'Invalid X-Twilio-Signature');
    }
    await next();
  },
};

/** An incoming SMS: STOP (and synonyms) opts the sender's number out of every later SMS, START re-opens it. */
export async function receiveInboundSms(ctx: Ctx, p: Record<string, string>) {
  const from = p.From ?? '';
  const phone = tryPhone(from)?.e164 ?? from;
  const keyword = keywordOf(p.Body ?? '');
  if (!phone) return { action: 'none' as const, phone: null, keyword };
  if (STOP_KEYWORDS.includes(keyword)) {
    await recordSmsOptOut(ctx, { phone, keyword, source: 'inbound', toNumber: p.To ?? null });
    ctx.log.info('sms opt-out', { keyword });
    return { action: 'opted_out' as const, phone, keyword };
  }
  if (START_KEYWORDS.includes(keyword)) {
    await recordSmsOptIn(ctx, { phone, keyword, toNumber: p.To ?? null });
    ctx.log.info('sms opt-in', { keyword });
    return { action: 'opted_in' as const, phone, keyword };
  }
  return { action: 'none' as const, phone, keyword };
}

/** Twilio's delivery report of one of our SMS. */
export async function receiveSmsStatus(ctx: Ctx, p: Record<string, string>) {
  const sid = p.MessageSid ?? p.SmsSid;
  const status = p.MessageStatus ?? p.SmsStatus;
  if (!sid || !status) return { updated: false };
  const row = await recordProviderStatus(ctx, { provider: 'twilio', providerMessageId: sid, status, errorCode: p.ErrorCode ?? null });
  return { updated: !!row };
}
