import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { commsErrors } from './errors';

/**
 * Phone numbers, parsed and normalised to E.164 with libphonenumber-js (its "min" metadata: number
 * lengths per country, which keeps the Worker small; the exact digit patterns of the "max" metadata
 * are not checked). A number without a `+` prefix is read in `country` (default US).
 */

/** Countries SMS is sent to (the sender's coverage). Numbers of other countries answer 400 `sms_unavailable`. */
export const SMS_COUNTRIES = [
  'US', 'CA', 'PR', 'VI', 'GU', 'MX', 'BS', 'GB', 'GG', 'JE', 'IM', 'IE', 'FR', 'DE', 'NL', 'BE', 'LU', 'ES', 'PT', 'IT', 'MT', 'GR', 'HR', 'AT', 'CH',
  'DK', 'SE', 'NO', 'FI', 'IS', 'PL', 'CZ', 'AU', 'NZ',
] as const; // prettier-ignore

export const DEFAULT_COUNTRY = 'US';

export interface PhoneInfo {
  valid: true;
  e164: string;
  country: string | null;
  countryCallingCode: string;
  nationalNumber: string;
  nationalFormat: string;
  internationalFormat: string;
  smsAvailable: boolean;
}

const invalid = (message: string, field: string) => commsErrors.fail('invalid_phone_number', message, { details: [{ field, message }] });

function countryOf(country: string | undefined, field: string): CountryCode {
  const c = (country ?? DEFAULT_COUNTRY).trim().toUpperCase();
  if (!isSupportedCountry(c))
    throw invalid(`Unknown country code ${country} (ISO 3166-1 alpha-2, such as US or GB)`, field === 'phoneNumber' ? 'country' : field);
  return c;
}

/** Parses a number (400 `invalid_phone_number` when it is not one). */
export function parsePhone(raw: string, country?: string, field = 'phoneNumber'): PhoneInfo {
  const def = countryOf(country, field);
  const p = parsePhoneNumberFromString(raw.trim(), { defaultCountry: def });
  if (!p || !p.isValid()) throw invalid(`${raw.slice(0, 40)} is not a valid phone number${raw.trim().startsWith('+') ? '' : ` in ${def}`}`, field);
  const cc = p.country ?? null;
  return {
    valid: true,
    e164: p.number,
    country: cc,
    countryCallingCode: p.countryCallingCode,
    nationalNumber: p.nationalNumber,
    nationalFormat: p.formatNational(),
    internationalFormat: p.formatInternational(),
    smsAvailable: cc !== null && (SMS_COUNTRIES as readonly string[]).includes(cc),
  };
}

/** A number SMS can go to: 400 `invalid_phone_number` or `sms_unavailable` otherwise. */
export function smsPhone(raw: string, country?: string, field = 'phoneNumber'): PhoneInfo {
  const p = parsePhone(raw, country, field);
  if (!p.smsAvailable) {
    throw commsErrors.fail('sms_unavailable', `SMS is not available for ${p.country ?? `+${p.countryCallingCode}`} numbers`, {
      details: [{ field, message: 'SMS not available for this country' }],
      extra: { e164: p.e164, country: p.country },
    });
  }
  return p;
}

/** A number if it parses, else null (for stored renter numbers). */
export function tryPhone(raw: string | null | undefined, country?: string): PhoneInfo | null {
  if (!raw) return null;
  try {
    return parsePhone(raw, country);
  } catch {
    return null;
  }
}
