/**
 * Gift cards sold and reloaded at the counter (a point-of-sale transaction's gift-card lines), with
 * the rules of the cards bought online: a code of at least 6 characters, unique per operator (409
 * `already_exists`), generated when none is given; a value above zero and at most 1,000,000 with two
 * decimals; an expiry in the future; the card in the sale's currency; the gift e-mail to the recipient.
 *
 * The point of sale plans the lines before it takes the money (`planCounterGiftCards`: every refusal
 * comes before a charge), then writes `counterGiftCardStmts` in the sale's own batch: the new card or
 * the reload (one `balance + x`), its `purchase` entry on the card's balance ledger, and the e-mail.
 * A refund of the line takes the value back off the card with one `balance - x` whose CHECK refuses to
 * go below zero (`takeGiftCardValue`), so what was already spent can never be refunded, even by
 * refunds racing redemptions; `giveGiftCardValueBack` undoes it when the money could not be returned.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { giftCardEntries, promoCodes } from '../../db/schema/promo-codes';
import { parseDiscount, expiryOf } from './codes';
import { requireCurrency } from './currency';
import { generateCode, giftCardEmailStmt, operatorOf } from './purchase';
import { codeKey, findCode } from './queries';
import { notUsable } from './use';
import { isExpired, type PromoRow } from './views';

/** A gift-card line as the counter asks for it (dollars). */
export interface CounterGiftCardInput {
  action: 'issue' | 'reload';
  code?: string;
  amount: number;
  recipientName?: string;
  recipientEmail?: string;
  message?: string;
  expiryDate?: string;
}

/** A planned line: the card (new, or as read for a reload), the value in cents, and who is e-mailed. */
export interface CounterGiftCard {
  action: 'issue' | 'reload';
  card: PromoRow;
  amount: number;
  recipientEmail: string | null;
  recipientName: string | null;
  message: string | null;
}

export interface CounterGiftCardPlan {
  lines: CounterGiftCard[];
  /** The operator's name, for the e-mail. */
  from: string;
}

const field = (i: number, f: string) => `giftCards.${i}.${f}`;
const bad = (message: string, path: string) => new ApiError('bad_request', message, { details: [{ field: path, message }] });
const taken = (code: string, path: string) =>
  new ApiError('already_exists', `The gift-card code "${code}" is already in use; choose another`, { details: [{ field: path, message: 'in use' }] });

/** The value of a line in cents, with the rule of a card's `$Discount` (above zero, at most 1,000,000, two decimals). */
function valueOf(amount: number, i: number): number {
  try {
    return parseDiscount({ $Discount: amount }).amountOff!;
  } catch {
    throw new ApiError('validation_failed', 'A gift card amount must be above zero, at most 1,000,000, with at most two decimals', {
      details: [{ field: field(i, 'amount'), message: 'above 0, at most 1000000, two decimals' }],
    });
  }
}

