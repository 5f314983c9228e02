/**
 * Charges the installments that POST /coreBooking/book stores (`paymentPlan.type: "installments"`:
 * the first is paid at booking, the rest are `scheduled` with a due date) — the cron job
 * `bookings.installments`, daily at 03:00 UTC. Due dates are dates of the rental location's calendar:
 * an installment is due from the start of its due date there, on the context's clock; `nextDue`
 * answers the next such instant (or retry time) so a sandbox test clock charges it on time.
 *
 * Same guarantees as membership renewals: each due installment is CLAIMED with one conditional
 * UPDATE on the order's first open rental (`scheduled`/`failed` -> `processing`, or a
 * `processing` claim older than 10 minutes), charged with the card of the booking's first payment
 * through the payments adapter with an idempotency key per order, installment and attempt (a
 * replayed run gets the same payment back), and recorded in one batch: the schedule of every rental
 * of the order, `amountPaid`, a card `payment` ledger entry per rental (deterministic ids, so a
 * second write of the same installment fails as a whole) and `payment.completed` (kind
 * `installment`). A decline marks the installment `failed`, e-mails the renter and is retried 1, 3
 * and 5 days after its due date (from the start of that local day); after the fourth failed attempt
 * it is `overdue` (no more automatic attempts). Cancelled and no-show rentals are not charged.
 *
 * The plan follows the balance. The order's balance is the sum over its open rentals of `total -
 * amountPaid`; money paid another way (a counter payment on the booking, ...) lowers it. An installment
 * is charged at most the balance left when it runs once the other installments being charged are set
 * aside (`originalAmount` keeps the planned figure when it is capped); with nothing left it is not
 * charged and becomes `covered` (amount 0). `planFollowsBalanceStmts` fits the remaining installments
 * to the balance in the batch that records such a payment: the earliest keep their amounts and the
 * reduction is taken from the last one backwards (an installment reduced to 0 is `covered`), so the
 * scheduled installments never add up to more than the balance and the plan ends early.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { inJobScope } from '../../lib/job-scope';
import { formatLocalDay } from '../../lib/local-time';
import { addDays, localDate, wallTimeToUtc } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { shareByWeight, toCents, toDollars } from '../../lib/money';
import { bookings } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { emailStmt } from '../../adapters/messages';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { insertLedger, paymentEntry } from './ledger';
import { scopeOf } from './changes';
import type { BookingRow } from './views';

const CLAIM_MS = 10 * 60_000;
const RETRY_DAYS = [1, 3, 5];
const OPEN = ['pending', 'confirmed', 'checked_in', 'completed'];

/** One installment of a plan as stored (amounts in dollars). */
export interface Installment {
  dueDate: string;
  amount: number;
  status: string;
  originalAmount?: number;
  attempts?: number;
  nextAttemptAt?: string | null;
  claimedAt?: string | null;
}

export interface InstallmentRunSummary {
  charged: number;
  declined: number;
  overdue: number;
  skipped: number;
  /** Due installments not charged because the balance was paid another way (now `covered`). */
  covered: number;
}

/** Installments still to be charged (a `processing` one is being charged). */
const UNPAID = new Set(['scheduled', 'failed', 'overdue']);

const scheduleOf = (b: BookingRow) => ((b.paymentPlan as { schedule?: Installment[] } | null)?.schedule ?? []) as Installment[];

/** The start of a due date in the location's zone. */
const dueStart = (dueDate: string, tz: string) => wallTimeToUtc(dueDate, '00:00', tz);

/** The installments of a plan that are due at `now` (status, due date in the location's calendar, retry time, stale claim). */
function dueIndexes(b: BookingRow, now: number, tz: string): number[] {
  const today = localDate(now, tz);
  const nowIso = new Date(now).toISOString();
  const stale = new Date(now - CLAIM_MS).toISOString();
  return scheduleOf(b)
    .map((s, i) => ({ s, i }))
    .filter(
      ({ s }) =>
        s.dueDate <= today &&
        ((s.status === 'scheduled' && (!s.nextAttemptAt || s.nextAttemptAt <= nowIso)) ||
          (s.status === 'failed' && !!s.nextAttemptAt && s.nextAttemptAt <= nowIso) ||
          (s.status === 'processing' && (s.claimedAt ?? '') < stale)),
    )
    .map(({ i }) => i);
}

