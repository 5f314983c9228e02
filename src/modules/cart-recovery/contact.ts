import { and, asc, desc, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso, nowMs } from '../../lib/clock';
import { inJobScope, nextDueAt } from '../../lib/job-scope';
import { requireAdmin, tenantOf } from '../../lib/context';
import { sendMessage } from '../../adapters/messages';
import { cartRecoveryItems } from '../../db/schema/cart-recovery';
import { bookings } from '../../db/schema/bookings';
import { getItemAvailability } from '../availability/service';
import { forTenant, loadRenderSource, processScheduledMessages, renderTemplate, TEMPLATES, variablesFor } from '../communications/service';
import { getItemInTenant } from '../inventory/service';
import { getLocationInTenant } from '../locations/service';
import { createShortLink, httpUrl, publicBaseUrl } from '../short-links/service';
import { markCompleted } from './carts';
import { getCartInTenant, needingContact } from './queries';
import type { CartRow } from './views';

const t = cartRecoveryItems;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export interface RecoveryEmailInput {
  to: string;
  recoveryUrl: string;
  firstName?: string;
  lastName?: string;
  customMessage?: string;
  bookingInfo?: Record<string, unknown>;
  locationId?: string;
  cartRecoveryId?: string;
}

/**
 * The cart-recovery e-mail (template `cart_recovery`) with a short tracking link (30 days, counted
 * clicks) to `recoveryUrl`. With a cart, the cart is marked contacted by it.
 */
export async function sendRecoveryEmail(ctx: Ctx, input: RecoveryEmailInput, apiBase: string, known?: CartRow) {
  const customerId = tenantOf(ctx);
  const cart = known ?? (input.cartRecoveryId ? await getCartInTenant(ctx, input.cartRecoveryId) : undefined);
  httpUrl(input.recoveryUrl, 'recoveryUrl');
  const info = input.bookingInfo ?? cart?.bookingInfo ?? {};
  const src = await loadRenderSource(ctx, { locationId: input.locationId ?? cart?.locationId ?? null });
  const link = await createShortLink(ctx, {
    originalUrl: input.recoveryUrl,
    metadata: { purpose: 'cart_recovery', to: input.to, ...(cart ? { cartRecoveryId: cart.id } : {}) },
    baseUrl: apiBase,
  });
  const inventoryId = str(info.inventoryId);
  const itemName =
    str(info.itemName) ?? (inventoryId ? (await getItemInTenant(ctx, inventoryId, { includeDeleted: true }).catch(() => null))?.name : undefined);
  const extra: Record<string, string> = { 'link.url': link.shortUrl };
  if (input.customMessage) extra['message.custom'] = input.customMessage;
  if (itemName) extra['cart.itemName'] = itemName;
  if (str(info.startTime)) extra['cart.start'] = str(info.startTime)!;
  const person = { firstName: input.firstName ?? cart?.firstName ?? null, lastName: input.lastName ?? cart?.lastName ?? null, email: input.to };
  const r = renderTemplate(TEMPLATES.cart_recovery, variablesFor({ ...src, booking: null }, person, extra));
  const msg = await sendMessage(ctx, {
    channel: 'email',
    to: input.to,
    subject: r.subject,
    body: r.text,
    html: r.html,
    template: 'cart_recovery',
    customerId,
    metadata: { shortCode: link.code, ...(cart ? { cartRecoveryId: cart.id } : {}), ...(src.location ? { locationId: src.location.id } : {}) },
  });
  if (cart) {
    const now = nowIso(ctx);
    await ctx.db
      .update(t)
      .set({ contactedAt: cart.contactedAt && known ? cart.contactedAt : now, contactMessageId: msg.messageId, shortCode: link.code, updatedAt: now })
      .where(and(eq(t.id, cart.id), eq(t.customerId, customerId)));
  }
  return { success: msg.status === 'sent' || msg.status === 'queued', shortUrl: link.shortUrl, code: link.code, expiresAt: link.expiresAt, ...msg };
}

/**
 * Where the recovery e-mail leads: the location's `details.bookingUrl` with `cartRecoveryId` (a page embedding the widget:
 * the embed script passes the id on), else Berth's own booking widget for the cart's operator and location, which reads the
 * cart back and restores the renter's choices.
 */
export function recoveryUrlOf(cart: CartRow, details: Record<string, unknown> | null | undefined, apiBase: string): string {
  const own = details?.bookingUrl;
  if (typeof own === 'string' && /^https?:\/\//i.test(own)) {
    try {
      const u = new URL(own);
      u.searchParams.set('cartRecoveryId', cart.id);
      return u.toString();
    } catch {
      // fall through to the API's own link
    }
  }
  const q = new URLSearchParams({ customer: cart.customerId, location: cart.locationId, cartRecoveryId: cart.id });
  return `${apiBase}/widget?${q.toString()}`;
}

