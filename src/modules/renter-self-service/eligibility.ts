/**
 * Whether and with what refund a renter can cancel a rental online, under the operator's policy
 * (the location's `details.cancellationPolicy`, else the account's, else the default: see
 * public-settings). The refund is a percentage of what the renter paid by card for the rental;
 * what is not refunded stays with the operator as a cancellation fee.
 */
import type { Ctx } from '../../lib/context';
import { formatMoney, toDollars } from '../../lib/money';
import { locations } from '../../db/schema/locations';
import { eq } from 'drizzle-orm';
import { locationCancellationPolicy, refundPercentAt } from '../public-settings/service';
import { paidByCard, type BookingRow } from '../bookings/service';
import { rentalOnItsClock } from './queries';
import { nowMs } from '../../lib/clock';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

export type IneligibleReason =
  'already_cancelled' | 'not_cancellable_status' | 'started' | 'past_cutoff' | 'online_cancellation_disabled' | 'booked_through_partner';

export interface Eligibility {
  rentalId: string;
  transactionId: string;
  customerId: string;
  status: string;
  cancellable: boolean;
  reason: IneligibleReason | null;
  message: string;
  startTime: string;
  timezone: string;
  hoursBeforeStart: number;
  policy: Awaited<ReturnType<typeof locationCancellationPolicy>>;
  refund: { percent: number; amount: number; amountCents: number; paid: number; fee: number; feeCents: number; currency: string };
  /** When the refund drops to the next tier (future instants only). */
  refundSchedule: { until: string; refundPercent: number }[];
  checkedAt: string;
}

/** Whether and with what refund the renter may cancel, now on `ctx`'s clock (the operator's). */
export async function eligibilityOf(ctx: Ctx, b: BookingRow): Promise<Eligibility> {
  const now = nowMs(ctx);
  const [loc, paid] = await Promise.all([
    ctx.db.select({ details: locations.details, timezone: locations.timezone }).from(locations).where(eq(locations.id, b.locationId)).get(),
    paidByCard(ctx, b),
  ]);
  const policy = await locationCancellationPolicy(ctx, b.customerId, loc?.details ?? null);
  const hoursBefore = (b.start - now) / HOUR;
  let reason: IneligibleReason | null = null;
  if (b.status === 'cancelled') reason = 'already_cancelled';
  else if (b.status !== 'pending' && b.status !== 'confirmed') reason = 'not_cancellable_status';
  else if (b.source === 'channel' || b.source === 'marketplace') reason = 'booked_through_partner';
  else if (!policy.allowRenterCancellation) reason = 'online_cancellation_disabled';
  else if (b.start <= now) reason = 'started';
  else if (hoursBefore < policy.cutoffHours) reason = 'past_cutoff';
  const percent = reason ? 0 : refundPercentAt(policy, hoursBefore);
  const refundCents = Math.round((paid * percent) / 100);
  const messages: Record<IneligibleReason, string> = {
    already_cancelled: 'This booking is already cancelled.',
    not_cancellable_status: `A ${b.status.replace('_', '-')} booking cannot be cancelled online.`,
    started: 'This booking has already started; please contact the operator.',
    past_cutoff: `Online cancellation closes ${policy.cutoffHours} hours before the start; please contact the operator.`,
    online_cancellation_disabled: 'This operator does not take cancellations online; please contact them.',
    booked_through_partner: 'This booking was made through a partner; cancel it where you booked it.',
  };
  return {
    rentalId: b.id,
    transactionId: b.transactionId,
    customerId: b.customerId,
    status: b.status,
    cancellable: reason === null,
    reason,
    message: reason
      ? messages[reason]
      : paid > 0
        ? `You can cancel now with a ${percent}% refund (${formatMoney(refundCents, b.currency)}).`
        : 'You can cancel now; nothing was charged.',
    startTime: iso(b.start),
    timezone: loc?.timezone ?? 'UTC',
    hoursBeforeStart: Math.round(hoursBefore * 100) / 100,
    policy,
    refund: {
      percent,
      amount: toDollars(refundCents),
      amountCents: refundCents,
      paid: toDollars(paid),
      fee: toDollars(paid - refundCents),
      feeCents: paid - refundCents,
      currency: b.currency,
    },
    refundSchedule: policy.tiers
      .map((t) => ({ until: b.start - t.hoursBefore * HOUR, refundPercent: t.refundPercent }))
      .filter((t) => t.until > now)
      .map((t) => ({ until: iso(t.until), refundPercent: t.refundPercent })),
    checkedAt: iso(now),
  };
}

/** GET /public/bookings/{rentalId}/cancellation-eligibility. */
export async function cancellationEligibility(ctx0: Ctx, rentalId: string) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  return eligibilityOf(ctx, b);
}
