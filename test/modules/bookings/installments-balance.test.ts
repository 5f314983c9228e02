/**
 * Installment plans follow the balance (issue 31): money paid on a booking another way (here a
 * counter payment at the point of sale, `settleBooking`) lowers what the plan still charges. An
 * installment is charged at most the balance left when it runs, is not charged at all (`covered`)
 * when nothing is left, and the rest of the plan is fitted to the balance from the last installment
 * backwards, so the scheduled installments never add up to more than the balance. A counter payment
 * fits the plan at once, in the batch that records it.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { env } from 'cloudflare:test';
import { createOperator, get, post, runCron, type Operator } from '../../harness';
import { at, book, bookBody, eventsOf, rentalItem, type TestItem } from './factories';
import { wallTimeToUtc } from '../../../src/lib/time';
import { fitToBalance, type Installment } from '../../../src/modules/bookings/installments';

let op: Operator;
let item: TestItem;
let balanceItemId: (price: number) => Promise<string>;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 10 });
  balanceItemId = async (price) => {
    const r = await post(
      '/pos/inventory',
      {
        locationId: op.locationId,
        name: `Balance payment ${price}`,
        taxRate: 0,
        allowNegativeStock: true,
        variants: [{ name: 'Default', price, quantity: 0 }],
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
    return r.body.itemId as string;
  };
});

let day = 12;
/** A 200.00 booking paid in `n` installments (three: 66.68 now, 66.66 twice; four: 50 each). */
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
  expect(r.body.payment.installments.map((s: any) => s.amount)).toEqual(n === 3 ? [66.68, 66.66, 66.66] : Array(n).fill(200 / n));
  return r.body as { rentalId: string; transactionId: string; payment: { installments: { dueDate: string }[] } };
}

