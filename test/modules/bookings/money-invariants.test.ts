/**
 * Money adds up (issue 31, "invariants as tests"), property-based through HTTP: random sequences of
 * book (paid now or later, with or without a promo code, 1 to 3 hours; or through the widget's checkout
 * with the run's gift card, which 8 parallel orders race for; or by the run's renter holding account credit,
 * spending 10.00 of it, which the parallel orders race for too), buy a protection plan,
 * reschedule (repriced, the difference charged or left owed, or the price kept), modify (the party and the
 * add-on changed, repriced the same ways), cancel (refunded or kept as credit), $50 paid at the counter
 * (a POS sale settling the booking), the renter's cancellation quote, the next installment of a payment
 * plan charged (bookings paid in three installments), a counter sale of goods refunded in part or in
 * full, and the operator's partial refund, goodwill credit and balance charged to the card on file.
 * After every step, for the booking:
 *
 * - the operator's view (`GET /coreBooking/{id}`) equals the ledger: total = the charges, amount
 *   paid = payments − refunds − credits, balance = total − paid + refunded + credited (never below zero when shown);
 * - the card refunds never exceed the card payments;
 * - the renter's view (`GET /public/order/{id}`) shows the same total, paid and balance, and the same money
 *   view (lib/money-view.ts) as the operator's, whose lines add up to its total and whose figures are the ledger's;
 * - an installment is never charged above the balance, and the installments still scheduled never add
 *   up to more than it (a counter payment lowers what remains);
 * - a counter sale's money view is its ledger's: what is left of its goods after the refund, nothing owed;
 * - a refused step (a change to a cancelled booking) writes nothing;
 * - the renter's cancellation quote adds up line by line (refund + kept = paid), and never gives
 *   back more than was paid;
 * - the gift card's balance = issued − used + returned, never below zero (checked once the batch's
 *   sales are settled: a sale in flight holds its part of the card until its write);
 * - the credit renter's account credit = given − spent + given back by cancellations, never below zero.
 * At the end of each batch, revenue of the location (metrics) equals the ledger's revenue entries.
 *
 * 16 runs of 8 sequences each (the 8 run in parallel, as renters would): 128 sequences per `npm test` (fewer since the
 * refund, credit, charge-balance and account-credit steps made each run longer: the file keeps its share of the 5-minute suite).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { and, eq } from 'drizzle-orm';
import { env } from 'cloudflare:test';
import { appHooks, createOperator, db, get, post, type Operator } from '../../harness';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { addDays, localDate, wallTimeToUtc } from '../../../src/lib/time';
import { chargeDueInstallments } from '../../../src/modules/bookings/service';
import { at, book, bookBody, rentalItem, type TestItem } from './factories';

const CHARGES = new Set([
  ...['revenue', 'discount', 'tax', 'tip', 'protection_plan', 'coverage_premium', 'cancellation_fee', 'fee', 'platform_fee_charge'],
  // An operator's partial refund lowers the price; a goodwill credit too (issue 33).
  ...['refund_adjustment', 'goodwill'],
]);

const step = fc.oneof(
  fc.record({ kind: fc.constant('plan' as const) }),
  fc.record({
    kind: fc.constant('reschedule' as const),
    days: fc.integer({ min: 1, max: 3 }),
    hours: fc.integer({ min: 1, max: 4 }),
    mode: fc.constantFrom('charge', 'owe', 'keep'),
  }),
  fc.record({
    kind: fc.constant('modify' as const),
    cooler: fc.boolean(),
    people: fc.integer({ min: 1, max: 8 }),
    mode: fc.constantFrom('charge', 'owe', 'keep'),
  }),
  fc.record({ kind: fc.constant('cancel' as const), refund: fc.boolean() }),
  fc.record({ kind: fc.constant('settle' as const) }),
  fc.record({ kind: fc.constant('quote' as const) }),
  fc.record({ kind: fc.constant('installment' as const) }),
  fc.record({ kind: fc.constant('counterSale' as const), quantity: fc.integer({ min: 1, max: 3 }), refund: fc.constantFrom('partial', 'full') }),
  // The operator's money actions (issue 33): a partial refund (maybe more than is left: refused), a goodwill credit, the balance charged.
  fc.record({ kind: fc.constant('partialRefund' as const), dollars: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ kind: fc.constant('credit' as const), dollars: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('chargeBalance' as const) }),
);
const sequence = fc.record({
  payNow: fc.boolean(),
  promo: fc.boolean(),
  /** Booked through the widget's checkout with the run's gift card (the card pays what it covers, a card the rest). */
  giftCard: fc.boolean(),
  /** Booked by the run's renter holding account credit, spending 10.00 of it (the batch's orders race for it). */
  accountCredit: fc.boolean(),
  /** Paid now in three installments (the first at booking, the rest charged by the installment job). */
  installments: fc.boolean(),
  hours: fc.integer({ min: 1, max: 3 }),
  steps: fc.array(step, { maxLength: 4 }),
});
type Sequence = typeof sequence extends fc.Arbitrary<infer T> ? T : never;