const jsonPath = (i: number, field: string) => `$.schedule[${i}].${field}`;

/**
 * Open rentals of the job's operators with installments still to charge (due by `latestDate`, when
 * given), with their location's zone.
 */
function openPlans(ctx: Ctx, latestDate?: string) {
  const pending = latestDate
    ? sql`json_extract(value, '$.status') IN ('scheduled', 'failed', 'processing') AND json_extract(value, '$.dueDate') <= ${latestDate}`
    : sql`json_extract(value, '$.status') IN ('scheduled', 'failed', 'processing')`;
  return ctx.db
    .select({ b: bookings, tz: locations.timezone })
    .from(bookings)
    .innerJoin(locations, eq(locations.id, bookings.locationId))
    .where(
      and(
        sql`json_extract(${bookings.paymentPlan}, '$.type') = 'installments'`,
        inArray(bookings.status, OPEN),
        sql`EXISTS (SELECT 1 FROM json_each(${bookings.paymentPlan}, '$.schedule') WHERE ${pending})`,
        inJobScope(ctx, bookings.customerId),
      ),
    )
    .orderBy(asc(bookings.id));
}

/** The cron job: charges the installments due at the context's clock. */
export async function chargeDueInstallments(ctx: Ctx): Promise<InstallmentRunSummary> {
  const now = ctx.clock.now();
  const out: InstallmentRunSummary = { charged: 0, declined: 0, overdue: 0, skipped: 0, covered: 0 };
  // Today in the zone furthest ahead (UTC+14) bounds every location's today; each plan is checked in its own zone below.
  const rows = await openPlans(ctx, addDays(new Date(now).toISOString().slice(0, 10), 1))
    .limit(500)
    .all();
  // One plan per order: the first open rental holds the claim.
  const holders = new Map<string, { b: BookingRow; tz: string }>();
  for (const r of rows)
    if (!holders.has(`${r.b.customerId}|${r.b.transactionId}`)) holders.set(`${r.b.customerId}|${r.b.transactionId}`, { b: r.b as BookingRow, tz: r.tz });
  for (const { b: holder, tz } of holders.values()) {
    for (const i of dueIndexes(holder, now, tz)) {
      try {
        const r = await chargeInstallment(ctx, holder, i, now, tz);
        out[r]++;
        if (r !== 'charged' && r !== 'covered') break; // later installments wait for this one
      } catch (err) {
        ctx.log.error('installment charge failed', { transactionId: holder.transactionId, installment: i + 1, error: String(err) });
        break;
      }
    }
  }
  return out;
}

/**
 * The job's next due instant after the context's clock: the start of an installment's due date in its
 * location's zone, its retry time, or when a stale claim may be taken over; null when none is pending.
 */
export async function nextInstallmentDue(ctx: Ctx): Promise<number | null> {
  const now = ctx.clock.now();
  let next: number | null = null;
  for (const { b, tz } of await openPlans(ctx).all()) {
    for (const s of scheduleOf(b as BookingRow)) {
      let due: number | null = null;
      if (s.status === 'scheduled') due = Math.max(dueStart(s.dueDate, tz), s.nextAttemptAt ? Date.parse(s.nextAttemptAt) : 0);
      else if (s.status === 'failed' && s.nextAttemptAt) due = Math.max(dueStart(s.dueDate, tz), Date.parse(s.nextAttemptAt));
      // A claim is taken over once strictly older than CLAIM_MS.
      else if (s.status === 'processing') due = Date.parse(s.claimedAt ?? '') + CLAIM_MS + 1;
      if (due != null && Number.isFinite(due) && due > now && (next == null || due < next)) next = due;
    }
  }
  return next;
}

/** One installment of one order being charged: the claim holder, its index, and the run's clock and zone. */
interface InstallmentRun {
  holder: BookingRow;
  i: number;
  now: number;
  nowIso: string;
  tz: string;
}

