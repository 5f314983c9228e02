import type { z } from '@hono/zod-openapi';
import { posFolders, posItems, posRefunds, posSettlements, posStock, posTransactions, posVariants } from '../../db/schema/pos';
import { shareByWeight, toDollars } from '../../lib/money';
import { moneyOut, type Money } from '../../lib/money-view';
import { unitPriceDollars } from './pricing';
import type * as s from './schemas';

export type ItemRow = typeof posItems.$inferSelect;
export type VariantRow = typeof posVariants.$inferSelect;
export type StockRow = typeof posStock.$inferSelect;
export type FolderRow = typeof posFolders.$inferSelect;
export type TransactionRow = typeof posTransactions.$inferSelect;
export type RefundRow = typeof posRefunds.$inferSelect;
export type SettlementRow = typeof posSettlements.$inferSelect;

export function itemOut(i: ItemRow, variants: VariantRow[], stock: StockRow[], folderIds: string[]): z.output<typeof s.PosItem> {
  return {
    itemId: i.id,
    locationId: i.locationId,
    name: i.name,
    category: i.category,
    taxRate: i.taxRate,
    image: i.image,
    tags: i.tags ?? [],
    allowNegativeStock: i.allowNegativeStock,
    folderIds,
    variants: variants.map((v) => {
      const rows = stock.filter((st) => st.variantId === v.id);
      return {
        variantId: v.id,
        name: v.name,
        price: unitPriceDollars(v.price),
        sku: v.sku,
        unit: v.unit,
        quantity: rows.find((st) => st.tillId === '')?.quantity ?? 0,
        tills: rows.filter((st) => st.tillId !== '').map((st) => ({ tillId: st.tillId, quantity: st.quantity })),
      };
    }),
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export function folderOut(f: FolderRow, itemIds: string[]): z.output<typeof s.Folder> {
  return { folderId: f.id, locationId: f.locationId, tillId: f.tillId, name: f.name, color: f.color, favorite: f.favorite, position: f.position, itemIds };
}

/** A priced line as stored on the transaction (cents) and shown (dollars). */
export interface StoredLine {
  itemId: string;
  variantId: string;
  name: string;
  quantity: number;
  unitPrice: number;
  subtotal: number;
  discount: number;
  taxRate: number;
  tax: number;
  total: number;
  stockId: string;
}

/** A gift card sold or reloaded on the sale (cents): a liability line, no discount, no tax, no stock. */
export interface StoredGiftCardLine {
  kind: 'gift_card';
  action: 'issue' | 'reload';
  promoCodeId: string;
  code: string;
  name: string;
  quantity: 1;
  unitPrice: number;
  subtotal: number;
  discount: 0;
  taxRate: 0;
  tax: 0;
  total: number;
}

export type SaleLine = StoredLine | StoredGiftCardLine;
export const isGiftCardLine = (l: unknown): l is StoredGiftCardLine => (l as { kind?: string } | null)?.kind === 'gift_card';
/** The product lines of a transaction (its gift-card lines left out). */
export const productLines = (t: TransactionRow): StoredLine[] => ((t.lines ?? []) as unknown[]).filter((l) => !isGiftCardLine(l)) as StoredLine[];
/** The gift-card lines of a transaction. */
export const giftCardLines = (t: TransactionRow): StoredGiftCardLine[] => ((t.lines ?? []) as unknown[]).filter(isGiftCardLine);

/** The tax of a line, as the percentage of its discounted subtotal (2 decimals); 0 on a line of nothing. */
const rateOf = (tax: number, base: number) => (base > 0 ? Math.round((tax * 10_000) / base) / 100 : 0);

/**
 * The lines of a transaction, every field answered. A line stored in full (every sale of POST
 * /pos/transaction) is shown as stored; a line stored with fewer fields (sales imported or seeded as a
 * name, quantity and subtotal) is completed from the transaction: no catalog product (`itemId` and
 * `variantId` null), no discount, the transaction's tax not carried by other lines shared by subtotal,
 * the rate that tax makes, and the total they add up to.
 */
function linesOut(t: TransactionRow): z.output<typeof s.TransactionLineOut>[] {
  const lines = (t.lines ?? []) as unknown as Partial<StoredLine & Omit<StoredGiftCardLine, keyof StoredLine>>[];
  const base = (l: Partial<StoredLine>) => Math.max(0, (l.subtotal ?? 0) - (l.discount ?? 0));
  const untaxed = lines.filter((l) => l.tax == null);
  const carried = lines.reduce((sum, l) => sum + (l.tax ?? 0), 0);
  const taxShares = shareByWeight(Math.max(0, t.taxTotal - carried), untaxed.map(base));
  return lines.map((l) => {
    const quantity = l.quantity ?? 1;
    const subtotal = l.subtotal ?? 0;
    const discount = l.discount ?? 0;
    const tax = l.tax ?? taxShares[untaxed.indexOf(l)];
    return {
      itemId: l.itemId ?? null,
      variantId: l.variantId ?? null,
      name: l.name ?? 'Sale',
      quantity,
      unitPrice: unitPriceDollars(l.unitPrice ?? Math.round((subtotal * 10) / Math.max(1, quantity)) / 10),
      subtotal: toDollars(subtotal),
      discount: toDollars(discount),
      taxRate: l.taxRate ?? rateOf(tax, base(l)),
      tax: toDollars(tax),
      total: toDollars(l.total ?? subtotal - discount + tax),
      giftCard: isGiftCardLine(l) ? { code: l.code, action: l.action } : null,
    };
  });
}

/** A transaction as the API shows it; `money` is its money view from the ledger (queries.ts `moneyOfTransactions`; null for a drawer movement). */
export function transactionOut(t: TransactionRow, money: Money | null): z.output<typeof s.TransactionOut> {
  return {
    transactionId: t.id,
    locationId: t.locationId,
    tillId: t.tillId,
    userId: t.userId,
    kind: t.kind,
    paymentType: t.paymentType,
    accountId: t.accountId,
    rentalId: t.rentalId,
    settleBooking: t.settleBooking,
    currency: t.currency,
    items: linesOut(t),
    subtotal: toDollars(t.subtotal),
    discountTotal: toDollars(t.discountTotal),
    taxTotal: toDollars(t.taxTotal),
    total: toDollars(t.total),
    refundedAmount: toDollars(t.refundedAmount),
    refundableAmount: toDollars(t.kind === 'sale' && !t.settled ? t.total - t.refundedAmount : 0),
    discountPercentage: t.discountPercentage,
    discountAmount: t.discountAmount === null ? null : toDollars(t.discountAmount),
    paymentIntentId: t.paymentIntentId,
    note: t.note,
    settled: t.settled,
    settledAt: t.settledAt,
    settlementId: t.settlementId,
    money: money ? moneyOut(money, t.currency) : null,
    createdAt: t.createdAt,
  };
}

export function zReportOut(r: SettlementRow): z.output<typeof s.ZReport> {
  const d = (v: number | null) => (v === null ? null : toDollars(v));
  return {
    settlementId: r.id,
    zReportNumber: r.number,
    locationId: r.locationId,
    drawerId: r.drawerId || null,
    startDate: r.rangeStart,
    endDate: r.rangeEnd,
    currency: r.currency,
    openingFloat: toDollars(r.openingFloat),
    cashSales: toDollars(r.cashSales),
    paidIn: toDollars(r.paidIn),
    paidOut: toDollars(r.paidOut),
    cashRefunds: toDollars(r.cashRefunds),
    expectedCash: toDollars(r.expectedCash),
    countedCash: d(r.countedCash),
    difference: d(r.difference),
    clientExpectedCash: d(r.clientExpectedCash),
    clientDifference: d(r.clientDifference),
    cashBreakdown: r.cashBreakdown ?? null,
    totals: r.totals,
    transactionCount: r.transactionCount,
    createdAt: r.createdAt,
  };
}
