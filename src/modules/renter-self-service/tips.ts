/**
 * POST /public/bookings/{rentalId}/tip: a tip on a completed booking, charged to the stored card.
 * One tip per booking: the tip row is claimed (unique per rental) before the charge, so a doubled or
 * retried request never charges twice; asking again answers the first tip with `charged: false`.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { bookingTips } from '../../db/schema/renter-self-service';
import { renterFail } from './errors';
import { chargeTip, storedCard } from './money';
import { asRenter, rentalOnItsClock } from './queries';
import { nowIso } from '../../lib/clock';

type TipRow = typeof bookingTips.$inferSelect;
const MAX_TIP_CENTS = 1_000_000;

const tipOut = (t: TipRow, charged: boolean, card: { brand: string; last4: string } | null) => ({
  tipId: t.id,
  rentalId: t.rentalId,
  amount: toDollars(t.amount),
  currency: t.currency,
  status: t.status,
  paymentIntentId: t.paymentIntentId,
  charged,
  card: card && card.last4 ? { brand: card.brand, last4: card.last4 } : null,
  createdAt: t.createdAt,
});

export async function tipBooking(ctx0: Ctx, rentalId: string, input: { amount: number; percentage?: number }) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const existing = await ctx.db.select().from(bookingTips).where(eq(bookingTips.rentalId, b.id)).get();
  if (existing?.status === 'paid') return tipOut(existing, false, null);
  if (existing) throw new ApiError('request_in_progress', 'A tip for this booking is being charged right now; retry in a moment');
  if (b.status !== 'completed') throw renterFail('booking_not_completed', `Tips are for completed bookings; this one is ${b.status.replace('_', '-')}`);
  const amount = toCents(input.amount);
  if (amount < 50 || amount > MAX_TIP_CENTS)
    throw new ApiError('bad_request', 'amount must be between 0.50 and 10000', { details: [{ field: 'amount', message: 'between 0.50 and 10000' }] });
  if (input.percentage != null) {
    const base = b.total - b.tipTotal;
    const expected = Math.round((base * input.percentage) / 100);
    if (Math.abs(expected - amount) > 1)
      throw new ApiError(
        'price_mismatch',
        `${input.percentage}% of ${toDollars(base).toFixed(2)} is ${toDollars(expected).toFixed(2)}, not ${input.amount.toFixed(2)}`,
        {
          details: [{ field: 'amount', message: `expected ${toDollars(expected).toFixed(2)}` }],
          extra: { expectedAmount: toDollars(expected) },
        },
      );
  }
  const card = await storedCard(ctx, b);
  if (!card) throw renterFail('no_stored_card', 'This booking has no stored card to charge the tip to');
  const now = nowIso(ctx);
  const row: TipRow = {
    id: newId('tip'),
    customerId: b.customerId,
    rentalId: b.id,
    amount,
    currency: b.currency,
    status: 'charging',
    paymentIntentId: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ctx.db.insert(bookingTips).values(row);
  } catch (err) {
    if (/UNIQUE|constraint/i.test(String((err as { cause?: unknown }).cause ?? err))) {
      const won = await ctx.db.select().from(bookingTips).where(eq(bookingTips.rentalId, b.id)).get();
      if (won?.status === 'paid') return tipOut(won, false, null);
      throw new ApiError('request_in_progress', 'A tip for this booking is being charged right now; retry in a moment');
    }
    throw err;
  }
  try {
    const intent = await chargeTip(asRenter(ctx, b, `renter:tip:${row.id}`), b, { id: row.id, amount }, card);
    return tipOut({ ...row, status: 'paid', paymentIntentId: intent.id }, true, card);
  } catch (err) {
    // Nothing was taken (or it was given back): free the claim so the renter can try again.
    await ctx.db.delete(bookingTips).where(and(eq(bookingTips.id, row.id), eq(bookingTips.status, 'charging')));
    throw err;
  }
}