/** The charge's outcome: the intent that paid, or why it did not. */
interface ChargeOutcome {
  intent: PaymentIntent | null;
  failure: { code: string; message: string } | null;
}

/**
 * The installment being recorded: the run, the order's open rentals (read after the claim), the
 * installment as the claim left it, the schedule, its attempt number, the order's balance before the
 * charge and the amount charged (cents: the installment, capped at what is left to pay).
 */
interface InstallmentCharge extends InstallmentRun {
  order: BookingRow[];
  schedule: Installment[];
  inst: Installment;
  attempt: number;
  balance: number;
  amount: number;
}

/** Cents the order still owes: the sum of `total - amountPaid` over its open rentals (negative when overpaid). */
const orderBalance = (order: BookingRow[]) => order.reduce((s, b) => s + b.total - b.amountPaid, 0);

/** Cents of the installments being charged (`processing`), but installment `except`. */
const inFlight = (schedule: Installment[], except = -1) =>
  schedule.reduce((s, x, k) => s + (k !== except && x.status === 'processing' ? toCents(x.amount) : 0), 0);

/**
 * The unpaid installments (`scheduled`, `failed`, `overdue`) fitted into `balance` cents once the
 * installments being charged are set aside: in order of the schedule each keeps what is left, up to its
 * amount, so the reduction is taken from the last one backwards. Answers the new amount (cents) of each
 * installment that must fall (0: nothing left to charge, the installment is `covered`); never raises one.
 */
export function fitToBalance(schedule: Installment[], balance: number): Map<number, number> {
  let left = Math.max(0, balance - inFlight(schedule));
  const fit = new Map<number, number>();
  schedule.forEach((s, k) => {
    if (!UNPAID.has(s.status)) return;
    const amount = toCents(s.amount);
    const keep = Math.min(amount, left);
    left -= keep;
    if (keep < amount) fit.set(k, keep);
  });
  return fit;
}

/**
 * The statements that fit the unpaid installments of `schedule` to `balance` (see `fitToBalance`) on
 * every rental of the order. Each update applies only while those installments are still as read (same
 * status and amount), so a charge that claimed one meanwhile is never rewritten; the charge's own cap
 * stands in for a fit lost that way.
 */
function fitStmts(ctx: Ctx, order: BookingRow[], schedule: Installment[], balance: number): Stmt[] {
  const fit = fitToBalance(schedule, balance);
  if (!fit.size) return [];
  const args: ReturnType<typeof sql>[] = [];
  const guards: ReturnType<typeof sql>[] = [];
  for (const [k, cents] of fit) {
    const s = schedule[k];
    const pairs: [string, unknown][] = [
      [jsonPath(k, 'amount'), toDollars(cents)],
      [jsonPath(k, 'originalAmount'), s.originalAmount ?? s.amount],
      ...(cents
        ? []
        : ([
            [jsonPath(k, 'status'), 'covered'],
            [jsonPath(k, 'nextAttemptAt'), null],
          ] as [string, unknown][])),
    ];
    for (const [path, value] of pairs) args.push(sql`${path}`, sql`${value}`);
    guards.push(
      sql`json_extract(${bookings.paymentPlan}, ${jsonPath(k, 'status')}) = ${s.status}`,
      sql`json_extract(${bookings.paymentPlan}, ${jsonPath(k, 'amount')}) = ${s.amount}`,
    );
  }
  const expr = sql`json_set(${bookings.paymentPlan}, ${sql.join(args, sql`, `)})`;
  return order.map((b) =>
    ctx.db
      .update(bookings)
      .set({ paymentPlan: expr })
      .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId), ...guards)),
  );
}

/** A change of the booking's money made in the caller's batch: cents added to `amountPaid` (`paid`) and to `total` (`charged`). */
export interface BalanceChange {
  paid?: number;
  charged?: number;
}

/**
 * For the batch that records money paid on a booking another way (a counter payment, a balance paid
 * with credit or a gift card) or that changes its total: the statements that fit the remaining
 * installments of its order's plan to the order's balance after `change` (from the last installment
 * backwards; one reduced to 0 is `covered`). None when the booking has no installment plan, its order
 * has no open rental, or the plan already fits.
 */
