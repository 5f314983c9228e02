import type { Env } from '../env';
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