/** The booking made with the cart's e-mail at its location since the cart was captured, if any. */
async function bookingSince(ctx: Ctx, cart: CartRow) {
  return ctx.db
    .select({ transactionId: bookings.transactionId })
    .from(bookings)
    .where(
      and(
        eq(bookings.customerId, cart.customerId),
        eq(bookings.locationId, cart.locationId),
        sql`lower(json_extract(${bookings.customerInfo}, '$.email')) = ${cart.email}`,
        gte(bookings.createdAt, cart.createdAt),
        ne(bookings.status, 'cancelled'),
      ),
    )
    .orderBy(desc(bookings.createdAt))
    .limit(1)
    .get();
}

/** Why the cart's slot is gone (its start passed, the item went away, or it is no longer available), or null. */
async function slotGone(ctx: Ctx, cart: CartRow, now: number): Promise<string | null> {
  const info = cart.bookingInfo ?? {};
  const start = Date.parse(str(info.startTime) ?? '');
  if (!Number.isFinite(start)) return null;
  if (start <= now) return 'slot_passed: the wanted start has passed';
  const inventoryId = str(info.inventoryId);
  const end = Date.parse(str(info.endTime) ?? '');
  if (!inventoryId || !Number.isFinite(end) || end <= start) return null;
  const qty = Number(info.quantity);
  try {
    const a = await getItemAvailability(ctx, inventoryId, {
      start,
      end,
      quantity: Number.isInteger(qty) && qty > 0 ? qty : undefined,
      seats: Number.isInteger(qty) && qty > 0 ? qty : undefined,
      source: 'widget',
    });
    return a.available ? null : 'slot_unavailable: the wanted slot is no longer available';
  } catch {
    return 'item_unavailable: the item is no longer offered';
  }
}

/**
 * The cart-recovery processor (cron every 5 minutes, and `POST /communication/process-scheduled`):
 * each item needing contact is first checked (a booking made with its e-mail completes it; a slot
 * that is gone expires it), then claimed with a conditional UPDATE that sets `contactedAt` (so it
 * is e-mailed once, even by overlapping runs) and e-mailed with a short tracking link.
 */
export async function processCartRecovery(ctx: Ctx, opts: { apiBase?: string } = {}) {
  const now = nowMs(ctx);
  const stamp = new Date(now).toISOString();
  const apiBase = opts.apiBase ?? publicBaseUrl(ctx.env);
  const due = await ctx.db
    .select()
    .from(t)
    .where(and(needingContact(stamp), inJobScope(ctx, t.customerId)))
    .orderBy(asc(t.contactOn))
    .limit(100)
    .all();
  const counts = { checked: due.length, contacted: 0, completed: 0, expired: 0, failed: 0 };
  for (const cart of due) {
    const tctx = forTenant(ctx, cart.customerId);
    try {
      const booked = await bookingSince(tctx, cart);
      if (booked) {
        await markCompleted(tctx, cart, booked.transactionId, 'booked: a booking was made with this e-mail');
        counts.completed++;
        continue;
      }
      const gone = await slotGone(tctx, cart, now);
      if (gone) {
        await ctx.db
          .update(t)
          .set({ status: 'expired', statusReason: gone, updatedAt: stamp })
          .where(and(eq(t.id, cart.id), eq(t.status, 'active')));
        counts.expired++;
        continue;
      }
      // Stamped when the e-mail actually goes (on the wall clock that is later than the run's instant).
      const sentAt = nowIso(ctx);
      const claimed = await ctx.db
        .update(t)
        .set({ contactedAt: sentAt, updatedAt: sentAt })
        .where(and(eq(t.id, cart.id), eq(t.status, 'active'), isNull(t.contactedAt)))
        .returning()
        .get();
      if (!claimed) continue; // another run has it
      const details = (await getLocationInTenant(tctx, cart.locationId).catch(() => null))?.details ?? null;
      const r = await sendRecoveryEmail(
        tctx,
        { to: cart.email, recoveryUrl: recoveryUrlOf(cart, details, apiBase), locationId: cart.locationId, cartRecoveryId: cart.id },
        apiBase,
        claimed,
      );
      if (r.status === 'failed') counts.failed++;
      else counts.contacted++;
    } catch (err) {
      counts.failed++;
      ctx.log.error('cart recovery contact failed', { cartRecoveryId: cart.id, error: String(err) });
    }
  }
  return counts;
}

/** `POST /communication/process-scheduled`: both processors now, for the caller's operator (admin only). */
export async function processNow(ctx: Ctx, apiBase: string) {
  requireAdmin(ctx);
  tenantOf(ctx);
  // Both processors work for the caller's operator only: its context is their job scope.
  const ranAt = nowIso(ctx);
  const scheduled = await processScheduledMessages(ctx);
  const cartRecovery = await processCartRecovery(ctx, { apiBase });
  return { ranAt, scheduled, cartRecovery };
}

/** When the processor next has work (its `nextDue`): the earliest contact time of a cart not yet contacted. */
export async function nextCartDue(ctx: Ctx): Promise<number | null> {
  return nextDueAt(ctx, { table: t, due: t.contactOn, customer: t.customerId }, and(eq(t.status, 'active'), isNull(t.contactedAt)));
}