async function counterPayment(rentalId: string, amount: number) {
  const r = await post(
    '/pos/transaction',
    {
      locationId: op.locationId,
      userId: op.adminId,
      paymentType: 'cash',
      items: [{ itemId: await balanceItemId(amount) }],
      settleBooking: true,
      rentalId,
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
}

const rowOf = async (rentalId: string) => {
  const row = await env.DB.prepare('SELECT payment_plan, total, amount_paid FROM bookings WHERE id = ?').bind(rentalId).first<any>();
  return { schedule: JSON.parse(row.payment_plan).schedule as any[], total: row.total as number, amountPaid: row.amount_paid as number };
};
const paymentsOf = async (rentalId: string) =>
  (await env.DB.prepare("SELECT sum(amount) AS s FROM ledger_entries WHERE rental_id = ? AND entry_type = 'payment'").bind(rentalId).first<any>()).s as number;
/** The charges of the daily job (installment 2 on): the first installment is paid with the booking. */
const installmentEvents = async (transactionId: string) =>
  (await eventsOf(op.customerId, 'payment.completed')).filter(
    (e) => e.payload.data.transactionId === transactionId && e.payload.data.kind === 'installment' && e.payload.data.installment > 1,
  );
/** 03:01 on a date of the location's calendar (when the daily job runs). */
const at3 = (date: string) => new Date(wallTimeToUtc(date, '03:01', op.timezone));

describe('installment plans follow the balance', () => {
  it('charges an installment at most the balance left after a counter payment, and covers the rest of the plan', async () => {
    const b = await installmentBooking();
    await counterPayment(b.rentalId, 100);
    expect((await rowOf(b.rentalId)).amountPaid).toBe(6668 + 10000);

    await runCron('0 3 * * *', at3(b.payment.installments[1].dueDate));
    let row = await rowOf(b.rentalId);
    expect(row.schedule[1]).toMatchObject({ status: 'paid', amount: 33.32, originalAmount: 66.66 });
    expect(row.schedule[2]).toMatchObject({ status: 'covered', amount: 0, originalAmount: 66.66 });
    expect(row.amountPaid).toBe(row.total);
    expect((await installmentEvents(b.transactionId)).map((e) => e.payload.data.amount)).toEqual([33.32]);

    await runCron('0 3 * * *', at3(b.payment.installments[2].dueDate));
    row = await rowOf(b.rentalId);
    expect(row.schedule[2]).toMatchObject({ status: 'covered', amount: 0 });
    expect(row.amountPaid).toBe(20000);
    expect(await paymentsOf(b.rentalId)).toBe(-20000);
    expect(await installmentEvents(b.transactionId)).toHaveLength(1);
  });

  it('does not charge an installment when the balance is paid: it is covered, with no payment', async () => {
    const b = await installmentBooking();
    await counterPayment(b.rentalId, 133.32);
    await runCron('0 3 * * *', at3(b.payment.installments[1].dueDate));
    const row = await rowOf(b.rentalId);
    expect(row.schedule.map((s) => [s.status, s.amount])).toEqual([
      ['paid', 66.68],
      ['covered', 0],
      ['covered', 0],
    ]);
    expect(row.amountPaid).toBe(20000);
    expect(await paymentsOf(b.rentalId)).toBe(-20000);
    expect(await installmentEvents(b.transactionId)).toHaveLength(0);
  });

  it('fits the unpaid installments into any balance, from the last one backwards (property)', () => {
    const status = fc.constantFrom('paid', 'scheduled', 'failed', 'overdue', 'processing', 'covered');
    const schedule = fc.array(fc.record({ status, cents: fc.integer({ min: 0, max: 100_000 }) }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(schedule, fc.integer({ min: -10_000, max: 500_000 }), (rows, balance) => {
        const plan: Installment[] = rows.map((r, k) => ({ dueDate: `2031-01-${String(k + 1).padStart(2, '0')}`, amount: r.cents / 100, status: r.status }));
        const fit = fitToBalance(plan, balance);
        const unpaid = rows.map((r, k) => ({ ...r, k })).filter((r) => ['scheduled', 'failed', 'overdue'].includes(r.status));
        const inFlight = rows.filter((r) => r.status === 'processing').reduce((s, r) => s + r.cents, 0);
        const room = Math.max(0, balance - inFlight);
        const after = unpaid.map((r) => fit.get(r.k) ?? r.cents);
        // Never raised, never below zero; only unpaid installments change.
        for (const [k, v] of fit) {
          expect(['scheduled', 'failed', 'overdue']).toContain(rows[k].status);
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThan(rows[k].cents);
        }
        // What remains fits the balance; a plan that fits already is left alone.
        const sum = after.reduce((s, v) => s + v, 0);
        expect(sum).toBeLessThanOrEqual(room);
        if (unpaid.reduce((s, r) => s + r.cents, 0) <= room) expect(fit.size).toBe(0);
        else expect(sum).toBe(room);
        // From the last one backwards: once one is reduced, every later one is 0.
        const firstCut = unpaid.findIndex((r) => fit.has(r.k));
        if (firstCut >= 0) for (const v of after.slice(firstCut + 1)) expect(v).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

/** The booking as the operator reads it: its schedule and balance (cents). */
const bookingOf = async (rentalId: string) => {
  const r = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
  expect(r.status, r.text).toBe(200);
  const schedule = r.body.paymentPlan.schedule as { status: string; amount: number; originalAmount?: number }[];
  return { schedule, balance: Math.round((r.body.pricing.total - r.body.pricing.amountPaid) * 100) };
};
const scheduledCents = (schedule: { status: string; amount: number }[]) =>
  schedule.filter((s) => s.status === 'scheduled').reduce((sum, s) => sum + Math.round(s.amount * 100), 0);

describe('a counter payment fits the installment plan at once (in the batch that records it)', () => {
  it('reduces the scheduled installments from the last one backwards to the balance left', async () => {
    const b = await installmentBooking(4);
    await counterPayment(b.rentalId, 70);
    const { schedule, balance } = await bookingOf(b.rentalId);
    expect(balance).toBe(8000);
    expect(schedule.map((s) => [s.status, s.amount])).toEqual([
      ['paid', 50],
      ['scheduled', 50],
      ['scheduled', 30],
      ['covered', 0],
    ]);
    expect(schedule.slice(2).map((s) => s.originalAmount)).toEqual([50, 50]);
    expect(scheduledCents(schedule)).toBeLessThanOrEqual(balance);
  });

  it('covers every scheduled installment when the counter pays the whole balance', async () => {
    const b = await installmentBooking(4);
    await counterPayment(b.rentalId, 150);
    const { schedule, balance } = await bookingOf(b.rentalId);
    expect(balance).toBe(0);
    expect(schedule.map((s) => s.status)).toEqual(['paid', 'covered', 'covered', 'covered']);
    expect(scheduledCents(schedule)).toBe(0);
  });
});