// A new operator per run of 8 sequences: its API key stays under the per-key rate limit.
let op: Operator;
let item: TestItem;
let slot = 0;
const k = () => ({ key: op.adminKey });

let issued = 0;
/** The counter's $50 "balance payment" product (a POS sale with `settleBooking` pays a booking's balance in cash). */
let balanceItemId = '';
/** Goods sold at the counter (12.99, taxed 7.5%). */
let goodsItemId = '';
/** The run's renter holding account credit (a goodwill credit moved to the account), and the credit given (cents). */
let creditRenter = { id: '', email: '' };
let creditGiven = 0;

async function newOperator(giftDollars: number, creditDollars: number) {
  op = await createOperator();
  item = await rentalItem(op, { assets: 8, data: { addons: [{ addonId: 'cooler', name: 'Cooler', price: 20, priceType: 'flat' }] } });
  const promo = await post('/promoGiftCards', { customerId: op.customerId, promoCode: 'INV10', ExpiryDate: '2099-12-31', Details: { '%Discount': 10 } }, k());
  expect(promo.status, promo.text).toBeLessThan(300);
  const gift = { customerId: op.customerId, promoCode: 'INVGIFT', ExpiryDate: '2099-12-31', Details: { $Discount: giftDollars, type: 'gift_card' } };
  const card = await post('/promoGiftCards', gift, k());
  expect(card.status, card.text).toBe(201);
  issued = giftDollars * 100;
  const counter = await post(
    '/pos/inventory',
    { locationId: op.locationId, name: 'Balance payment', taxRate: 0, variants: [{ name: 'Default', price: 50, quantity: 100_000 }] },
    k(),
  );
  expect(counter.status, counter.text).toBe(201);
  balanceItemId = counter.body.itemId;
  const goods = await post(
    '/pos/inventory',
    { locationId: op.locationId, name: 'Ice bag', taxRate: 7.5, variants: [{ name: 'Default', price: 12.99, quantity: 100_000 }] },
    k(),
  );
  expect(goods.status, goods.text).toBe(201);
  goodsItemId = goods.body.itemId;
  // A renter paid a booking in full, then got a goodwill credit: all of it goes to the renter's account credit.
  const email = `credit-${op.customerId.slice(-8).toLowerCase()}@renter.test`;
  const paid = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 30, '08:00'), endTime: at(op.timezone, 30, '10:00'), email }));
  expect(paid.status, paid.text).toBe(201);
  const credit = await post(`/coreBooking/${paid.body.rentalId}/credits`, { amount: creditDollars, reason: 'Invariants' }, k());
  expect(credit.status, credit.text).toBe(200);
  creditRenter = { id: paid.body.renterId, email };
  creditGiven = creditDollars * 100;
}

/**
 * The run's renter's account credit = the goodwill credits moved to the account (the run's first one, and any a
 * step gave on this renter's bookings) − what bookings spent + what cancellations gave back, never below zero.
 */
async function checkAccountCredit(where: string) {
  const [api, rows] = await Promise.all([
    get(`/renters/${creditRenter.id}?includeAccounting=true`, k()),
    env.DB.prepare(
      `SELECT coalesce(sum(CASE WHEN entry_type = 'credit' AND source = 'goodwill' THEN amount END), 0) AS given,
              coalesce(sum(CASE WHEN entry_type = 'payment' AND source = 'account_credit' THEN amount END), 0) AS spent
         FROM ledger_entries WHERE customer_id = ? AND renter_id = ? AND deleted_at IS NULL`,
    )
      .bind(op.customerId, creditRenter.id)
      .first<{ given: number; spent: number }>(),
  ]);
  expect(api.status, api.text).toBe(200);
  const left = api.body.accounting.accountCreditCents;
  expect(rows!.given, `${where}: the run's credit was given`).toBeGreaterThanOrEqual(creditGiven);
  expect(left, `${where}: account credit = given − spent + given back`).toBe(rows!.given + rows!.spent);
  expect(left, `${where}: account credit never below zero`).toBeGreaterThanOrEqual(0);
}

