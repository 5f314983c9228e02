/**
 * The renter's self-service change (issue 32): a new date or time, party size and add-ons, with the
 * session token of a verified code (the code the cancellation sends: one code, one session, for either).
 * The change goes through the bookings module's change sale (bookings/modify.ts) as the operator's does:
 * repriced like a new booking of the changed shape, the capacity taken inside the item's lock, the
 * ledger reversed and rewritten, the renter e-mailed what changed. A higher price is charged to the card
 * the booking was paid with (a decline: 402 `payment_failed`, nothing changed), a lower one refunded to it.
 *
 * The operator's rules: a booking can be changed online while it is pending or confirmed, was not booked
 * through a partner, and starts more than the change cutoff from now: the larger of the cancellation
 * policy's `cutoffHours` and the item's `minimumNoticeHours`. A new time must meet the item's booking rules
 * as a widget booking does (minimum notice, advance window; checked in the lock); the party stays within
 * the item's minimum, its capacity and its fares; only the add-ons the item (or the location) offers.
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { nowMs } from '../../lib/clock';
import { loadItemContext } from '../availability/service';
import { locationCancellationPolicy } from '../public-settings/service';
import { changeBooking, quoteBookingChange, shapeOf, type BookingRow, type ChangeInput } from '../bookings/service';
import { renterFail } from './errors';
import { asRenter, rentalOnItsClock } from './queries';
import { requireSession } from './sessions';
import type { RenterChangeQuote, RenterChanged } from './schemas';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export type ChangeAsk = Pick<ChangeInput, 'startTime' | 'endTime' | 'participants' | 'tickets' | 'addons'>;

/** Until when the booking can be changed online, or why it cannot (409 `not_changeable`). */
async function changeableUntil(ctx: Ctx, b: BookingRow): Promise<number> {
  const refuse = (reason: string, message: string) => renterFail('not_changeable', message, { extra: { reason } });
  if (b.status !== 'pending' && b.status !== 'confirmed')
    throw refuse('not_changeable_status', `A ${b.status.replace('_', '-')} booking cannot be changed online; please contact the operator.`);
  if (b.source === 'channel' || b.source === 'marketplace')
    throw refuse('booked_through_partner', 'This booking was made through a partner; change it where you booked it.');
  const item = await loadItemContext(ctx.db, b.itemId, b.customerId);
  const policy = await locationCancellationPolicy(ctx, b.customerId, item.location.details as Record<string, unknown> | null);
  const cutoff = Math.max(policy.cutoffHours, item.item.model.minimumNoticeHours ?? 0);
  const until = b.start - cutoff * HOUR;
  const now = nowMs(ctx);
  if (b.start <= now) throw refuse('started', 'This booking has already started; please contact the operator.');
  if (now >= until) throw refuse('past_cutoff', `Online changes close ${cutoff} hours before the start; please contact the operator.`);
  return until;
}

/** The renter's booking, checked against the session (a verified code's) and the change rules, with the renter's context. */
async function renterChange(ctx0: Ctx, rentalId: string, token: string | null | undefined) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const session = await requireSession(ctx, token, b, 'change');
  const until = await changeableUntil(ctx, b);
  return { b, until, rctx: asRenter(ctx, b, `renter:${session.id}`) };
}

/** What the renter's change asks of the booking: the price always follows it, charged to or refunded to the card. */
const asked = (body: ChangeAsk): ChangeInput => ({ ...body, chargeDifference: true, refundDifference: true });

/** POST /public/bookings/{rentalId}/change-quote: the booking now and after the change, and the price change; nothing is written. */
export async function quoteChangeAsRenter(
  ctx0: Ctx,
  rentalId: string,
  token: string | null | undefined,
  body: ChangeAsk,
): Promise<z.output<typeof RenterChangeQuote>> {
  const { until, rctx } = await renterChange(ctx0, rentalId, token);
  const q = await quoteBookingChange(rctx, rentalId, asked(body), { kind: 'modify', source: 'widget' });
  return { ...q, changeableUntil: iso(until) };
}

/** POST /public/bookings/{rentalId}/change: the change, repriced, the difference charged to or refunded to the card. */
export async function changeAsRenter(ctx0: Ctx, rentalId: string, token: string | null | undefined, body: ChangeAsk): Promise<z.output<typeof RenterChanged>> {
  const { rctx } = await renterChange(ctx0, rentalId, token);
  const v = await changeBooking(rctx, rentalId, asked(body), { kind: 'modify', source: 'widget' });
  return {
    rentalId: v.rentalId,
    status: v.status,
    booking: shapeOf(v),
    pricing: { total: v.pricing.total, amountPaid: v.pricing.amountPaid, balanceDue: v.pricing.balanceDue, currency: v.currency },
    change: v.pricing.change,
  };
}