export async function planFollowsBalanceStmts(ctx: Ctx, b: BookingRow, change: BalanceChange = {}): Promise<Stmt[]> {
  if ((b.paymentPlan as { type?: string } | null)?.type !== 'installments') return [];
  const order = await openRentalsOfOrder(ctx, b);
  if (!order.length) return [];
  const balance = orderBalance(order) + (change.charged ?? 0) - (change.paid ?? 0);
  return fitStmts(ctx, order, scheduleOf(order[0]), balance);
}

/**
 * Claims installment `i` of the holder's order and settles it: not charged (`covered`) when nothing is
 * left to pay, else the stored card is charged the installment capped at the balance and the payment or
 * the decline recorded; answers what happened.
 */
async function chargeInstallment(ctx: Ctx, holder: BookingRow, i: number, now: number, tz: string): Promise<keyof InstallmentRunSummary> {
  const run: InstallmentRun = { holder, i, now, nowIso: new Date(now).toISOString(), tz };
  if (!(await claimInstallment(ctx, run))) return 'skipped';
  const order = await openRentalsOfOrder(ctx, holder);
  const schedule = scheduleOf(order.find((b) => b.id === holder.id) ?? holder);
  const inst = schedule[i];
  const balance = orderBalance(order);
  const charge: InstallmentCharge = {
    ...run,
    order,
    schedule,
    inst,
    balance,
    attempt: (inst.attempts ?? 0) + 1,
    amount: Math.max(0, Math.min(toCents(inst.amount), balance - inFlight(schedule, i))),
  };
  if (charge.amount === 0) {
    await recordInstallmentCovered(ctx, charge);
    return 'covered';
  }
  const { intent, failure } = await chargeStoredCard(ctx, charge);
  if (!failure && intent) {
    await recordInstallmentPaid(ctx, charge, intent);
    return 'charged';
  }
  return await recordInstallmentDeclined(ctx, charge, failure!);
}

/** Claims installment `i` on the holder with one conditional UPDATE (`scheduled`/`failed`, or a stale `processing` claim); false when another run has it. */
async function claimInstallment(ctx: Ctx, { holder, i, now, nowIso }: InstallmentRun): Promise<boolean> {
  const stale = new Date(now - CLAIM_MS).toISOString();
  const claimed = await ctx.db
    .update(bookings)
    .set({ paymentPlan: sql`json_set(${bookings.paymentPlan}, ${jsonPath(i, 'status')}, 'processing', ${jsonPath(i, 'claimedAt')}, ${nowIso})` })
    .where(
      and(
        eq(bookings.id, holder.id),
        eq(bookings.customerId, holder.customerId),
        sql`(json_extract(${bookings.paymentPlan}, ${jsonPath(i, 'status')}) IN ('scheduled', 'failed')
          OR (json_extract(${bookings.paymentPlan}, ${jsonPath(i, 'status')}) = 'processing' AND coalesce(json_extract(${bookings.paymentPlan}, ${jsonPath(i, 'claimedAt')}), '') < ${stale}))`,
      ),
    )
    .run();
  return !!(claimed.meta?.changes ?? 0);
}

/** The open rentals of the holder's order, by id. */
async function openRentalsOfOrder(ctx: Ctx, holder: BookingRow): Promise<BookingRow[]> {
  return (
    await ctx.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.customerId, holder.customerId), eq(bookings.transactionId, holder.transactionId)))
      .orderBy(asc(bookings.id))
      .all()
  ).filter((b) => OPEN.includes(b.status)) as BookingRow[];
}

