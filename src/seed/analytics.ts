import { eq } from 'drizzle-orm';
import { MIAMI_TZ, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Stmt } from '../db/client';
import { bulkInsert } from '../db/bulk';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { newId } from '../lib/ids';
import { addDays, wallTimeToUtc, weekdayOf } from '../lib/time';
import { bookings, ledgerEntries } from '../db/schema/bookings';
import { posTransactions } from '../db/schema/pos';
import { widgetEvents } from '../db/schema/widget';
import { assetIds, inventoryIds } from './inventory';
import { setRevenueTarget } from '../modules/analytics/service';
import { addPaymentMethod, updateCustomer } from '../modules/customers/service';

const TZ = MIAMI_TZ;

/** A small deterministic generator, so every sandbox shows the same history. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Renters a day in Miami by weekday: the weekly pattern the forecast learns. */
const DEMAND: Record<string, number> = { Monday: 2, Tuesday: 1, Wednesday: 1, Thursday: 2, Friday: 3, Saturday: 5, Sunday: 4 };
const itemsOf = (op: DemoOperator) => {
  const inv = inventoryIds(op);
  const assets = assetIds(op);
  return [
    { id: inv.pontoon, assets: assets.pontoon, price: 45000, hours: 4 },
    { id: inv.centerConsole, assets: assets.centerConsole, price: 60000, hours: 4 },
  ];
};

type LedgerDraft = Omit<typeof ledgerEntries.$inferInsert, 'id' | 'customerId' | 'locationId' | 'currency' | 'affectsBalance'>;

/** The `s`-th counter sale of a day (ice, fuel, sunscreen, paid cash): its point-of-sale row and ledger entries. */
function counterSale(D: DemoOperator, date: string, s: number) {
  const at = new Date(wallTimeToUtc(date, `${String(10 + s * 2).padStart(2, '0')}:15`, TZ)).toISOString();
  const subtotal = [799, 2450, 1250][s % 3];
  const tax = Math.round(subtotal * 0.07);
  const id = newId('ptx');
  const row: typeof posTransactions.$inferInsert = {
    id,
    customerId: D.customerId,
    locationId: D.miamiId,
    userId: D.adminId,
    kind: 'sale',
    paymentType: 'cash',
    lines: [{ name: ['Ice bag', 'Marine fuel', 'Sunscreen'][s % 3], quantity: 1, subtotal }],
    subtotal,
    taxTotal: tax,
    total: subtotal + tax,
    createdAt: at,
  };
  const entries: LedgerDraft[] = [];
  entries.push({ transactionId: id, entryType: 'revenue', amount: subtotal, occurredAt: at, description: 'POS sale', source: 'pos', reference: id });
  entries.push({ transactionId: id, entryType: 'tax', amount: tax, occurredAt: at, description: 'POS tax', source: 'pos', reference: id });
  entries.push({
    transactionId: id,
    entryType: 'payment',
    amount: -(subtotal + tax),
    occurredAt: at,
    description: 'POS payment (cash)',
    source: 'cash',
    reference: id,
  });
  return { row, entries };
}

/** Booking-widget visits of the last 30 days: views, dates, times, checkouts and bookings, from the marina's site and a partner blog. */
function widgetVisits(D: DemoOperator, today: string, rand: () => number): (typeof widgetEvents.$inferInsert)[] {
  const ITEMS = itemsOf(D);
  const views: (typeof widgetEvents.$inferInsert)[] = [];
  for (let back = 30; back >= 1; back--) {
    const date = addDays(today, -back);
    for (let v = 0, visits = 6 + Math.floor(rand() * 10); v < visits; v++) {
      const sessionId = demoId(D, 'visit', `${back}_${v}`);
      const item = ITEMS[v % ITEMS.length].id;
      const fromBlog = rand() < 0.25;
      const base = wallTimeToUtc(date, `${String(8 + Math.floor(rand() * 12)).padStart(2, '0')}:${String(Math.floor(rand() * 60)).padStart(2, '0')}`, TZ);
      const steps = ['view', 'date_chosen', 'slot_chosen', 'checkout', 'booked'] as const;
      const reached = 1 + Math.floor(rand() ** 1.6 * steps.length);
      for (let s = 0; s < reached; s++)
        views.push({
          id: newId('wev'),
          customerId: D.customerId,
          locationId: D.miamiId,
          inventoryId: item,
          sessionId,
          event: steps[s],
          ref: fromBlog ? 'BOATBLOG' : null,
          source: fromBlog ? 'blog.boating-miami.example' : 'www.demo-marina.example.com',
          createdAt: new Date(base + s * 90_000).toISOString(),
        });
    }
  }
  return views;
}

