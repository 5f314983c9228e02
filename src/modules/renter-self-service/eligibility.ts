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
import { coveredPercent, refundPlanFrom, rentalLedger, spentMovedCredit, type BookingRow, type RefundPlan } from '../bookings/service';
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
  refund: {
    percent: number;
    amount: number;
    amountCents: number;
    paid: number;
    fee: number;
    feeCents: number;
    currency: string;
    /** Each line paid for, what comes back of it and what is kept, with its rule (bookings/refund-lines.ts). */
    lines: { kind: string; description: string; paid: number; refund: number; kept: number; rule: string }[];
  };
  /** When the refund drops to the next tier (future instants only). */
  refundSchedule: { until: string; refundPercent: number }[];
  checkedAt: string;
}

/** Whether and with what refund the renter may cancel, now on `ctx`'s clock (the operator's). */
export async function eligibilityOf(ctx: Ctx, b: BookingRow): Promise<Eligibility> {
  return (await eligibilityAndPlan(ctx, b)).eligibility;
}

const messages = (b: BookingRow, cutoffHours: number): Record<IneligibleReason, string> => ({
  already_cancelled: 'This booking is already cancelled.',
  not_cancellable_status: `A ${b.status.replace('_', '-')} booking cannot be cancelled online.`,
  started: 'This booking has already started; please contact the operator.',
  past_cutoff: `Online cancellation closes ${cutoffHours} hours before the start; please contact the operator.`,
  online_cancellation_disabled: 'This operator does not take cancellations online; please contact them.',
  booked_through_partner: 'This booking was made through a partner; cancel it where you booked it.',
});

/** The eligibility and the refund plan it quotes (the cancellation refunds by that plan). */
export async function eligibilityAndPlan(ctx: Ctx, b: BookingRow): Promise<{ eligibility: Eligibility; plan: RefundPlan }> {
  const now = nowMs(ctx);
  const [loc, entries] = await Promise.all([
    ctx.db.select({ details: locations.details, timezone: locations.timezone }).from(locations).where(eq(locations.id, b.locationId)).get(),
    rentalLedger(ctx, b),
  ]);
  const policy = await locationCancellationPolicy(ctx, b.customerId, loc?.details ?? null);
  const hoursBefore = (b.start - now) / HOUR;
  const reason = ineligibility(b, policy, now, hoursBefore);
  const { percent, covered } = reason ? { percent: 0, covered: false } : coveredPercent(entries, refundPercentAt(policy, hoursBefore), hoursBefore);
  const rule = covered ? `${percent}% refund under the cancellation cover bought for this booking` : `${percent}% refund under the cancellation policy`;
  // Goodwill credit this booking gave to the renter's account and already spent is kept from the refund (bookings' account-credit.ts).
  const withhold = reason ? 0 : await spentMovedCredit(ctx, b, entries);
  const plan = refundPlanFrom(entries, b, { by: 'renter', percent, rule, withhold });
  const refundCents = plan.refund;
  const eligibility: Eligibility = {
    rentalId: b.id,
    transactionId: b.transactionId,
    customerId: b.customerId,
    status: b.status,
    cancellable: reason === null,
    reason,
    message: reason
      ? messages(b, policy.cutoffHours)[reason]
      : plan.paid > 0
        ? `You can cancel now with a refund of ${formatMoney(refundCents, b.currency)}${plan.kept > 0 ? ` (${formatMoney(plan.kept, b.currency)} is kept: see each line)` : ''}.`
        : 'You can cancel now; nothing was charged.',
    startTime: iso(b.start),
    timezone: loc?.timezone ?? 'UTC',
    hoursBeforeStart: Math.round(hoursBefore * 100) / 100,
    policy,
    refund: {
      percent,
      amount: toDollars(refundCents),
      amountCents: refundCents,
      paid: toDollars(plan.paid),
      fee: toDollars(plan.kept),
      feeCents: plan.kept,
      currency: b.currency,
      lines: plan.lines.map((l) => ({ ...l, paid: toDollars(l.paid), refund: toDollars(l.refund), kept: toDollars(l.kept) })),
    },
    refundSchedule: policy.tiers
      .map((t) => ({ until: b.start - t.hoursBefore * HOUR, refundPercent: t.refundPercent }))
      .filter((t) => t.until > now)
      .map((t) => ({ until: iso(t.until), refundPercent: t.refundPercent })),
    checkedAt: iso(now),
  };
  return { eligibility, plan };
}

function ineligibility(
  b: BookingRow,
  policy: Awaited<ReturnType<typeof locationCancellationPolicy>>,
  now: number,
  hoursBefore: number,
): IneligibleReason | null {
  if (b.status === 'cancelled') return 'already_cancelled';
  if (b.status !== 'pending' && b.status !== 'confirmed') return 'not_cancellable_status';
  if (b.source === 'channel' || b.source === 'marketplace') return 'booked_through_partner';
  if (!policy.allowRenterCancellation) return 'online_cancellation_disabled';
  if (b.start <= now) return 'started';
  if (hoursBefore < policy.cutoffHours) return 'past_cutoff';
  return null;
}

/** GET /public/bookings/{rentalId}/cancellation-eligibility. */
export async function cancellationEligibility(ctx0: Ctx, rentalId: string) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  return eligibilityOf(ctx, b);
}