/** Charges the card of the booking's first payment, with an idempotency key per order, installment and attempt; a decline is an outcome, not an error. */
async function chargeStoredCard(ctx: Ctx, { holder, i, attempt, amount }: InstallmentCharge): Promise<ChargeOutcome> {
  const pay = payments(ctx);
  const first = holder.paymentIntentId ? await pay.getPaymentIntent(holder.paymentIntentId) : null;
  if (!first?.paymentMethodId) return { intent: null, failure: { code: 'no_payment_method', message: 'The booking has no card to charge' } };
  try {
    const intent = await pay.createPaymentIntent({
      amount,
      currency: holder.currency,
      customerId: first.customerId,
      paymentMethodId: first.paymentMethodId,
      captureMethod: 'automatic',
      confirm: true,
      description: `Booking ${holder.transactionId}, installment ${i + 1}`,
      metadata: { transactionId: holder.transactionId, customerId: holder.customerId, kind: 'installment', installment: String(i + 1) },
      idempotencyKey: `${holder.transactionId}_inst${i + 1}_a${attempt}`,
    });
    return { intent, failure: intent.status !== 'succeeded' ? { code: intent.lastError ?? 'card_declined', message: 'The payment did not complete' } : null };
  } catch (err) {
    if (!(err instanceof PaymentError)) throw err;
    return { intent: null, failure: { code: err.code, message: err.message } };
  }
}

/** The same `json_set` of installment `i`'s fields, for every rental of the order. */
function setScheduleFields(order: BookingRow[], i: number, pairs: [string, unknown][]) {
  const args = pairs.flatMap(([field, value]) => [sql`${jsonPath(i, field)}`, sql`${value}`]);
  const expr = sql`json_set(${bookings.paymentPlan}, ${sql.join(args, sql`, `)})`;
  return order.map((b) => ({ b, expr }));
}

/** The amount and planned amount of an installment charged less than planned (capped at the balance); none otherwise. */
function cappedFields({ inst, amount }: InstallmentCharge): [string, unknown][] {
  if (amount >= toCents(inst.amount)) return [];
  return [
    ['amount', toDollars(amount)],
    ['originalAmount', inst.originalAmount ?? inst.amount],
  ];
}

/** The installments after installment `i` is settled: the rest fitted to what the order still owes then. */
function fitRestStmts(ctx: Ctx, { order, schedule, i, balance, amount }: InstallmentCharge, status: string): Stmt[] {
  const after = schedule.map((s, k) => (k === i ? { ...s, status } : s));
  return fitStmts(ctx, order, after, balance - amount);
}

/**
 * Records a paid installment in one batch: the schedule of every rental (and the rest of the plan fitted
 * to the balance left), `amountPaid` raised by each rental's share of the charge (in proportion to what
 * each still owes, so none is paid past its total), a card ledger entry per rental, and `payment.completed`.
 */
async function recordInstallmentPaid(ctx: Ctx, charge: InstallmentCharge, intent: PaymentIntent): Promise<void> {
  const { holder, i, nowIso, order, attempt, amount } = charge;
  const statements: Stmt[] = [];
  const parts = shareByWeight(
    amount,
    order.map((b) => Math.max(0, b.total - b.amountPaid)),
  );
  for (const { b, expr } of setScheduleFields(order, i, [
    ['status', 'paid'],
    ['paidAt', nowIso],
    ['paymentIntentId', intent.id],
    ['attempts', attempt],
    ['claimedAt', null],
    ...cappedFields(charge),
  ])) {
    const part = parts[order.indexOf(b)];
    statements.push(
      ctx.db
        .update(bookings)
        .set({ paymentPlan: expr, amountPaid: sql`${bookings.amountPaid} + ${part}` })
        .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
    );
    if (part)
      statements.push(
        ...insertLedger(ctx, [
          {
            ...paymentEntry(scopeOf(b), part, { source: 'card', reference: intent.id, description: `Installment ${i + 1}`, occurredAt: nowIso }),
            id: `led_inst_${b.id}_${i + 1}`,
          },
        ]),
      );
  }
  statements.push(...fitRestStmts(ctx, charge, 'paid'));
  await commit(ctx, statements, {
    audit: {
      action: 'booking.installment_charge',
      targetType: 'booking',
      targetId: holder.id,
      customerId: holder.customerId,
      details: { transactionId: holder.transactionId, installment: i + 1, amount: toDollars(amount), paymentIntentId: intent.id },
    },
    events: [
      {
        type: 'payment.completed',
        customerId: holder.customerId,
        data: {
          paymentIntentId: intent.id,
          amount: toDollars(amount),
          amountCents: amount,
          currency: holder.currency,
          transactionId: holder.transactionId,
          rentalIds: order.map((b) => b.id),
          renterId: holder.renterId,
          kind: 'installment',
          installment: i + 1,
        },
      },
    ],
  });
}