/**
 * History for the analytics of the operator's Miami location (the booking commit refuses past
 * times, so this step writes the rows the commit would have written): 16 weeks of completed rentals
 * up to yesterday (Miami's calendar from the clock, so every row is in the past at any hour) with
 * their ledger entries (revenue, 7% tax, payment) following a weekly pattern, the same weeks of
 * the year before (for year over year), counter sales, 30 days of booking-widget visits (funnel,
 * sources, an affiliate), this year's revenue target, and the business audit
 * enabled with the test card on file. The completed rentals are left unrealized, so
 * `realize-completed-bookings` has work to show.
 */
async function seedAnalytics(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const MARK = demoId(D, 'bk', 'hist_0000');
  const ITEMS = itemsOf(D);
  if (await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, MARK)).get()) return false;
  const rand = rng(20260101);
  const today = todayIn(ctx, TZ);
  const rows = { bookings: [] as (typeof bookings.$inferInsert)[], ledger: [] as (typeof ledgerEntries.$inferInsert)[] };
  const counter: (typeof posTransactions.$inferInsert)[] = [];
  let n = 0;
  const ledger = (e: LedgerDraft) =>
    rows.ledger.push({ id: newId('led'), customerId: D.customerId, locationId: D.miamiId, currency: 'usd', affectsBalance: true, ...e });

  const rental = (date: string, yearsBack: number) => {
    const item = ITEMS[Math.floor(rand() * ITEMS.length)];
    const hour = 9 + Math.floor(rand() * 6);
    const start = wallTimeToUtc(date, `${String(hour).padStart(2, '0')}:00`, TZ);
    const end = start + item.hours * 3_600_000;
    const id = demoId(D, 'bk', `hist_${String(n).padStart(4, '0')}`);
    n++;
    const price = Math.round(item.price * (yearsBack ? 0.85 : 1));
    const tax = Math.round(price * 0.07);
    const people = 2 + Math.floor(rand() * 5);
    const txn = demoId(D, 'txn', `hist_${id.slice(-4)}`);
    const at = new Date(start).toISOString();
    rows.bookings.push({
      id,
      customerId: D.customerId,
      transactionId: txn,
      locationId: D.miamiId,
      itemId: item.id,
      status: 'completed',
      source: rand() < 0.4 ? 'widget' : 'operator',
      start,
      end,
      localDate: date,
      quantity: 1,
      participants: people,
      assetIds: [item.assets[Math.floor(rand() * item.assets.length)]],
      subtotal: price,
      taxTotal: tax,
      total: price + tax,
      amountPaid: price + tax,
      customerInfo: { firstName: 'Past', lastName: `Renter ${n}`, email: `past-renter-${n}@renter.test` },
      checkedInAt: at,
      checkedOutAt: new Date(end).toISOString(),
    });
    const scope = { rentalId: id, transactionId: txn, itemId: item.id, occurredAt: at, source: 'operator' };
    ledger({ ...scope, entryType: 'revenue', amount: price, description: 'Rental' });
    ledger({ ...scope, entryType: 'tax', amount: tax, description: 'Sales tax (7%)' });
    ledger({ ...scope, entryType: 'payment', amount: -(price + tax), description: 'Payment', source: 'card', occurredAt: at });
    return people;
  };

  for (let back = 112; back >= 1; back--) {
    const date = addDays(today, -back);
    let renters = 0;
    const want = DEMAND[weekdayOf(date)] * 3;
    while (renters < want) renters += rental(date, 0);
    // The same day a year before, a little quieter.
    if (rand() < 0.7) rental(addDays(date, -364), 1);
    // Counter sales: ice, fuel, sunscreen.
    for (let s = 0, sales = 1 + Math.floor(rand() * 3); s < sales; s++) {
      const sale = counterSale(D, date, s);
      counter.push(sale.row);
      for (const e of sale.entries) ledger(e);
    }
  }

  const views = widgetVisits(D, today, rand);
  const stmts = [
    ...bulkInsert(db, bookings, rows.bookings),
    ...bulkInsert(db, ledgerEntries, rows.ledger),
    ...bulkInsert(db, posTransactions, counter),
    ...bulkInsert(db, widgetEvents, views),
  ];
  await db.batch(stmts as [Stmt, ...Stmt[]]);

  await setRevenueTarget(ctx, { locationId: D.miamiId, revenueTarget: 250_000 });
  await updateCustomer(ctx, { integrations: { businessAudit: { enabled: true } } });
  await addPaymentMethod(ctx, 'pm_card_visa');
  return true;
}

export const analyticsSeed: OperatorSeedStep = { name: 'analytics', run: seedAnalytics };
