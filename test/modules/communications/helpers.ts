/** Helpers of the communications tests: bookings to message about, the send log, signed Twilio webhooks. */
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { api, BASE, patch, type Operator } from '../../harness';
import { twilioSignature } from '../../../src/adapters/sms';
import { book, bookBody, rentalItem } from '../bookings/factories';

export interface Msg {
  id: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  html: string | null;
  template: string | null;
  status: string;
  provider: string;
  rental_id: string | null;
  status_reason: string | null;
  provider_message_id: string | null;
  provider_status: string | null;
  metadata: string | null;
}

/** The send log of an operator (oldest first), optionally for one template. */
export async function messagesOf(customerId: string, template?: string): Promise<Msg[]> {
  const q = template
    ? env.DB.prepare('SELECT * FROM message_outbox WHERE customer_id = ? AND template = ? ORDER BY created_at, id').bind(customerId, template)
    : env.DB.prepare('SELECT * FROM message_outbox WHERE customer_id = ? ORDER BY created_at, id').bind(customerId);
  return (await q.all<Msg>()).results;
}

/** A confirmed rental of a new pool item (in `timezone` when given: a new location there). */
export async function rental(
  op: Operator,
  o: { start: string; end: string; timezone?: string; currency?: string; customerInfo?: Record<string, unknown>; extendedData?: Record<string, unknown> },
) {
  const item = await rentalItem(op, { timezone: o.timezone });
  if (o.currency) expect((await patch('/location', { locationId: item.locationId, currency: o.currency }, { key: op.adminKey })).status).toBe(200);
  const body = bookBody({ inventoryId: item.id, startTime: o.start, endTime: o.end });
  const r = await book(op, {
    ...body,
    customerInfo: { ...body.customerInfo, ...(o.customerInfo ?? {}) },
    extendedData: { ...body.extendedData, ...(o.extendedData ?? {}) },
  });
  expect(r.status, r.text).toBe(201);
  return { item, rentalId: r.body.rentalId as string, locationId: item.locationId, email: r.body.customerInfo?.email as string };
}

/** A Twilio webhook call signed like Twilio does (form-encoded, X-Twilio-Signature). */
export async function twilioPost(path: string, params: Record<string, string>, token = 'test-twilio-auth-token-0123456789') {
  const url = BASE + path;
  const signature = await twilioSignature(token, url, params);
  return api('POST', path, {
    rawBody: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
  });
}