/**
 * Steps of the batch's sequences run in parallel (shared); the installment job charges every due plan
 * of the operator, so it runs alone (exclusive), never between another sequence's step and its check.
 */
class StepLock {
  /** Installment job runs so far (a step re-reads its booking's ledger when one ran since its last check). */
  jobs = 0;
  private active = 0;
  private alone: Promise<void> | null = null;
  private idle: (() => void)[] = [];
  async shared<T>(f: () => Promise<T>): Promise<T> {
    while (this.alone) await this.alone;
    this.active++;
    try {
      return await f();
    } finally {
      if (--this.active === 0) this.idle.splice(0).forEach((r) => r());
    }
  }
  async exclusive<T>(f: () => Promise<T>): Promise<T> {
    while (this.alone) await this.alone;
    let done!: () => void;
    this.alone = new Promise<void>((r) => (done = r));
    try {
      if (this.active) await new Promise<void>((r) => this.idle.push(r));
      return await f();
    } finally {
      this.alone = null;
      done();
    }
  }
}
let steps = new StepLock();

/** The gift card: its balance as the API answers it = issued − used + returned (its entries), never below zero. */
async function checkGiftCard(where: string) {
  const [api, entries] = await Promise.all([
    get(`/promoGiftCards/balance?promoCode=INVGIFT&customerId=${op.customerId}`, k()),
    env.DB.prepare('SELECT kind, amount FROM gift_card_entries WHERE customer_id = ?').bind(op.customerId).all<{ kind: string; amount: number }>(),
  ]);
  expect(api.status, api.text).toBe(200);
  const sum = (kind: string) => entries.results.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
  const used = -sum('redeem');
  const returned = sum('release');
  expect(sum('issue'), `${where}: gift card issued`).toBe(issued);
  expect(cents(api.body.balance), `${where}: gift card balance = issued − used + returned`).toBe(issued - used + returned);
  expect(api.body.balance).toBeGreaterThanOrEqual(0);
}

/** The booking's money as its ledger says: charges, payments, refunds (cents). */
async function ledgerOf(rentalId: string) {
  const rows = await db()
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, op.customerId), eq(ledgerEntries.rentalId, rentalId)))
    .all();
  const sum = (f: (e: (typeof rows)[number]) => boolean) => rows.filter((e) => !e.deletedAt && f(e)).reduce((s, e) => s + e.amount, 0);
  const total = sum((e) => CHARGES.has(e.entryType));
  const paid = 0 - sum((e) => e.entryType === 'payment');
  const refunded = sum((e) => e.entryType === 'refund');
  const credited = sum((e) => e.entryType === 'credit');
  const balance = sum((e) => !!e.affectsBalance);
  // A protection plan bought after the sale is paid by card on an intent of its own (source `protection_plan`), refunded as `card`.
  const byCard = (type: string) =>
    Math.abs(sum((e) => e.entryType === type && (e.source === 'card' || (type === 'payment' && e.source === 'protection_plan'))));
  return { total, paid, refunded, credited, balance, count: rows.length, cardPaid: byCard('payment'), cardRefunded: byCard('refund') };
}

const cents = (dollars: number) => Math.round(dollars * 100);

