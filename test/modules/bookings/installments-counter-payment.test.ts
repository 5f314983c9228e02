/**
 * Installment plans follow the balance at once (issue 31): a counter payment on a booking paid in
 * installments (POST /pos/transaction with `settleBooking`) fits the installments still scheduled to
 * the balance left, in the same batch, from the last one backwards: the booking never shows a plan
 * that adds up to more than it owes.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createOperator, get, post, type Operator } from '../../harness';
import { at, book, bookBody, rentalItem, type TestItem } from './factories';

let op: Operator;
let item: TestItem;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 10 });
});

let day = 30;
async function installmentBooking() {
  const d = day++;
  const r = await book(
    op,
    bookBody({
      inventoryId: item.id,
      startTime: at(op.timezone, d, '10:00'),
      endTime: at(op.timezone, d, '12:00'),
      extra: { paymentPlan: { type: 'installments', installments: 4 } },
    }),
  );
  expect(r.status, r.text).toBe(201);
  expect(r.body.payment.installments.map((s: any) => s.amount)).toEqual([50, 50, 50, 50]);
  return r.body as { rentalId: string };
}

async function counterPayment(rentalId: string, amount: number) {
  const p = await post(
    '/pos/inventory',
    {
      locationId: op.locationId,
      name: `Balance payment ${amount}`,
      taxRate: 0,
      allowNegativeStock: true,
      variants: [{ name: 'Default', price: amount, quantity: 0 }],
    },
    { key: op.adminKey },
  );
  expect(p.status, p.text).toBe(201);
  const r = await post(
    '/pos/transaction',
    { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: p.body.itemId }], settleBooking: true, rentalId },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
}

const bookingOf = async (rentalId: string) => {
  const r = await get(`/coreBooking/${rentalId}`, { key: op.adminKey });
  expect(r.status, r.text).toBe(200);
  const b = r.body.pricing ?? r.body;
  const schedule = r.body.paymentPlan.schedule as { status: string; amount: number; originalAmount?: number }[];
  return { schedule, balance: Math.round((b.total - b.amountPaid) * 100) };
};
const scheduledCents = (schedule: { status: string; amount: number }[]) =>
  schedule.filter((s) => s.status === 'scheduled').reduce((sum, s) => sum + Math.round(s.amount * 100), 0);

describe('a counter payment fits the installment plan at once', () => {
  it('reduces the scheduled installments from the last one backwards to the balance left', async () => {
    const b = await installmentBooking();
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
    const b = await installmentBooking();
    await counterPayment(b.rentalId, 150);
    const { schedule, balance } = await bookingOf(b.rentalId);
    expect(balance).toBe(0);
    expect(schedule.map((s) => s.status)).toEqual(['paid', 'covered', 'covered', 'covered']);
    expect(scheduledCents(schedule)).toBe(0);
  });
});
