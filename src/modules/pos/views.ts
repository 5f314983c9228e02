import type { z } from '@hono/zod-openapi';
import { posFolders, posItems, posRefunds, posSettlements, posStock, posTransactions, posVariants } from '../../db/schema/pos';
import { toDollars } from '../../lib/money';
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
        price: toDollars(v.price),
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

export function transactionOut(t: TransactionRow): z.output<typeof s.TransactionOut> {
  const lines = (t.lines ?? []) as unknown as StoredLine[];
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
    items: lines.map((l) => ({
      itemId: l.itemId,
      variantId: l.variantId,
      name: l.name,
      quantity: l.quantity,
      unitPrice: toDollars(l.unitPrice),
      subtotal: toDollars(l.subtotal),
      discount: toDollars(l.discount),
      taxRate: l.taxRate,
      tax: toDollars(l.tax),
      total: toDollars(l.total),
    })),
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
