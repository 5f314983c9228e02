/** Helpers of the Marina II tests (waitlist, guest access, portal, public slips, haul services, meter readings). */
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { post, type Operator } from '../../harness';
import { boat, day, renter } from './helpers';

export const key = (op: { adminKey: string }) => ({ key: op.adminKey });

/** Messages the offline outbox holds for an address (newest first). */
export const mailsTo = (to: string, template?: string) =>
  env.DB.prepare(
    `SELECT subject, body, template, metadata FROM message_outbox WHERE "to" = ? ${template ? 'AND template = ?' : ''} ORDER BY created_at DESC, id DESC`,
  )
    .bind(...(template ? [to, template] : [to]))
    .all<{ subject: string; body: string; template: string; metadata: string }>()
    .then((r) => r.results);

export const eventsOf = (customerId: string, type: string) =>
  env.DB.prepare('SELECT payload FROM webhook_events WHERE customer_id = ? AND type = ? ORDER BY created_at')
    .bind(customerId, type)
    .all<{ payload: string }>()
    .then((r) => r.results.map((x) => JSON.parse(x.payload)));

export async function joinWaitlist(op: Operator, o: Record<string, unknown> = {}) {
  const r = await post(
    '/slips/waitlist',
    { locationId: op.locationId, renter: renter('wl'), boat: boat(), rateType: 'nightly', arrivalDate: day(op, 20), departureDate: day(op, 23), ...o },
    key(op),
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; renter: { email: string }; [k: string]: any };
}
