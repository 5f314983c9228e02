import type { Env } from '../env';
import { wallClock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { outbound } from './http';

type TelEnv = Env & { TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string };

export interface AvailableNumber {
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  capabilities: { voice: boolean; sms: boolean };
}

const configured = (env: TelEnv) => Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN);

/**
 * Telephone numbers. Offline default: a deterministic set of numbers per country and area code
 * (`+1 {area} 555 01xx`), bought instantly. With Twilio credentials the real inventory is used.
 */
export async function findNumbers(env: TelEnv, country: string, areaCode: string): Promise<AvailableNumber[]> {
  if (!configured(env)) {
    const cc = country.toUpperCase() === 'US' || country.toUpperCase() === 'CA' ? '1' : '44';
    return Array.from({ length: 5 }, (_, i) => {
      const phoneNumber = `+${cc}${areaCode}5550${String(100 + i * 7).padStart(3, '0')}`;
      return { phoneNumber, friendlyName: `(${areaCode}) 555-0${100 + i * 7}`, locality: null, region: null, capabilities: { voice: true, sms: true } };
    });
  }
  const auth = btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  const url = `https://api.twilio.com/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/AvailablePhoneNumbers/${encodeURIComponent(country.toUpperCase())}/Local.json?AreaCode=${encodeURIComponent(areaCode)}`;
  const res = await outbound.fetch(url, { headers: { authorization: `Basic ${auth}` } });
  if (!res.ok) throw new ApiError('bad_request', `Telephony provider refused the search (${res.status})`);
  const body = (await res.json()) as {
    available_phone_numbers: {
      phone_number: string;
      friendly_name: string;
      locality: string;
      region: string;
      capabilities: { voice: boolean; SMS: boolean };
    }[];
  };
  return body.available_phone_numbers.map((n) => ({
    phoneNumber: n.phone_number,
    friendlyName: n.friendly_name,
    locality: n.locality,
    region: n.region,
    capabilities: { voice: n.capabilities.voice, sms: n.capabilities.SMS },
  }));
}

export async function buyNumber(env: TelEnv, phoneNumber: string): Promise<{ providerId: string }> {
  if (!configured(env)) return { providerId: `PN_offline_${phoneNumber.replace(/\D/g, '')}` };
  const auth = btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  const res = await outbound.fetch(`https://api.twilio.com/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/IncomingPhoneNumbers.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ PhoneNumber: phoneNumber }),
  });
  if (!res.ok) throw new ApiError('bad_request', `Telephony provider refused the purchase (${res.status})`);
  const body = (await res.json()) as { sid: string };
  return { providerId: body.sid };
}

export type CallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'failed' | 'no-answer' | 'canceled';
export const FINAL_CALL_STATUSES: CallStatus[] = ['completed', 'busy', 'failed', 'no-answer', 'canceled'];

export interface CallState {
  providerId: string;
  status: CallStatus;
  durationSeconds: number | null;
}

/** Offline calls last this long: queued, then in progress, then completed (the simulator speaks to no one). */
const OFFLINE_CALL_MS = 5_000;
const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * Places an outbound call that speaks `message` (text-to-speech) to `to` from `from`. Offline
 * default: a simulated call (`CA_offline_<placed at>_...`) that is queued, in progress for a few
 * seconds and then completed; nothing is dialled. With Twilio credentials the call is real.
 */
export async function placeCall(env: TelEnv, input: { from: string; to: string; message: string }): Promise<CallState> {
  // The simulated call's life runs on the (simulated) provider's clock: real time.
  if (!configured(env)) return { providerId: `CA_offline_${wallClock.now()}_${crypto.randomUUID().slice(0, 8)}`, status: 'queued', durationSeconds: null };
  const auth = btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  const res = await outbound.fetch(`https://api.twilio.com/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/Calls.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ From: input.from, To: input.to, Twiml: `<Response><Say>${escapeXml(input.message)}</Say></Response>` }),
  });
  if (!res.ok) throw new ApiError('bad_request', `Telephony provider refused the call (${res.status})`);
  const body = (await res.json()) as { sid: string; status: CallStatus };
  return { providerId: body.sid, status: body.status, durationSeconds: null };
}

/** The provider's view of a call (offline: derived from when it was placed). */
export async function getCall(env: TelEnv, providerId: string): Promise<CallState> {
  const offline = /^CA_offline_(\d+)_/.exec(providerId);
  if (offline) {
    // The simulated provider's clock: real time (placeCall).
    const age = wallClock.now() - Number(offline[1]);
    if (age < 1_000) return { providerId, status: 'queued', durationSeconds: null };
    if (age < OFFLINE_CALL_MS) return { providerId, status: 'in-progress', durationSeconds: null };
    return { providerId, status: 'completed', durationSeconds: Math.round((OFFLINE_CALL_MS - 1_000) / 1000) };
  }
  const auth = btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  const res = await outbound.fetch(`https://api.twilio.com/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/Calls/${encodeURIComponent(providerId)}.json`, {
    headers: { authorization: `Basic ${auth}` },
  });
  if (!res.ok) throw new ApiError('service_unavailable', `Telephony provider answered ${res.status}`);
  const body = (await res.json()) as { status: CallStatus; duration: string | null };
  return { providerId, status: body.status, durationSeconds: body.duration ? Number(body.duration) : null };
}

/** Ends a call that has not ended (offline: cancels the simulation). */
export async function hangupCall(env: TelEnv, providerId: string): Promise<CallState> {
  if (/^CA_offline_/.test(providerId)) return { providerId, status: 'canceled', durationSeconds: 0 };
  const auth = btoa(`${env.TWILIO_ACCOUNT_SID}:${env.TWILIO_AUTH_TOKEN}`);
  const res = await outbound.fetch(`https://api.twilio.com/2010-04-01/Accounts/${env.TWILIO_ACCOUNT_SID}/Calls/${encodeURIComponent(providerId)}.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ Status: 'completed' }),
  });
  if (!res.ok) throw new ApiError('bad_request', `Telephony provider refused to end the call (${res.status})`);
  const body = (await res.json()) as { status: CallStatus; duration: string | null };
  return { providerId, status: body.status, durationSeconds: body.duration ? Number(body.duration) : null };
}
