/**
 * Outbound availability notifications: when capacity of an item comes back (a booking cancelled
 * or a no-show, through any sales path), Berth tells the marketplace which options and date to
 * refresh, with the operator's outbound key. An inactive configuration, or one without an
 * outbound key, sends nothing. Every call is logged in `marketplace_notifications`.
 */
import { onOperatorClock } from '../../lib/operator-clock';
import type { Ctx } from '../../lib/context';
import type { CapacityReleased } from '../../lib/hooks';
import { newId } from '../../lib/ids';
import { localDate } from '../../lib/time';
import { unseal } from '../../lib/sealed';
import { marketplaceOutbound } from '../../adapters/marketplace';
import { marketplaceNotifications } from '../../db/schema/marketplace';
import { configOfCustomer } from './queries';
import { optionIdsOf, optionItem } from './engine';

/** Hook `capacity.released`: runs after the response (no round trip added to the cancellation). */
export async function onCapacityReleased(ctx: Ctx, e: CapacityReleased) {
  ctx.waitUntil(notifyReleased(ctx, e).catch((err) => ctx.log.warn('marketplace notification failed', { error: String(err) })));
}

async function notifyReleased(ctx: Ctx, e: CapacityReleased) {
  const cfg = await configOfCustomer(ctx, e.customerId);
  if (!cfg || !cfg.isActive || !cfg.outboundApiKey) return;
  const tctx: Ctx = await onOperatorClock({ ...ctx, principal: { ...ctx.principal, customerId: e.customerId } }, e.customerId);
  const found = await optionItem(tctx, e.itemId).catch(() => null);
  if (!found || found.item.currency !== cfg.currency) return;
  const payload = {
    productOptionIds: optionIdsOf(found.item, tctx.clock.now()),
    dates: [localDate(e.start, found.item.item.timezone)],
    rentalId: e.rentalId,
    reason: e.reason,
  };
  let status: 'sent' | 'failed' = 'sent';
  let error: string | null = null;
  try {
    const out = marketplaceOutbound(ctx.env);
    if (!out) throw new Error('MARKETPLACE_API_URL is not configured');
    await out.notifyAvailability({
      supplierId: cfg.supplierId,
      outboundApiKey: await unseal(ctx.env, cfg.outboundApiKey),
      currency: cfg.currency,
      productOptionIds: payload.productOptionIds,
      dates: payload.dates,
    });
  } catch (err) {
    status = 'failed';
    error = String((err as Error).message ?? err).slice(0, 500);
  }
  await ctx.db.insert(marketplaceNotifications).values({ id: newId('mkn'), customerId: e.customerId, kind: 'availability', payload, status, error });
}
