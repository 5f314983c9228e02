import type { Env } from '../env';
import { timingSafeEqual } from '../lib/crypto';
import { headerText, type ProviderResult } from './email';
import { outbound } from './http';

/**
 * SMS transport: Twilio's Messages API (`POST /2010-04-01/Accounts/{sid}/Messages.json`, HTTP
 * Basic auth with the account SID and auth token, form-encoded `To`, `Body` and `From` or
 * `MessagingServiceSid`). Configured by TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER
 * (or TWILIO_MESSAGING_SERVICE_SID); otherwise there is no transport and SMS go to the outbox.
 */
export interface SmsMessage {
  /** E.164. */
  to: string;
  body: string;
  /** Where Twilio reports delivery status changes (our /communication/sms/status). */
  statusCallback?: string;
}

export interface SmsTransport {
  name: 'twilio';
  send(msg: SmsMessage): Promise<ProviderResult>;
}

/** Twilio error codes that mean the recipient has opted out (replied STOP) of our sender. */
export const TWILIO_UNSUBSCRIBED = 21610;

export const twilioMessagesUrl = (accountSid: string) => `https://api.twilio.com/2010-04-01/Accounts/${accountSid}/Messages.json`;

export function smsTransport(env: Env): SmsTransport | null {
  const sid = env.TWILIO_ACCOUNT_SID;
  const token = env.TWILIO_AUTH_TOKEN;
  if (!sid || !token || !(env.TWILIO_FROM_NUMBER || env.TWILIO_MESSAGING_SERVICE_SID)) return null;
  return {
    name: 'twilio',
    async send(msg) {
      const form = new URLSearchParams({ To: headerText(msg.to, 64), Body: msg.body });
      if (env.TWILIO_MESSAGING_SERVICE_SID) form.set('MessagingServiceSid', env.TWILIO_MESSAGING_SERVICE_SID);
      else form.set('From', env.TWILIO_FROM_NUMBER!);
      if (msg.statusCallback) form.set('StatusCallback', msg.statusCallback);
      let res: Response;
      try {
        res = await outbound.fetch(twilioMessagesUrl(sid), {
          method: 'POST',
          headers: { authorization: `Basic ${btoa(`${sid}:${token}`)}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: form.toString(),
          signal: AbortSignal.timeout(15_000),
        });
      } catch (err) {
        return { ok: false, reason: `Twilio unreachable: ${String(err)}`, retry: true };
      }
      const json = (await res.json().catch(() => ({}))) as { sid?: string; status?: string; code?: number; message?: string };
      if (res.ok && json.sid) return { ok: true, providerMessageId: json.sid, providerStatus: json.status ?? 'queued' };
      const reason = `Twilio ${json.code ?? res.status}: ${json.message ?? res.statusText ?? 'refused'}`;
      return { ok: false, reason, retry: res.status === 429 || res.status >= 500, code: json.code, providerStatus: 'failed' };
    },
  };
}

/**
 * Twilio's request signature (`X-Twilio-Signature`): base64 HMAC-SHA1, keyed with the auth token,
 * of the full URL Twilio called followed by every POST parameter name and value, sorted by name.
 */
export async function twilioSignature(authToken: string, url: string, params: Record<string, string>): Promise<string> {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join('');
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(data)));
  let bin = '';
  for (const b of mac) bin += String.fromCharCode(b);
  return btoa(bin);
}

export async function verifyTwilioSignature(authToken: string, url: string, params: Record<string, string>, signature: string | undefined): Promise<boolean> {
  if (!signature) return false;
  return timingSafeEqual(await twilioSignature(authToken, url, params), signature);
}
