import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { moneyView, type Money } from '../../lib/money-view';
import { notFound } from '../../lib/errors';
import { posFolderItems, posItems, posStock, posTransactions, posVariants } from '../../db/schema/pos';
import { getLocationInTenant } from '../locations/service';
import { ledgerOfSales } from '../bookings/service';
import type { ItemRow, TransactionRow } from './views';
import { itemOut, transactionOut } from './views';

export const locationOf = (ctx: Ctx, locationId: string) => getLocationInTenant(ctx, locationId);

/** A product of the location (deleted ones answer 404, as do another operator's). */
export async function itemInLocation(ctx: Ctx, customerId: string, locationId: string, itemId: string): Promise<ItemRow> {
  const row = await ctx.db
    .select()
    .from(posItems)
    .where(and(eq(posItems.id, itemId), eq(posItems.customerId, customerId), eq(posItems.locationId, locationId), isNull(posItems.deletedAt)))
    .get();
  if (!row) throw notFound('POS item');
  return row;
}

/** Products with their variants, stock and folders, as the API shows them. */
export async function itemsOut(ctx: Ctx, items: ItemRow[]) {
  if (!items.length) return [];
  const ids = items.map((i) => i.id);
  const [variants, stock, links] = await Promise.all([
    ctx.db
      .select()
      .from(posVariants)
      .where(and(inArray(posVariants.itemId, ids), isNull(posVariants.deletedAt)))
      .orderBy(asc(posVariants.position))
      .all(),
    ctx.db.select().from(posStock).where(inArray(posStock.itemId, ids)).all(),
    ctx.db.select().from(posFolderItems).where(inArray(posFolderItems.itemId, ids)).all(),
  ]);
  return items.map((i) =>
    itemOut(
      i,
      variants.filter((v) => v.itemId === i.id),
      stock.filter((s) => s.itemId === i.id),
      links.filter((l) => l.itemId === i.id).map((l) => l.folderId),
    ),
  );
}

export async function transactionInTenant(ctx: Ctx, customerId: string, transactionId: string): Promise<TransactionRow> {
  const row = await ctx.db
    .select()
    .from(posTransactions)
    .where(and(eq(posTransactions.id, transactionId), eq(posTransactions.customerId, customerId)))
    .get();
  if (!row) throw notFound('POS transaction');
  return row;
}

/**
 * The money of some transactions, from the ledger (lib/money-view.ts): a sale's own entries (its
 * lines, discount, tax, payment, and each refund's reversals and money back). A sale that paid a
 * booking's balance books nothing of its own: its payment sits on the booking's ledger, and the
 * balance it settled is its one line. Drawer movements are no sale: null.
 */
export async function moneyOfTransactions(ctx: Ctx, customerId: string, rows: TransactionRow[]): Promise<Map<string, Money | null>> {
  const sales = rows.filter((t) => t.kind === 'sale');
  const settling = sales.filter((t) => t.settleBooking && t.rentalId);
  const [own, booked] = await Promise.all([
    ledgerOfSales(
      ctx,
      customerId,
      'transaction',
      sales.filter((t) => !settling.includes(t)).map((t) => t.id),
    ),
    ledgerOfSales(
      ctx,
      customerId,
      'rental',
      settling.map((t) => t.rentalId!),
    ),
  ]);
  const out = new Map<string, Money | null>(rows.map((t) => [t.id, null]));
  for (const t of sales) {
    if (!settling.includes(t)) {
      out.set(t.id, moneyView(own.get(t.id) ?? []));
      continue;
    }
    const paid = (booked.get(t.rentalId!) ?? []).filter(
      (e) => e.entryType === 'payment' && (e.metadata as { posTransactionId?: string } | null)?.posTransactionId === t.id,
    );
    const settled = -paid.reduce((s, e) => s + e.amount, 0);
    out.set(
      t.id,
      moneyView(paid, { unposted: settled ? [{ description: `Balance of booking ${t.rentalId}`, type: 'booking_balance', amount: settled }] : [] }),
    );
  }
  return out;
}

/** Transactions as the API shows them, each with its money. */
export async function transactionsOut(ctx: Ctx, customerId: string, rows: TransactionRow[]) {
  const money = await moneyOfTransactions(ctx, customerId, rows);
  return rows.map((t) => transactionOut(t, money.get(t.id) ?? null));
}

export async function transactionView(ctx: Ctx, customerId: string, t: TransactionRow) {
  return (await transactionsOut(ctx, customerId, [t]))[0];
}
