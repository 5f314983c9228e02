/**
 * The installments job: the scheduled installments of a payment plan are charged on their due
 * date (of the location's calendar), once even when runs overlap, with payment.completed; a decline
 * is retried 1, 3 and 5 days after the due date and then marked overdue; cancelled bookings are not
 * charged.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, cronJobNames, post, runCron, type Operator } from '../../harness';
import { at, book, bookBody, eventsOf, rentalItem, type TestItem } from './factories';
import { addDays, wallTimeToUtc } from '../../../src/lib/time';

let op: Operator;
let item: TestItem;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 10 });
});

const DAY = 86_400_000;
let day = 10;
async function installmentBooking(n = 3) {
  const d = day++;
  const r = await book(
    op,
    bookBody({
      inventoryId: item.id,
      startTime: at(op.timezone, d, '10:00'),
      endTime: at(op.timezone, d, '12:00'),
      extra: { paymentPlan: { type: 'installments', installments: n } },
    }),
  );
  expect(r.status, r.text).toBe(201);
  return r.body;
}
const planOf = async (rentalId: string) => {
  const row = await env.DB.prepare('SELECT payment_plan, amount_paid FROM bookings WHERE id = ?').bind(rentalId).first<any>();
  return { plan: JSON.parse(row.payment_plan), amountPaid: row.amount_paid as number };
};
/** 03:01 on a date of the location's calendar (due dates are the location's), plus some days. */
const at3 = (date: string, plusDays = 0) => new Date(wallTimeToUtc(date, '03:01', op.timezone) + plusDays * DAY);
/** The start of a date of the location's calendar. */
const dayStart = (date: string) => new Date(wallTimeToUtc(date, '00:00', op.timezone)).toISOString();

describe('booking installments', () => {
  it('runs on the daily schedule', () => {
    expect(cronJobNames('0 3 * * *')).toContain('bookings.installments');
  });

  it('charges a due installment once, even with overlapping runs, and fires payment.completed', async () => {
    const b = await installmentBooking(3);
    expect(b.payment.installments.map((s: any) => [s.amount, s.status])).toEqual([
      [66.68, 'paid'],
      [66.66, 'scheduled'],
      [66.66, 'scheduled'],
    ]);
    const second = b.payment.installments[1].dueDate;
    await runCron('0 3 * * *', new Date(Date.parse(dayStart(second)) - 60_000));
    expect((await planOf(b.rentalId)).plan.schedule[1].status).toBe('scheduled');
    await Promise.all([runCron('0 3 * * *', at3(second)), runCron('0 3 * * *', at3(second)), runCron('0 3 * * *', at3(second))]);
    const { plan, amountPaid } = await planOf(b.rentalId);
    expect(plan.schedule[1]).toMatchObject({ status: 'paid', attempts: 1 });
    expect(plan.schedule[2].status).toBe('scheduled');
    expect(amountPaid).toBe(6668 + 6666);
    const ledger = await env.DB.prepare("SELECT amount, description FROM ledger_entries WHERE rental_id = ? AND entry_type = 'payment' ORDER BY occurred_at")
      .bind(b.rentalId)
      .all<any>();
    expect(ledger.results).toEqual([
      { amount: -6668, description: 'Installment 1' },
      { amount: -6666, description: 'Installment 2' },
    ]);
    const paid = (await eventsOf(op.customerId, 'payment.completed')).filter(
      (e) => e.payload.data.transactionId === b.transactionId && e.payload.data.installment === 2,
    );
    expect(paid).toHaveLength(1);
    expect(paid[0].payload.data).toMatchObject({ amount: 66.66, installment: 2 });
  });

  it('retries a declined installment 1, 3 and 5 days after its due date, then marks it overdue', async () => {
    const b = await installmentBooking(2);
    const due = b.payment.installments[1].dueDate;
    await env.DB.prepare("UPDATE sim_payment_methods SET behavior = 'decline' WHERE id = (SELECT payment_method_id FROM sim_payment_intents WHERE id = ?)")
      .bind(b.paymentIntentId)
      .run();
    const attempts = async () => (await planOf(b.rentalId)).plan.schedule[1];
    await runCron('0 3 * * *', at3(due));
    expect(await attempts()).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'card_declined',
      nextAttemptAt: dayStart(addDays(due, 1)),
    });
    await runCron('0 3 * * *', at3(due, 0.5));
    expect((await attempts()).attempts).toBe(1);
    await runCron('0 3 * * *', at3(due, 1));
    expect((await attempts()).attempts).toBe(2);
    await runCron('0 3 * * *', at3(due, 3));
    expect((await attempts()).attempts).toBe(3);
    await runCron('0 3 * * *', at3(due, 5));
    expect(await attempts()).toMatchObject({ status: 'overdue', attempts: 4, nextAttemptAt: null });
    await runCron('0 3 * * *', at3(due, 9));
    expect((await attempts()).attempts).toBe(4);
    const mails = await env.DB.prepare("SELECT count(*) AS n FROM message_outbox WHERE customer_id = ? AND template = 'booking.installment_failed'")
      .bind(op.customerId)
      .first<any>();
    expect(mails.n).toBe(4);
    expect((await planOf(b.rentalId)).amountPaid).toBe(10000);
  });

  it('does not charge a cancelled booking', async () => {
    const b = await installmentBooking(2);
    expect((await post(`/coreBooking/${b.rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    await runCron('0 3 * * *', at3(b.payment.installments[1].dueDate));
    expect((await planOf(b.rentalId)).plan.schedule[1].status).toBe('scheduled');
  });
});
