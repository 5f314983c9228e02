/** Helpers of the OCTO tests: an operator with a reseller key, OCTO calls with capabilities, and OCTO's own schemas. */
import { expect } from 'vitest';
import { api, createOperator, type ApiResult, type Operator } from '../../harness';
import { partnerKey } from '../channel/factories';
import { localDateTime } from '../../../src/modules/octo/slots';
import { addDays, localDate, wallTimeToUtc } from '../../../src/lib/time';

export const TZ = 'America/New_York';
export const ALL_CAPS = 'octo/pricing, octo/content';

export interface Reseller {
  op: Operator;
  key: string;
  connectionId: string;
}

/** An operator and a live single-operator key of a reseller (commission 15 % unless given). */
export async function reseller(opts: { commissionRate?: number } = {}): Promise<Reseller> {
  const op = await createOperator({ timezone: TZ });
  const { key, connectionId } = await partnerKey(op, { commissionRate: opts.commissionRate ?? 15 });
  return { op, key, connectionId };
}

export function octo<T = any>(
  method: string,
  path: string,
  key: string | null,
  opts: { body?: unknown; caps?: string; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  return api<T>(method, `/octo/v1${path}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(opts.caps != null ? { 'octo-capabilities': opts.caps } : {}), ...(opts.headers ?? {}) },
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
}

/** An OCTO error: status 400 (OCTO answers every error with 400) and `{error, errorMessage}`. */
export function expectOctoError(r: ApiResult, code: string, status = 400) {
  expect(r.status, `expected ${status} ${code}, got ${r.status}: ${r.text}`).toBe(status);
  expect(r.body.error).toBe(code);
  expect(typeof r.body.errorMessage).toBe('string');
  expect(r.body.requestId).toBeUndefined();
}

/** The local date `days` ahead in the zone, and the OCTO availability id of a local time that day. */
export const dateIn = (days: number, tz = TZ) => addDays(localDate(Date.now(), tz), days);
export const availabilityId = (days: number, time: string, tz = TZ) => localDateTime(wallTimeToUtc(dateIn(days, tz), time, tz), tz);

export const unitItems = (unitId: string, n: number) => Array.from({ length: n }, () => ({ unitId }));

/** Reserve then confirm; answers the confirmed booking. */
export async function book(
  key: string,
  body: Record<string, unknown>,
  contact: Record<string, unknown> = { fullName: 'Ann Guest', emailAddress: 'ann@example.test' },
) {
  const r = await octo('POST', '/bookings', key, { body });
  expect(r.status, r.text).toBe(200);
  const c = await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact, resellerReference: `REF-${r.body.uuid.slice(0, 8)}` } });
  expect(c.status, c.text).toBe(200);
  return c.body;
}
