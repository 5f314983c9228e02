/**
 * Time is an input (issue 27) for bookings: "now" is the operator's clock. The operator here is pinned
 * on a sandbox test clock (Thu 10 Dec 2026, 10:00 in New York), so what is past or upcoming does not
 * depend on the hour the test runs at: a time past on the operator's clock is refused with 400
 * `in_the_past` by the operator's checkout, the booking widget and a reschedule (even when the wall
 * clock would still call it future), and the confirmation and cancellation e-mails read in the
 * location's time, never as ISO timestamps.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { wallTimeToUtc } from '../../../src/lib/time';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { chargeDueInstallments, nextInstallmentDue } from '../../../src/modules/bookings/service';
import { book, bookBody, email, rentalItem, type TestItem } from './factories';

const TZ = 'America/New_York';
/** Thu 10 Dec 2026, 10:00 EST. */
const NOW = '2026-12-10T15:00:00.000Z';
const local = (date: string, time: string) => new Date(wallTimeToUtc(date, time, TZ)).toISOString();

let op: Operator;
let item: TestItem;
beforeAll(async () => {
  op = await createOperator({ clockAt: NOW, timezone: TZ });
  item = await rentalItem(op, { assets: 5 });
});

const messagesOf = async (rentalId: string, template: string) =>
  (await get(`/outbox/messages?${new URLSearchParams({ rentalId, template })}`, { key: op.adminKey })).body.data as { subject: string; body: string }[];

describe('bookings on the operator clock', () => {
  it('refuses a start already past with 400 in_the_past (yesterday, and earlier today), and books later today', async () => {
    const yesterday = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-09', '10:00'), endTime: local('2026-12-09', '12:00') }));
    expectError(yesterday, 400, 'in_the_past');
    expect(yesterday.body.message).toContain('Wed 9 Dec 2026, 10:00 EST');
    expect(yesterday.body.details).toEqual([expect.objectContaining({ field: 'rentalDetails.startTime' })]);
    const startedAnHourAgo = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-10', '09:00'), endTime: local('2026-12-10', '11:00') }));
    expectError(startedAnHourAgo, 400, 'in_the_past');
    const later = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-10', '11:00'), endTime: local('2026-12-10', '12:00') }));
    expect(later.status, later.text).toBe(201);
    expect(later.body.createdAt).toBe(NOW);
  });

  it('the booking widget refuses a past start on the operator clock (anonymous: the operator named in the body)', async () => {
    const r = await post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: item.id,
      startTime: local('2026-12-09', '14:00'),
      endTime: local('2026-12-09', '16:00'),
      customerInfo: { firstName: 'Rita', lastName: 'Renter', email: email('widget') },
      paymentMethodId: 'pm_card_visa',
    });
    expectError(r, 400, 'in_the_past');
    const ok = await post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: item.id,
      startTime: local('2026-12-11', '14:00'),
      endTime: local('2026-12-11', '16:00'),
      customerInfo: { firstName: 'Rita', lastName: 'Renter', email: email('widget') },
      paymentMethodId: 'pm_card_visa',
    });
    expect(ok.status, ok.text).toBe(201);
  });

  it('does not move a booking to a time already past', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-14', '10:00'), endTime: local('2026-12-14', '12:00') }));
    expect(b.status, b.text).toBe(201);
    const r = await post(
      `/coreBooking/${b.body.rentalId}/reschedule`,
      { startTime: local('2026-12-10', '08:00'), endTime: local('2026-12-10', '09:00') },
      { key: op.adminKey },
    );
    expectError(r, 400, 'in_the_past');
  });

  it('confirmation and cancellation e-mails show the local time ("Sat 12 Dec 2026, 10:00–14:00 EST"), no ISO timestamp', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-12', '10:00'), endTime: local('2026-12-12', '14:00') }));
    expect(b.status, b.text).toBe(201);
    const [confirmation] = await messagesOf(b.body.rentalId, 'booking.confirmation');
    expect(confirmation.body).toContain('Sat 12 Dec 2026, 10:00–14:00 EST');
    expect(confirmation.body).not.toMatch(ISO_TIMESTAMP);
    expect(confirmation.subject).not.toMatch(ISO_TIMESTAMP);
    const c = await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey });
    expect(c.status, c.text).toBe(200);
    const [cancellation] = await messagesOf(b.body.rentalId, 'booking.cancelled');
    expect(cancellation.body).toContain('Sat 12 Dec 2026, 10:00–14:00 EST');
    expect(cancellation.body).not.toMatch(ISO_TIMESTAMP);
    expect(cancellation.subject).not.toMatch(ISO_TIMESTAMP);
  });

  it('installments are due on the location calendar: nextDue is the start of the next due date there, and it is charged then', async () => {
    const b = await book(
      op,
      bookBody({
        inventoryId: item.id,
        startTime: local('2026-12-20', '10:00'),
        endTime: local('2026-12-20', '12:00'),
        extra: { paymentPlan: { type: 'installments', installments: 2 } },
      }),
    );
    expect(b.status, b.text).toBe(201);
    // The first is due today on the operator's calendar (paid), the second the day before the rental.
    expect(b.body.payment.installments.map((s: { dueDate: string }) => s.dueDate)).toEqual(['2026-12-10', '2026-12-19']);
    const ctxAt = (t: number) => systemCtx(env, { customerId: op.customerId, clock: fixedClock(t, op.clockId!) });
    const due = Date.parse(local('2026-12-19', '00:00'));
    expect(await nextInstallmentDue(ctxAt(Date.parse(NOW)))).toBe(due);
    expect(await chargeDueInstallments(ctxAt(due - 60_000))).toMatchObject({ charged: 0 });
    expect(await chargeDueInstallments(ctxAt(due))).toMatchObject({ charged: 1 });
    const plan = await env.DB.prepare('SELECT payment_plan FROM bookings WHERE id = ?').bind(b.body.rentalId).first<{ payment_plan: string }>();
    expect(JSON.parse(plan!.payment_plan).schedule[1]).toMatchObject({ status: 'paid', paidAt: new Date(due).toISOString() });
    expect(await nextInstallmentDue(ctxAt(due))).toBeNull();
  });
});
