/**
 * The ledger of sales, read for the one money view (lib/money-view.ts). The ledger belongs to this
 * module; the sales other modules keep on it (slip stays, point-of-sale transactions, membership
 * invoices: their id is the entries' `transactionId`) read their entries here, and a booking reads
 * its rental's entries and its security deposits.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { moneyOut, moneyView, type Money, type MoneyViewOut, type UnpostedLine } from '../../lib/money-view';
import { deposits, ledgerEntries } from '../../db/schema/bookings';
import type { LedgerRow } from './ledger';

/** Ids per IN list (D1 binds at most 100 parameters per statement). */
const CHUNK = 90;

const chunks = (ids: string[]) => Array.from({ length: Math.ceil(ids.length / CHUNK) }, (_, i) => ids.slice(i * CHUNK, (i + 1) * CHUNK));

/** How a sale's entries are found: by rental (a booking) or by transaction (a slip stay, a POS transaction, a membership invoice). */
export type SaleKey = 'rental' | 'transaction';

/**
 * The ledger entries of some sales of an operator, in the order they were written (rowid: a batch's
 * rows share one instant), by sale id (every id has a list, maybe empty).
 */
export async function ledgerOfSales(ctx: Ctx, customerId: string, by: SaleKey, ids: string[]): Promise<Map<string, LedgerRow[]>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, LedgerRow[]>(unique.map((id) => [id, []]));
  if (!unique.length) return out;
  const col = by === 'rental' ? ledgerEntries.rentalId : ledgerEntries.transactionId;
  const read = (part: string[]): Promise<LedgerRow[]> =>
    ctx.db
      .select()
      .from(ledgerEntries)
      .where(and(inArray(col, part), eq(ledgerEntries.customerId, customerId)) as SQL)
      .orderBy(sql.raw('ledger_entries.rowid'))
      .all();
  const rows = (await Promise.all(chunks(unique).map(read))).flat();
  for (const r of rows) out.get((by === 'rental' ? r.rentalId : r.transactionId)!)?.push(r);
  return out;
}

/** The money of some sales kept on the ledger by transaction id; `unposted` gives the charges of a sale not posted on its ledger yet (a quote). */
export async function moneyOfSales(
  ctx: Ctx,
  customerId: string,
  ids: string[],
  unposted: (id: string) => UnpostedLine[] | undefined = () => undefined,
): Promise<Map<string, Money>> {
  const ledger = await ledgerOfSales(ctx, customerId, 'transaction', ids);
  return new Map([...ledger].map(([id, entries]) => [id, moneyView(entries, { unposted: unposted(id) })]));
}

/** The money of some bookings: each rental's entries and security deposits. */
export async function moneyOfRentals(ctx: Ctx, customerId: string, rentalIds: string[]): Promise<Map<string, Money>> {
  const readHolds = (part: string[]) =>
    ctx.db
      .select({ rentalId: deposits.rentalId, status: deposits.status })
      .from(deposits)
      .where(and(eq(deposits.customerId, customerId), inArray(deposits.rentalId, part)))
      .all();
  const [ledger, holds] = await Promise.all([
    ledgerOfSales(ctx, customerId, 'rental', rentalIds),
    Promise.all(chunks([...new Set(rentalIds)]).map(readHolds)).then((parts) => parts.flat()),
  ]);
  return new Map([...ledger].map(([id, entries]) => [id, moneyView(entries, { deposits: holds.filter((d) => d.rentalId === id) })]));
}

type BookingAnswer = { rentalId: string; customerId: string; currency: string; rentals?: { rentalId: string; currency: string }[] };

/**
 * A bookings route's answer with the money view of its rental (and of each rental of the order a
 * create answers), read from the ledger once the change is written: the router adds it to every
 * booking it answers, so reads and writes answer the same fields.
 */
export async function withMoney<T extends BookingAnswer>(ctx: Ctx, v: T): Promise<T & { money: MoneyViewOut }> {
  const money = await moneyOfRentals(ctx, v.customerId, [v.rentalId, ...(v.rentals ?? []).map((r) => r.rentalId)]);
  const out = (id: string, currency: string) => moneyOut(money.get(id)!, currency);
  return {
    ...v,
    money: out(v.rentalId, v.currency),
    ...(v.rentals ? { rentals: v.rentals.map((r) => ({ ...r, money: out(r.rentalId, r.currency) })) } : {}),
  };
}
