/**
 * Helpers of the renter self-service tests: paid bookings through the booking commit, the e-mailed
 * code read from the outbox, verified-code session tokens, and a client address per call (the
 * per-IP limits of the public endpoints).
 */
import { expect } from 'vitest';
import { env } from 'cloudflare:test';
import { post, type Operator } from '../../harness';
import { at, book, bookBody, email, everyDay, rentalItem, type TestItem } from '../bookings/factories';

/** Open round the clock: bookings a few hours from now fit whatever the time of day the tests run. */
export const ALL_DAY = { operatingHours: everyDay({ open: '00:00', close: '00:00' }) };

let ipSeq = 0;
export const ip = () => ({ 'cf-connecting-ip': `10.13.${Math.floor(Math.random() * 250)}.${++ipSeq % 250}` });

export async function paidBooking(
  op: Operator,
  o: { item?: TestItem; day?: number; start?: string; end?: string; renterEmail?: string; participants?: number; paymentMethodId?: string } = {},
) {
  const item = o.item ?? (await rentalItem(op, { data: ALL_DAY }));
  const renterEmail = o.renterEmail ?? email('renter');
  const r = await book(
    op,
    bookBody({
      inventoryId: item.id,
      startTime: o.start ?? at(op.timezone, o.day ?? 2, '10:00'),
      endTime: o.end ?? at(op.timezone, o.day ?? 2, '12:00'),
      quantity: 1,
      email: renterEmail,
      paymentMethodId: o.paymentMethodId,
      ...(o.participants ? { rentalDetails: { participants: o.participants } } : {}),
    }),
  );
  expect(r.status, r.text).toBe(201);
  return { item, rentalId: r.body.rentalId as string, transactionId: r.body.order.transactionId as string, email: renterEmail };
}

export const requestCode = (rentalId: string, headers = ip()) => post(`/public/bookings/${rentalId}/cancellation-otp`, {}, { headers });
export const verify = (rentalId: string, sessionId: string, code: string) => post(`/public/bookings/${rentalId}/verify-cancellation-otp`, { sessionId, code });

/** The code e-mailed for a code session (from the outbox). */
export async function mailedCode(customerId: string, sessionId: string) {
  const rows = await env.DB.prepare(`SELECT "to", subject, body, metadata FROM message_outbox WHERE customer_id = ? AND template = 'renter.code'`)
    .bind(customerId)
    .all<{ to: string; subject: string; body: string; metadata: string }>();
  const mail = rows.results.find((m) => JSON.parse(m.metadata).sessionId === sessionId);
  expect(mail, `an e-mail for ${sessionId}`).toBeDefined();
  return { ...mail!, code: /is (\d{6})\./.exec(mail!.body)![1] };
}

/** A verified-code session token for a booking. */
export async function sessionToken(op: Operator, rentalId: string) {
  const sent = await requestCode(rentalId);
  expect(sent.status, sent.text).toBe(200);
  const { code } = await mailedCode(op.customerId, sent.body.sessionId);
  const v = await verify(rentalId, sent.body.sessionId, code);
  expect(v.status, v.text).toBe(200);
  return v.body.token as string;
}