function newCard(ctx: Ctx, customerId: string, currency: string, g: CounterGiftCardInput, value: number, i: number): PromoRow {
  const code = g.code?.trim() || generateCode();
  if (code.length < 6) throw bad('A gift-card code has at least 6 characters', field(i, 'code'));
  const expiryDate = expiryOf(g.expiryDate);
  if (expiryDate && Date.parse(expiryDate) <= ctx.clock.now()) throw bad('The expiry date is in the past', field(i, 'expiryDate'));
  const now = nowIso(ctx);
  return {
    id: newId('promo'),
    customerId,
    code,
    codeKey: codeKey(code),
    kind: 'gift_card',
    details: { $Discount: toDollars(value), type: 'gift_card', soldAt: 'counter' },
    percentOff: null,
    amountOff: value,
    expiryDate,
    inventoryIds: [],
    locationId: null,
    affiliateId: null,
    usageLimit: null,
    timesUsed: 0,
    balance: value,
    currency,
    active: true,
    recipientName: g.recipientName ?? null,
    recipientEmail: g.recipientEmail ?? null,
    message: g.message ?? null,
    paymentIntentId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A card to reload: the operator's gift card, active, not expired, usable at this location and in this currency. */
async function cardToReload(ctx: Ctx, customerId: string, sale: { currency: string; locationId: string }, g: CounterGiftCardInput, i: number) {
  if (!g.code?.trim()) throw bad('A reload names the card: give code', field(i, 'code'));
  const card = await findCode(ctx, customerId, g.code);
  if (!card || card.kind !== 'gift_card') throw bad(`No gift card "${g.code.trim()}" for this operator`, field(i, 'code'));
  if (!card.active) throw notUsable(ctx, `The gift card "${card.code}" is inactive`);
  if (isExpired(card, ctx.clock.now())) throw notUsable(ctx, `The gift card "${card.code}" has expired`);
  if (card.locationId && card.locationId !== sale.locationId) throw notUsable(ctx, `The gift card "${card.code}" is not valid at this location`);
  requireCurrency(card, sale.currency, field(i, 'code'));
  if (g.expiryDate !== undefined) throw bad("A reload keeps the card's expiry: expiryDate is for a new card", field(i, 'expiryDate'));
  return card;
}

/** Checks the gift-card lines of a counter sale and plans them (nothing is written). */
export async function planCounterGiftCards(
  ctx: Ctx,
  customerId: string,
  sale: { currency: string; locationId: string },
  inputs: CounterGiftCardInput[],
): Promise<CounterGiftCardPlan> {
  const lines: CounterGiftCard[] = [];
  const seen = new Set<string>();
  for (const [i, g] of inputs.entries()) {
    const amount = valueOf(g.amount, i);
    const card = g.action === 'issue' ? newCard(ctx, customerId, sale.currency.toLowerCase(), g, amount, i) : await cardToReload(ctx, customerId, sale, g, i);
    if (seen.has(card.codeKey)) throw bad(`The card "${card.code}" is on this sale twice: one line per card`, field(i, 'code'));
    seen.add(card.codeKey);
    if (g.action === 'issue' && (await findCode(ctx, customerId, card.code))) throw taken(card.code, field(i, 'code'));
    lines.push({
      action: g.action,
      card,
      amount,
      recipientEmail: g.recipientEmail ?? (g.action === 'reload' ? null : card.recipientEmail),
      recipientName: g.recipientName ?? card.recipientName,
      message: g.message ?? null,
    });
  }
  const op = lines.some((l) => l.recipientEmail) ? await operatorOf(ctx, customerId) : null;
  return { lines, from: op ? (op.businessName ?? op.name) : '' };
}

/** The statements of the planned lines, for the sale's batch: each card issued or reloaded, its balance entry and its e-mail. */
export function counterGiftCardStmts(ctx: Ctx, plan: CounterGiftCardPlan, transactionId: string): Stmt[] {
  const stmts: Stmt[] = [];
  for (const l of plan.lines) {
    const { card } = l;
    if (l.action === 'issue') stmts.push(ctx.db.insert(promoCodes).values(card));
    else
      stmts.push(
        ctx.db
          .update(promoCodes)
          .set({ balance: sql`${promoCodes.balance} + ${l.amount}`, updatedAt: nowIso(ctx) })
          .where(and(eq(promoCodes.id, card.id), eq(promoCodes.customerId, card.customerId))),
      );
    stmts.push(
      ctx.db
        .insert(giftCardEntries)
        .values({ id: newId('gce'), customerId: card.customerId, promoCodeId: card.id, kind: 'purchase', amount: l.amount, reference: transactionId }),
    );
    if (l.recipientEmail)
      stmts.push(
        giftCardEmailStmt(ctx, {
          from: plan.from,
          card,
          to: l.recipientEmail,
          recipientName: l.recipientName,
          message: l.message,
          value: l.amount,
          expiryDate: card.expiryDate,
        }).stmt,
      );
  }
  return stmts;
}

/** The sale's batch failed because a racing sale or card took one of its new codes first. */
export const isGiftCardCodeTaken = (err: unknown) => isUniqueViolation(err) && String(err).includes('promo_codes.code_key');

const isBalanceCheck = (err: unknown) => /CHECK constraint failed/i.test(String(err)) && String(err).includes('promo_codes_balance');

/**
 * Takes `amount` cents back off a card sold or reloaded at the counter (its line refunded), in one
 * batch: `balance - amount` (the CHECK refuses below zero, so value already spent stays spent) and an
 * `adjust` entry. `voidWhenEmpty`: a card issued by the sale and refunded in full is deactivated.
 * Answers false, changing nothing, when the card holds less than `amount`.
 */
export async function takeGiftCardValue(
  ctx: Ctx,
  t: { customerId: string; promoCodeId: string; amount: number; reference: string; voidWhenEmpty: boolean },
): Promise<boolean> {
  const now = nowIso(ctx);
  try {
    await ctx.db.batch([
      ctx.db
        .update(promoCodes)
        .set({
          balance: sql`${promoCodes.balance} - ${t.amount}`,
          active: t.voidWhenEmpty ? sql`CASE WHEN ${promoCodes.balance} - ${t.amount} = 0 THEN 0 ELSE ${promoCodes.active} END` : sql`${promoCodes.active}`,
          updatedAt: now,
        })
        .where(and(eq(promoCodes.id, t.promoCodeId), eq(promoCodes.customerId, t.customerId))),
      ctx.db
        .insert(giftCardEntries)
        .values({ id: newId('gce'), customerId: t.customerId, promoCodeId: t.promoCodeId, kind: 'adjust', amount: -t.amount, reference: t.reference }),
    ]);
    return true;
  } catch (err) {
    if (isBalanceCheck(err)) return false;
    throw err;
  }
}

/** Gives back what `takeGiftCardValue` took (the refund's money could not be returned). */
export async function giveGiftCardValueBack(
  ctx: Ctx,
  t: { customerId: string; promoCodeId: string; amount: number; reference: string; voidWhenEmpty: boolean },
) {
  await ctx.db.batch([
    ctx.db
      .update(promoCodes)
      .set({ balance: sql`${promoCodes.balance} + ${t.amount}`, ...(t.voidWhenEmpty ? { active: true } : {}) })
      .where(and(eq(promoCodes.id, t.promoCodeId), eq(promoCodes.customerId, t.customerId))),
    ctx.db.insert(giftCardEntries).values({
      id: newId('gce'),
      customerId: t.customerId,
      promoCodeId: t.promoCodeId,
      kind: 'adjust',
      amount: t.amount,
      reference: `${t.reference} (undone)`,
    }),
  ]);
}

/** The card's balance now (cents), for the refusal's message. */
export async function giftCardBalance(ctx: Ctx, customerId: string, promoCodeId: string): Promise<number> {
  const row = await ctx.db
    .select({ balance: promoCodes.balance })
    .from(promoCodes)
    .where(and(eq(promoCodes.id, promoCodeId), eq(promoCodes.customerId, customerId)))
    .get();
  return row?.balance ?? 0;
}
