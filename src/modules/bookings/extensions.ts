/**
 * The booking sale's side of lib/sale-extensions.ts: runs the discounts and payment sources the
 * modules declared (promo codes, gift cards, membership benefits and credits) at the sale's fixed
 * points, without this module importing any of them. The extensions come with the context's hooks
 * (`ctx.hooks.sale`); an order asking for something no extension serves (a context without hooks)
 * is refused rather than sold without it.
 */
import type { DB, Stmt } from '../../db/client';
import type { Ctx } from '../../lib/context';
import type { SaleDiscount, SaleExtension, SaleFacts, SalePayment, SaleScope, SaleWritten } from '../../lib/sale-extensions';
import { bad } from './errors';
import { shares } from './payment-plan';

/** An extension taking part in one sale, with what it found (read or resolved). */
export interface InSale {
  ext: SaleExtension;
  found: unknown;
  payment: SalePayment | null;
}

const ASKS: { key: keyof SaleFacts['asks']; field: string }[] = [
  { key: 'promoCode', field: 'discountDetails.promoCode' },
  { key: 'giftCard', field: 'giftCard' },
  { key: 'membershipCredits', field: 'membershipCredits' },
  { key: 'accountCredit', field: 'accountCredit' },
];

/** The extensions this sale needs (each said it is wanted); an ask none of them serves is 400. */
export function extensionsFor(ctx: Ctx, facts: SaleFacts): InSale[] {
  const list = (ctx.hooks.sale ?? []).filter((ext) => ext.wanted(facts)).map((ext): InSale => ({ ext, found: null, payment: null }));
  for (const a of ASKS) {
    if (facts.asks[a.key] === undefined) continue;
    if (!list.some((x) => x.ext.wanted({ ...facts, asks: { [a.key]: facts.asks[a.key] } })))
      throw bad(`${a.field} is not available on this sales path`, a.field);
  }
  return list;
}

/** The extensions' statements for the sale's first batch, and how to take their rows back. */
export function extensionReads(db: DB, facts: SaleFacts, list: InSale[]): { statements: Stmt[]; take(rows: unknown[][]): void } {
  const reads = list.map((x) => ({ x, r: x.ext.read?.(db, facts) ?? null })).filter((e) => e.r);
  return {
    statements: reads.map((e) => e.r!.stmt),
    take(rows) {
      reads.forEach((e, i) => (e.x.found = e.r!.parse(rows[i])));
    },
  };
}

/** What the extensions need once the items are known (in parallel: one round trip when any reads). */
export async function resolveExtensions(ctx: Ctx, scope: SaleScope, list: InSale[]): Promise<void> {
  await Promise.all(
    list.map(async (x) => {
      if (x.ext.resolve) x.found = await x.ext.resolve(ctx, scope, x.found as never);
    }),
  );
}

/** The extensions' order discounts of one stage, in module-list order. */
export function extensionDiscounts(scope: SaleScope, list: InSale[], stage: 'code' | 'benefit'): SaleDiscount[] {
  return list
    .filter((x) => x.ext.discount && (x.ext.discountStage ?? 'code') === stage)
    .map((x) => x.ext.discount!(scope, x.found as never))
    .filter((d): d is SaleDiscount => !!d);
}

/** Each payment source pays what it can of what is still due, in `payOrder`; answers the total they pay. */
export function extensionPayments(scope: SaleScope, list: InSale[], due: number): number {
  let left = due;
  const payers = list.filter((x) => x.ext.pay).sort((a, b) => (a.ext.payOrder ?? 0) - (b.ext.payOrder ?? 0));
  for (const x of payers) {
    x.payment = x.ext.pay!(scope, x.found as never, left);
    if (x.payment) left -= x.payment.amount;
  }
  return due - left;
}

/** Per rental, the part of each payment source (by value), in the order of `list`'s payers. */
export function paymentSplits(list: InSale[], totals: number[]): { payment: SalePayment; perRental: number[] }[] {
  return list.filter((x) => x.payment && x.payment.amount > 0).map((x) => ({ payment: x.payment!, perRental: shares(x.payment!.amount, totals) }));
}

/** The extensions' statements of the booking's one write batch. */
export function extensionWrites(ctx: Ctx, list: InSale[], sale: Omit<SaleWritten, 'paidPerRental'>): Stmt[] {
  return list.flatMap((x) => {
    if (!x.ext.writes) return [];
    const paidPerRental = x.payment && x.payment.amount > 0 ? shares(x.payment.amount, sale.totals) : [];
    return x.ext.writes(ctx, x.found as never, { ...sale, paidPerRental }, x.payment);
  });
}

/** The API error an extension gives a failure it caused (undefined: none claims it). */
export function extensionFailure(err: unknown, facts: SaleFacts, list: InSale[]): unknown {
  for (const x of list) {
    const mapped = x.ext.failure?.(err, facts);
    if (mapped !== undefined) return mapped;
  }
  return undefined;
}
