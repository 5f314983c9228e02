/**
 * Factories for the analytics tests: ledger entries and bookings written straight into D1 (so a
 * test controls every instant and cent), and locations in chosen time zones.
 */
import { db, type Operator } from '../../harness';
import { newId } from '../../../src/lib/ids';
import { sql } from 'drizzle-orm';
import { localDate, wallTimeToUtc } from '../../../src/lib/time';
import { bookings, ledgerEntries } from '../../../src/db/schema/bookings';
import { locations } from '../../../src/db/schema/locations';

export const k = (op: Operator) => ({ key: op.adminKey });

/** A new location of the operator in a zone. */
export async function locationIn(op: Operator, timezone: string, currency = 'usd'): Promise<string> {
  const id = newId('loc');
  await db()
    .insert(locations)
    .values({ id, customerId: op.customerId, name: `Dock ${timezone}`, address: '1 Quay', phoneNumber: '+15555550100', timezone, currency });
  return id;
}

export interface EntryInput {
  /** null: an account-level entry (a membership invoice's). */
  locationId: string | null;
  type: string;
  amount: number;
  at: string;
  rentalId?: string | null;
  itemId?: string | null;
  assetId?: string | null;
  source?: string;
  metadata?: Record<string, unknown>;
  description?: string;
  /** A memo entry (deposit holds, platform fees): affects no balance. */
  memo?: boolean;
}

/** Ledger entries as the writing modules make them (signed cents). */
export async function entries(op: Operator, list: EntryInput[]) {
  const d = db();
  const rows = list.map((e) => ({
    id: newId('led'),
    customerId: op.customerId,
    locationId: e.locationId,
    transactionId: e.rentalId ? `txn_${e.rentalId}` : newId('ptx'),
    rentalId: e.rentalId ?? null,
    itemId: e.itemId ?? null,
    assetId: e.assetId ?? null,
    entryType: e.type,
    amount: e.amount,
    occurredAt: e.at,
    source: e.source ?? (e.rentalId ? 'operator' : 'pos'),
    metadata: e.metadata ?? null,
    description: e.description ?? null,
    affectsBalance: !e.memo,
  }));
  for (let i = 0; i < rows.length; i += 50) await d.batch(rows.slice(i, i + 50).map((r) => d.insert(ledgerEntries).values(r)) as any);
  return rows;
}

/** A booking row starting at a local wall time (not through the booking commit: history for the forecast and the counts). */
export async function bookingRow(
  op: Operator,
  o: {
    locationId: string;
    date: string;
    time?: string;
    tz: string;
    status?: string;
    participants?: number;
    quantity?: number;
    itemId?: string;
    testMode?: boolean;
  },
) {
  const start = wallTimeToUtc(o.date, o.time ?? '10:00', o.tz);
  const id = newId('bk');
  return {
    id,
    stmt: db()
      .insert(bookings)
      .values({
        id,
        customerId: op.customerId,
        transactionId: newId('txn'),
        locationId: o.locationId,
        itemId: o.itemId ?? 'inv_history',
        status: o.status ?? 'completed',
        start,
        end: start + 3_600_000,
        localDate: o.date,
        quantity: o.quantity ?? 1,
        participants: o.participants ?? null,
        testMode: o.testMode ?? false,
      }),
  };
}

export async function insertAll(stmts: any[]) {
  const d = db();
  for (let i = 0; i < stmts.length; i += 50) await d.batch(stmts.slice(i, i + 50) as any);
}

/** The entry types revenue sums (issue 31): sales, discounts, fees kept, premiums, deposit captures. */
const REVENUE_TYPES = new Set([
  'revenue',
  'discount',
  'refund_adjustment',
  'goodwill',
  'cancellation_fee',
  'protection_plan',
  'coverage_premium',
  'deposit_capture',
]);

export interface LedgerRevenue {
  revenueCents: number;
  bookingRevenueCents: number;
  posRevenueCents: number;
  slipRevenueCents: number;
  otherRevenueCents: number;
}

/**
 * The oracle of the reports: a location's revenue of one local month (`YYYY-MM`), read entry by entry
 * from the raw ledger: the revenue entries dated in the month (cancellations and point-of-sale refunds
 * are on it as reversals of their sales' entries).
 */
export async function ledgerRevenue(o: { customerId: string; locationId: string; timezone: string; month: string }): Promise<LedgerRevenue> {
  const rows = await db().all<{ type: string; amount: number; at: string; rental: string | null; source: string | null }>(
    sql`SELECT l.entry_type AS type, l.amount, l.occurred_at AS at, l.rental_id AS rental, l.source
    FROM ledger_entries l
    WHERE l.customer_id = ${o.customerId} AND l.location_id = ${o.locationId} AND l.deleted_at IS NULL`,
  );
  const out: LedgerRevenue = { revenueCents: 0, bookingRevenueCents: 0, posRevenueCents: 0, slipRevenueCents: 0, otherRevenueCents: 0 };
  for (const r of rows) {
    if (localDate(Date.parse(r.at), o.timezone).slice(0, 7) !== o.month || !REVENUE_TYPES.has(r.type)) continue;
    const kind = r.rental ? 'booking' : r.source === 'pos' ? 'pos' : r.source === 'slip' ? 'slip' : 'other';
    out.revenueCents += r.amount;
    out[`${kind}RevenueCents` as keyof LedgerRevenue] += r.amount;
  }
  return out;
}