/** The invariants of one booking after a step. */
async function check(rentalId: string, where: string) {
  const [l, opView, renterView] = await Promise.all([ledgerOf(rentalId), get(`/coreBooking/${rentalId}`, k()), get(`/public/order/${rentalId}`)]);
  expect(opView.status, opView.text).toBe(200);
  expect(renterView.status, renterView.text).toBe(200);
  expect(l.balance, `${where}: ledger balance = total − paid + refunded + credited`).toBe(l.total - l.paid + l.refunded + l.credited);
  expect(l.cardRefunded, `${where}: card refunds never exceed card payments`).toBeLessThanOrEqual(l.cardPaid);
  const p = opView.body.pricing;
  expect([cents(p.total), cents(p.amountPaid), cents(p.balanceDue)], `${where}: operator's view = ledger`).toEqual([
    l.total,
    l.paid - l.refunded - l.credited,
    Math.max(0, l.balance),
  ]);
  const t = renterView.body.totals ?? renterView.body;
  expect([cents(t.total), cents(t.amountPaid), cents(t.balanceDue)], `${where}: renter's view = operator's view`).toEqual([
    cents(p.total),
    cents(p.amountPaid),
    cents(p.balanceDue),
  ]);
  // The one money view: the ledger's figures, lines adding up to the total, the same for the renter.
  const money = opView.body.money;
  expect([cents(money.total), cents(money.paid), cents(money.refunded), cents(money.credited), cents(money.balance)], `${where}: money view = ledger`).toEqual([
    l.total,
    l.paid,
    l.refunded,
    l.credited,
    l.balance,
  ]);
  expect(
    money.lines.reduce((s: number, x: { amount: number }) => s + cents(x.amount), 0),
    `${where}: money lines add up`,
  ).toBe(cents(money.total));
  const line = renterView.body.groups
    .flatMap((g: { lineItems: { rentalId: string }[] }) => g.lineItems)
    .find((x: { rentalId: string }) => x.rentalId === rentalId);
  expect(line.money, `${where}: renter's money view = operator's`).toEqual(money);
  return {
    l,
    status: opView.body.status as string,
    plan: opView.body.paymentPlan as { schedule?: { status: string; amount: number }[] } | null,
    jobs: steps.jobs,
  };
}

async function run(s: Sequence) {
  const n = slot++;
  const day = 3 + (n % 8);
  const hour = 8 + (n % 4) * 2;
  const time = (h: number) => `${String(h).padStart(2, '0')}:00`;
  const body = bookBody({
    inventoryId: item.id,
    startTime: at(op.timezone, day, time(hour)),
    endTime: at(op.timezone, day, time(hour + s.hours)),
    paymentMethodId: s.payNow ? 'pm_card_visa' : null,
    extra: {
      ...(s.promo ? { discountDetails: { promoCode: 'INV10' } } : {}),
      ...(s.payNow ? {} : { paymentPlan: { type: 'pay_later' } }),
      ...(s.payNow && s.installments ? { paymentPlan: { type: 'installments', installments: 3 } } : {}),
    },
  });
  const created = await steps.shared(() => place(s, body));
  // Parallel orders race for the one card: one spent it, or spent it at the same moment (try again): refused, nothing written.
  if (s.giftCard && created.status === 400 && created.body.error === 'invalid_promo_code') return;
  // The same for the account credit: the batch's orders spend it in parallel, the last ones find too little left.
  if (spendsCredit(s) && created.status === 400 && created.body.error === 'insufficient_account_credit') return;
  expect(created.status, created.text).toBe(201);
  const rentalId = created.body.rentalId as string;
  let last = await steps.shared(() => check(rentalId, 'booked'));
  // Only a plan's installments need the job (which charges the operator's every due plan, so it runs alone).
  const planned = s.payNow && s.installments && !s.giftCard;
  for (const [i, st] of s.steps.entries()) {
    const where = `step ${i + 1} ${st.kind}`;
    const alone = st.kind === 'installment' && planned;
    const { r, before, state } = await (alone ? steps.exclusive.bind(steps) : steps.shared.bind(steps))(async () => {
      // The ledger just before the step: re-read when an installment job ran since the last check (it may have charged this booking).
      const before = steps.jobs === last.jobs ? last.l : await ledgerOf(rentalId);
      const r = st.kind === 'installment' && !planned ? null : await act(rentalId, st, day, hour);
      return { r, before, state: await check(rentalId, where) };
    });
    last = state;
    if (r && r.status >= 400) expect(state.l.count, `${where}: a refused step (${r.status}) writes nothing`).toBe(before.count);
    if (r && r.status >= 500) throw new Error(`${where}: ${r.status} ${r.text}`);
    if (st.kind === 'installment' || st.kind === 'settle') planFitsBalance(state, before, where, st.kind === 'installment');
  }
}