/**
 * Records a due installment with nothing left to pay (the balance was paid another way): `covered` with
 * amount 0 and its planned amount kept in `originalAmount`, no charge, on every rental of the order; the
 * rest of the plan is covered with it.
 */
async function recordInstallmentCovered(ctx: Ctx, charge: InstallmentCharge): Promise<void> {
  const { holder, i, inst, order, balance } = charge;
  const statements: Stmt[] = [];
  for (const { b, expr } of setScheduleFields(order, i, [
    ['status', 'covered'],
    ['amount', 0],
    ['originalAmount', inst.originalAmount ?? inst.amount],
    ['claimedAt', null],
    ['nextAttemptAt', null],
  ]))
    statements.push(
      ctx.db
        .update(bookings)
        .set({ paymentPlan: expr })
        .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
    );
  statements.push(...fitRestStmts(ctx, charge, 'covered'));
  await commit(ctx, statements, {
    audit: {
      action: 'booking.installment_covered',
      targetType: 'booking',
      targetId: holder.id,
      customerId: holder.customerId,
      details: { transactionId: holder.transactionId, installment: i + 1, plannedAmount: inst.originalAmount ?? inst.amount, balance: toDollars(balance) },
    },
  });
}

/**
 * Records a declined installment in one batch: `failed` with the next retry (1, 3 and 5 days after its
 * due date), or `overdue` after the last attempt, on every rental of the order, and the renter's e-mail.
 */
async function recordInstallmentDeclined(ctx: Ctx, charge: InstallmentCharge, failure: { code: string }): Promise<'declined' | 'overdue'> {
  const { holder, i, tz, order, inst, attempt } = charge;
  const statements: Stmt[] = [];
  const retryDays = RETRY_DAYS[attempt - 1];
  const nextAttemptAt = retryDays == null ? null : new Date(dueStart(addDays(inst.dueDate, retryDays), tz)).toISOString();
  const status = nextAttemptAt ? 'failed' : 'overdue';
  for (const { b, expr } of setScheduleFields(order, i, [
    ['status', status],
    ['attempts', attempt],
    ['lastError', failure.code],
    ['nextAttemptAt', nextAttemptAt],
    ['claimedAt', null],
    ...cappedFields(charge),
  ])) {
    statements.push(
      ctx.db
        .update(bookings)
        .set({ paymentPlan: expr })
        .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
    );
  }
  const email = declineEmailStmt(ctx, charge, nextAttemptAt);
  if (email) statements.push(email);
  await commit(ctx, statements, {
    audit: {
      action: 'booking.installment_declined',
      targetType: 'booking',
      targetId: holder.id,
      customerId: holder.customerId,
      details: { transactionId: holder.transactionId, installment: i + 1, attempt, code: failure.code, nextAttemptAt },
    },
  });
  return status === 'overdue' ? 'overdue' : 'declined';
}

/** The renter's e-mail about a declined installment (when the booking has an address): when it is retried, or to contact the operator. */
function declineEmailStmt(ctx: Ctx, { holder, i, tz, amount, attempt }: InstallmentCharge, nextAttemptAt: string | null): Stmt | null {
  const to = (holder.customerInfo as { email?: string; firstName?: string } | null) ?? {};
  if (!to.email) return null;
  return emailStmt(ctx, {
    customerId: holder.customerId,
    to: to.email,
    subject: `Installment ${i + 1} of your booking ${holder.transactionId} could not be charged`,
    body: `Hello ${to.firstName ?? ''},\n\nWe could not charge installment ${i + 1} (${toDollars(amount).toFixed(2)} ${holder.currency.toUpperCase()}) of your booking ${holder.transactionId}.${
      nextAttemptAt ? ` We will try again on ${formatLocalDay(Date.parse(nextAttemptAt), tz)}.` : ' Please contact us to pay it.'
    }`,
    template: 'booking.installment_failed',
    metadata: { transactionId: holder.transactionId, installment: i + 1, attempt },
  }).stmt;
}
