/**
 * Gift cards at the counter in the demo: a 75 dollar card sold at the Miami dock store for cash (the
 * gift e-mail to its recipient queued), then reloaded with 25 dollars, through the point of sale's
 * service like a cashier would; the financial reports then show the sale as gift card liability.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../lib/context';
import { promoCodes } from '../db/schema/promo-codes';
import { createTransaction } from '../modules/pos/service';
import type { DemoOperator, OperatorSeedStep } from './types';

/** The counter card's code (unique per operator, so the same for every demo operator). */
export const COUNTER_GIFT_CARD = 'DOCK-GIFT-75';

async function seedCounterGiftCards(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const exists = await ctx.db
    .select({ id: promoCodes.id })
    .from(promoCodes)
    .where(and(eq(promoCodes.customerId, D.customerId), eq(promoCodes.codeKey, COUNTER_GIFT_CARD.toLowerCase())))
    .get();
  if (exists) return false;
  const sale = { locationId: D.miamiId, userId: D.adminId, paymentType: 'cash' as const, items: [], tillId: 'till-1' };
  await createTransaction(ctx, {
    ...sale,
    note: 'Birthday present',
    giftCards: [
      {
        action: 'issue',
        code: COUNTER_GIFT_CARD,
        amount: 75,
        recipientName: 'Jamie Rivera',
        recipientEmail: 'jamie.rivera@example.test',
        message: 'Happy birthday! Take the pontoon out on us.',
      },
    ],
  });
  await createTransaction(ctx, { ...sale, giftCards: [{ action: 'reload', code: COUNTER_GIFT_CARD, amount: 25 }] });
  return true;
}

export const giftCardsSeed: OperatorSeedStep = { name: 'gift-cards', run: seedCounterGiftCards };
