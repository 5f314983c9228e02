/**
 * The server's price of an order before it is placed (the booking widget's summary): the same line
 * planning, pricing, add-ons, promo code, taxes and tip as createBooking, what a gift card would pay, plus the availability check
 * the sale will meet (with the sales path's rules), without reserving or writing anything.
 */
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { toCents } from '../../lib/money';
import { getItemAvailability, loadItemContext, type ItemContext } from '../availability/service';
import { bad } from './errors';
import type { BookingSource } from './types';
import { planLines, prepareOrderLine, type PreparedLine } from './lines';
import { bundlesOf, operatorSettings } from './offers';
import { extensionDiscounts, extensionPayments, extensionsFor, resolveExtensions } from './extensions';
import { dollars, quoteOrder, quoteOut, type OrderDiscount } from './pricing';
import type { BookInput } from './schemas';

export async function previewBooking(ctx: Ctx, input: BookInput, opts: { source?: BookingSource; giftCard?: { code: string } } = {}) {
  const customerId = tenantOf(ctx);
  const settings = await operatorSettings(ctx, customerId);
  const { lines } = planLines(input, bundlesOf(settings));
  const items = new Map<string, ItemContext>();
  for (const id of [...new Set(lines.map((l) => l.inventoryId))].sort()) items.set(id, await loadItemContext(ctx.db, id, customerId));
  const currencies = new Set([...items.values()].map((i) => i.currency));
  if (currencies.size > 1) throw bad('All items of one order must be sold in the same currency', 'rentalDetails.items');
  const prepared: PreparedLine[] = [];
  for (const [i, l] of lines.entries()) prepared.push(await prepareOrderLine(input, i, ctx, items.get(l.inventoryId)!, l, true));
  // A promo code's discount and what a gift card would pay (the renter's membership is not priced before checkout).
  const facts = {
    customerId,
    source: opts.source ?? 'operator',
    now: ctx.clock.now(),
    email: '',
    sellerPriced: false,
    asks: {
      ...(input.discountDetails?.promoCode ? { promoCode: input.discountDetails.promoCode } : {}),
      ...(opts.giftCard ? { giftCard: opts.giftCard.code } : {}),
    },
  };
  const extensions = extensionsFor(ctx, facts);
  const scope = { ...facts, locationId: prepared[0].item.row.locationId, itemIds: [...items.keys()], currency: [...currencies][0], settings };
  await resolveExtensions(ctx, scope, extensions);
  const discounts: OrderDiscount[] = extensionDiscounts(scope, extensions, 'code');
  const quotes = quoteOrder(
    prepared.map((p) => p.input),
    { discounts, tip: toCents(input.rentalPricing.tip ?? 0) },
  );
  let deposit = 0;
  for (const p of prepared) if (p.item.item.model.deposit?.required) deposit += toCents(p.item.item.model.deposit.amount);
  const availability = await Promise.all(
    prepared.map(async (p) => ({
      inventoryId: p.item.row.id,
      ...(await getItemAvailability(ctx, p.item.row.id, {
        start: p.start,
        end: p.end,
        quantity: p.item.item.kind === 'tour' ? undefined : p.quantity,
        seats: p.tour?.seats,
        assetIds: p.req.assetIds,
        source: opts.source ?? 'operator',
      })),
    })),
  );
  const total = quotes.reduce((s, q) => s + q.total, 0);
  extensionPayments(scope, extensions, total);
  const gift = extensions.find((x) => x.payment?.source === 'gift_card')?.payment ?? null;
  const giftApplied = gift?.amount ?? 0;
  return {
    currency: [...currencies][0],
    total: dollars(total),
    totalCents: total,
    giftCard: gift ? { code: gift.reference, applied: dollars(giftApplied), balance: dollars(gift.available ?? giftApplied) } : null,
    amountDue: dollars(total - giftApplied),
    deposit: dollars(deposit),
    lines: quotes.map((q, i) => ({
      inventoryId: prepared[i].item.row.id,
      startTime: new Date(prepared[i].start).toISOString(),
      endTime: new Date(prepared[i].end).toISOString(),
      quantity: prepared[i].quantity,
      participants: prepared[i].participants,
      ...quoteOut(q),
    })),
    available: availability.every((a) => a.available),
    availability,
  };
}