/** A payment plan never charges above the balance, and what it still schedules never adds up to more than the balance. */
function planFitsBalance(state: Awaited<ReturnType<typeof check>>, before: Awaited<ReturnType<typeof ledgerOf>>, where: string, charged: boolean) {
  if (charged)
    expect(state.l.paid - before.paid, `${where}: an installment never charges more than the balance`).toBeLessThanOrEqual(Math.max(0, before.balance));
  // A cancelled or no-show booking's plan is never charged again (the job charges open bookings only).
  if (state.status === 'cancelled' || state.status === 'no_show') return;
  const scheduled = (state.plan?.schedule ?? []).filter((x) => x.status === 'scheduled').reduce((sum, x) => sum + cents(x.amount), 0);
  expect(scheduled, `${where}: the installments still scheduled fit the balance`).toBeLessThanOrEqual(Math.max(0, state.l.balance));
}

const spendsCredit = (s: Sequence) => s.accountCredit && !s.giftCard;

/** Books through the operator's API (by the credit renter, spending 10.00 of the credit), or through the widget's checkout with the run's gift card. */
function place(s: Sequence, body: ReturnType<typeof bookBody>) {
  if (spendsCredit(s)) return book(op, { ...body, customerInfo: { ...body.customerInfo, email: creditRenter.email }, accountCredit: { amount: 10 } });
  return s.giftCard
    ? post('/public/widget/checkout', {
        customerId: op.customerId,
        inventoryId: item.id,
        startTime: body.rentalDetails.startTime,
        endTime: body.rentalDetails.endTime,
        customerInfo: body.customerInfo,
        paymentMethodId: 'pm_card_visa',
        promoCode: 'INVGIFT',
      })
    : book(op, body);
}

async function act(rentalId: string, st: Sequence['steps'][number], day: number, hour: number) {
  if (st.kind === 'installment') return chargeNextInstallment(rentalId);
  if (st.kind === 'counterSale') return counterSale(st);
  if (st.kind === 'plan') {
    const probe = await post(`/public/bookings/${rentalId}/protection-plans`, { planId: 'MARINE_DAMAGE_WAIVER', planName: 'Plan', calculatedCost: 0.01 });
    if (probe.status !== 400 || probe.body.error !== 'price_mismatch') return probe;
    return post(`/public/bookings/${rentalId}/protection-plans`, { planId: 'MARINE_DAMAGE_WAIVER', planName: 'Plan', calculatedCost: probe.body.expectedCost });
  }
  if (st.kind === 'reschedule') {
    const h = Math.min(hour, 18 - st.hours);
    return post(
      `/coreBooking/${rentalId}/reschedule`,
      {
        startTime: at(op.timezone, day + 8 * st.days, `${String(h).padStart(2, '0')}:00`),
        endTime: at(op.timezone, day + 8 * st.days, `${String(h + st.hours).padStart(2, '0')}:00`),
        ...(st.mode === 'keep' ? { keepPrice: true } : st.mode === 'charge' ? { chargeDifference: true } : {}),
      },
      k(),
    );
  }
  if (st.kind === 'modify')
    return post(
      `/coreBooking/${rentalId}/modify`,
      {
        participants: st.people,
        addons: st.cooler ? [{ addonId: 'cooler' }] : [],
        ...(st.mode === 'keep' ? { keepPrice: true } : st.mode === 'charge' ? { chargeDifference: true } : {}),
      },
      k(),
    );
  if (st.kind === 'cancel') return post(`/coreBooking/${rentalId}/cancel`, st.refund ? {} : { refund: false }, k());
  if (st.kind === 'partialRefund') return post(`/coreBooking/${rentalId}/refunds`, { amount: st.dollars, reason: 'invariants' }, k());
  if (st.kind === 'credit') return post(`/coreBooking/${rentalId}/credits`, { amount: st.dollars, reason: 'invariants' }, k());
  if (st.kind === 'chargeBalance') return post(`/coreBooking/${rentalId}/charge-balance`, undefined, k());
  if (st.kind === 'settle')
    return post(
      '/pos/transaction',
      { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: balanceItemId }], settleBooking: true, rentalId },
      k(),
    );
  const q = await get(`/public/bookings/${rentalId}/cancellation-eligibility`);
  expect(q.status, q.text).toBe(200);
  const lines = q.body.refund.lines as { paid: number; refund: number; kept: number }[];
  for (const l of lines) {
    expect(cents(l.refund) + cents(l.kept), 'quote: refund + kept = paid, line by line').toBe(cents(l.paid));
    expect(l.refund).toBeGreaterThanOrEqual(0);
    expect(l.refund).toBeLessThanOrEqual(l.paid);
  }
  expect(cents(q.body.refund.amount)).toBe(lines.reduce((s, l) => s + cents(l.refund), 0));
  return null;
}

/** Runs the installment job for the operator at the start of the booking's next installment's due date (the location's), or now if later. */
async function chargeNextInstallment(rentalId: string) {
  const b = await get(`/coreBooking/${rentalId}`, k());
  const next = ((b.body.paymentPlan?.schedule ?? []) as { dueDate: string; status: string }[]).find((x) => x.status === 'scheduled' || x.status === 'failed');
  if (!next) return null;
  const at = Math.max(wallTimeToUtc(next.dueDate, '00:01', op.timezone), Date.now());
  steps.jobs++;
  await chargeDueInstallments(systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(at) }));
  return null;
}

/** A counter sale of goods, refunded in part or in full: its money view is its ledger's (what is left of its goods, nothing owed). */
async function counterSale(st: Extract<Sequence['steps'][number], { kind: 'counterSale' }>) {
  const sale = await post(
    '/pos/transaction',
    { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: goodsItemId, quantity: st.quantity }] },
    k(),
  );
  expect(sale.status, sale.text).toBe(201);
  const id = sale.body.transactionId as string;
  const refund = await post(
    '/pos/transaction/refund',
    { transactionId: id, ...(st.refund === 'full' ? { refundType: 'full' } : { refundType: 'partial', amount: 5 }) },
    k(),
  );
  expect(refund.status, refund.text).toBe(200);
  const m = refund.body.transaction.money;
  const rows = await db()
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, op.customerId), eq(ledgerEntries.transactionId, id)))
    .all();
  const sum = (f: (t: string) => boolean) => rows.filter((e) => f(e.entryType)).reduce((x, e) => x + e.amount, 0);
  const total = sum((t) => !['payment', 'refund'].includes(t));
  expect([cents(m.total), cents(m.paid), cents(m.refunded), cents(m.balance)], 'counter sale: money view = ledger').toEqual([
    total,
    -sum((t) => t === 'payment'),
    sum((t) => t === 'refund'),
    0,
  ]);
  expect(cents(m.total), 'counter sale: what is left of it after the refund').toBe(cents(sale.body.total) - cents(refund.body.amount));
  if (st.refund === 'full') expect(m.lines).toEqual([]);
  return null;
}

/** Revenue of the location in the reports (metrics over the days the batch wrote on) = the ledger's revenue entries. */
async function checkReports() {
  const today = localDate(Date.now(), op.timezone);
  const q = new URLSearchParams({ locationIds: op.locationId, startDate: addDays(today, -2), endDate: addDays(today, 60) });
  const [m, rows] = await Promise.all([
    get(`/analytics/metrics?${q}`, k()),
    env.DB.prepare(
      `SELECT coalesce(sum(amount), 0) AS revenue FROM ledger_entries WHERE customer_id = ? AND location_id = ? AND deleted_at IS NULL
         AND entry_type IN ('revenue', 'discount', 'refund_adjustment', 'goodwill', 'cancellation_fee', 'protection_plan', 'coverage_premium', 'deposit_capture')`,
    )
      .bind(op.customerId, op.locationId)
      .first<{ revenue: number }>(),
  ]);
  expect(m.status, m.text).toBe(200);
  expect(m.body.totals.revenueCents, 'metrics revenue = the ledger').toBe(Number(rows?.revenue ?? 0));
}

describe('money adds up: random sequences through HTTP', () => {
  it('keeps every view equal to the ledger after every step (128 sequences)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(sequence, { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 50, max: 600 }),
        fc.integer({ min: 5, max: 60 }),
        async (batch, giftDollars, creditDollars) => {
          await newOperator(giftDollars, creditDollars);
          steps = new StepLock();
          await Promise.all(batch.map(run));
          // Once the batch's sales are settled (a sale in flight holds its part of the card until it is written).
          await checkGiftCard('after the batch');
          await checkAccountCredit('after the batch');
          await checkReports();
        },
      ),
      { numRuns: 16, endOnFailure: true },
    );
  }, 240_000);
});
