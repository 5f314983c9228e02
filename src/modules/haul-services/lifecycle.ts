/**
 * Haul service states: requested → scheduled (with pricing) → confirmed → in_progress → completed,
 * or cancelled from any state before the work starts. Every change is a compare-and-swap on
 * `version` (the trigger of migration `haul_services_guards` aborts a batch written from a stale
 * version), so two answers racing (a confirm and a cancel, two schedules) never both land.
 *
 * Scheduling books the service's lifts (one per lift: a round trip or a haul and hold with a return
 * date takes two) as rows of `haul_lift_bookings`: each INSERT counts the day's lifts in the
 * statement itself and carries the location's daily lift capacity, and a CHECK refuses a row past
 * the capacity, so parallel schedules can never overfill a day. Completing posts the price to the
 * slip reservation as fee lines (the reservation's own compare-and-swap in the same batch).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { nowIso, todayIn } from '../../lib/clock';
import { formatCalendarDate, formatLocalDateTime } from '../../lib/local-time';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatRate } from '../../lib/money';
import { wallTimeToUtc } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { haulLiftBookings as L, haulServices as H, type HaulPricing } from '../../db/schema/haul-services';
import { emailStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings, type SlipSettings } from '../marina-settings/service';
import { chargeLinesChange, getReservationRow, reservationRowsByIds } from '../slip-reservations/service';
import { haulErrors } from './errors';
import type * as s from './schemas';
import { getHaulRow, haulView, liftsBookedOn } from './queries';
import { commitChange, failed } from './change';
import { checkDay, requireDue, requireNotPast } from './dates';
import { NOT_STARTED, RETURNING, type LiftKind } from './types';
import type { HaulRow } from './views';

const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
const isCapacityFull = (err: unknown) => /haul_lift_capacity_check/.test(errText(err));
const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;
const LABEL: Record<HaulRow['serviceType'], string> = {
  haul_out: 'Haul out',
  launch: 'Launch',
  haul_and_hold: 'Haul and hold',
  round_trip: 'Round trip (haul out and relaunch)',
  relocation: 'Relocation',
};
export const serviceLabel = (t: HaulRow['serviceType']) => LABEL[t];

function renterMail(ctx: Ctx, h: HaulRow, subject: string, body: string, template: string): Stmt {
  return emailStmt(ctx, {
    to: h.renter.email,
    subject,
    body: `Hello ${h.renter.firstName},\n\n${body}`,
    template,
    customerId: h.customerId,
    metadata: { haulServiceId: h.id, serviceNumber: h.serviceNumber },
  }).stmt;
}

/** The lifts a schedule takes: one per lift, on its local day. */
export function liftPlan(type: HaulRow['serviceType'], date: string, returnDate: string | null): { date: string; kind: LiftKind }[] {
  if (type === 'launch') return [{ date, kind: 'launch' }];
  if (type === 'relocation') return [{ date, kind: 'relocation' }];
  if (type === 'haul_out') return [{ date, kind: 'haul_out' }];
  if (type === 'round_trip')
    return [
      { date, kind: 'haul_out' },
      { date: returnDate ?? date, kind: 'launch' },
    ];
  return [{ date, kind: 'haul_out' }, ...(returnDate ? [{ date: returnDate, kind: 'launch' as const }] : [])];
}

/** The price: the location's haul rate for the type × LOA (or the lines given), taxed at the reservation's rate (else the location's). */
function priceOf(h: HaulRow, settings: SlipSettings, reservationTax: number | null, given: z.output<typeof s.ScheduleBody>['pricing']): HaulPricing {
  const rate = settings.haulRates[h.serviceType];
  const lines = given?.lines?.map((l) => ({ description: l.description, amountCents: l.amountCents, taxable: l.taxable })) ?? [
    {
      description: `${LABEL[h.serviceType]}: ${h.boat.loaFt} ft × ${formatRate(rate, 'usd')} per ft`,
      amountCents: Math.round(rate * h.boat.loaFt),
      taxable: true,
    },
  ];
  const taxRatePercent = given?.taxRatePercent ?? reservationTax ?? settings.taxRatePercent;
  const subtotalCents = lines.reduce((a, l) => a + l.amountCents, 0);
  const taxCents = Math.round((lines.filter((l) => l.taxable).reduce((a, l) => a + l.amountCents, 0) * taxRatePercent) / 100);
  return { lines, subtotalCents, taxRatePercent, taxCents, totalCents: subtotalCents + taxCents };
}

/** POST /haul-services/{id}/schedule: books the lifts within the day's capacity and prices the service. */
export async function scheduleHaulService(ctx: Ctx, id: string, input: z.output<typeof s.ScheduleBody>) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  if (!NOT_STARTED.includes(h.status)) throw new ApiError('invalid_state', `A ${h.status.replace('_', ' ')} haul service cannot be scheduled`);
  const [loc, settings] = await Promise.all([getLocationInTenant(ctx, h.locationId), getSlipSettings(ctx, h.locationId)]);
  const today = todayIn(ctx, loc.timezone);
  const bad = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });
  checkDay('scheduledDate', input.scheduledDate);
  requireNotPast('scheduledDate', input.scheduledDate, today);
  if (input.returnDate !== undefined) {
    checkDay('returnDate', input.returnDate);
    if (!RETURNING.includes(h.serviceType)) throw bad('returnDate', 'Only a round trip or a haul and hold has a return date');
    if (input.returnDate < input.scheduledDate) throw bad('returnDate', 'returnDate is before scheduledDate');
  }
  // A round trip goes back in on the requested return day (when it is not before the new date), else the same day.
  const requestedReturn = h.requestedReturnDate && h.requestedReturnDate >= input.scheduledDate ? h.requestedReturnDate : null;
  const returnDate =
    h.serviceType === 'round_trip'
      ? (input.returnDate ?? requestedReturn ?? input.scheduledDate)
      : h.serviceType === 'haul_and_hold'
        ? (input.returnDate ?? requestedReturn)
        : null;
  const lifts = liftPlan(h.serviceType, input.scheduledDate, returnDate);
  if (settings.dailyLiftCapacity === 0) throw haulErrors.fail('lift_capacity_full', 'The lift is out of service at this location (daily lift capacity 0)');
  const r = h.reservationId ? ((await reservationRowsByIds(ctx, [h.reservationId]))[0] ?? null) : null;
  const pricing = priceOf(h, settings, r?.pricing.taxRatePercent ?? null, input.pricing);
  const now = nowIso(ctx);
  const capacity = settings.dailyLiftCapacity;
  const liftStmts: Stmt[] = lifts.map((l) =>
    ctx.db.insert(L).values({
      id: newId('hlift'),
      customerId: h.customerId,
      locationId: h.locationId,
      serviceId: h.id,
      liftDate: l.date,
      kind: l.kind,
      // Counted in the INSERT itself: the CHECK (seq <= capacity) refuses the lift past the day's capacity.
      seq: sql`(SELECT count(*) FROM haul_lift_bookings WHERE customer_id = ${h.customerId} AND location_id = ${h.locationId} AND lift_date = ${l.date}) + 1`,
      capacity,
    }),
  );
  // In the renter's words and the location's time: "Sat 12 Dec 2026, 08:30 EST", never ISO.
  const day = input.scheduledTime
    ? formatLocalDateTime(wallTimeToUtc(input.scheduledDate, input.scheduledTime, loc.timezone), loc.timezone)
    : formatCalendarDate(input.scheduledDate);
  const when = `${day}${returnDate && returnDate !== input.scheduledDate ? `, back in the water on ${formatCalendarDate(returnDate)}` : ''}`;
  const mail = renterMail(
    ctx,
    h,
    `${LABEL[h.serviceType]} ${h.serviceNumber} scheduled`,
    `your ${LABEL[h.serviceType].toLowerCase()} for ${h.boat.vesselName} is scheduled for ${when}. Price: ${dollars(pricing.totalCents)}${pricing.taxCents ? ` (tax ${dollars(pricing.taxCents)} included)` : ''}. Please confirm it in the tenant portal or reply to this e-mail.`,
    'haul_service.scheduled',
  );
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(H)
          .set({
            status: 'scheduled',
            scheduledDate: input.scheduledDate,
            scheduledTime: input.scheduledTime ?? null,
            returnDate,
            pricing,
            scheduledAt: now,
            confirmedAt: null,
            confirmedBy: null,
            ...(input.staffNotes !== undefined ? { staffNotes: input.staffNotes } : {}),
            version: h.version + 1,
            updatedAt: now,
          })
          .where(and(eq(H.id, h.id), eq(H.customerId, h.customerId))),
        // A re-schedule gives its old lifts back first.
        ctx.db.delete(L).where(and(eq(L.serviceId, h.id), eq(L.customerId, h.customerId))),
        ...liftStmts,
        mail,
      ],
      {
        audit: {
          action: 'haul_service.schedule',
          targetType: 'haul_service',
          targetId: h.id,
          details: { from: h.status, scheduledDate: input.scheduledDate, returnDate, lifts: lifts.length, totalCents: pricing.totalCents },
        },
      },
    );
  } catch (err) {
    if (isCapacityFull(err)) {
      const days = [...new Set(lifts.map((l) => l.date))];
      const booked = await Promise.all(days.map(async (d) => ({ date: d, liftsBooked: await liftsBookedOn(ctx, h.locationId, d) })));
      const full = booked.filter((b) => b.liftsBooked + lifts.filter((l) => l.date === b.date).length > capacity).map((b) => b.date);
      throw haulErrors.fail('lift_capacity_full', `No lift left on ${(full.length ? full : days).join(' and ')}: the daily capacity is ${capacity} lifts`, {
        extra: { capacity, days: booked },
      });
    }
    failed(err);
  }
  return haulView(ctx, await getHaulRow(ctx, h.id));
}

/** The renter or staff accept the schedule and price (scheduled → confirmed). */
export async function confirmRow(ctx: Ctx, h: HaulRow, by: string, note?: string) {
  if (h.status === 'confirmed') return h;
  if (h.status !== 'scheduled') throw new ApiError('invalid_state', `Only a scheduled haul service can be confirmed (it is ${h.status.replace('_', ' ')})`);
  const now = nowIso(ctx);
  await commitChange(ctx, h, { status: 'confirmed', confirmedAt: now, confirmedBy: by }, [], {
    action: 'haul_service.confirm',
    details: { by, note: note ?? null },
  });
  return await getHaulRow(ctx, h.id);
}

export async function confirmHaulService(ctx: Ctx, id: string, input: { note?: string }) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  return haulView(ctx, await confirmRow(ctx, h, ctx.principal.userId ?? ctx.principal.credentialId, input.note));
}

export async function startHaulService(ctx: Ctx, id: string, input: { note?: string; early?: boolean }) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  if (h.status !== 'confirmed')
    throw new ApiError('invalid_state', `Only a confirmed haul service can start (it is ${h.status.replace('_', ' ')}); confirm the schedule first`);
  const today = todayIn(ctx, (await getLocationInTenant(ctx, h.locationId)).timezone);
  requireDue(h.scheduledDate, today, input.early === true);
  const early = !!h.scheduledDate && h.scheduledDate > today;
  await commitChange(ctx, h, { status: 'in_progress', startedAt: nowIso(ctx) }, [], {
    action: 'haul_service.start',
    details: { note: input.note ?? null, ...(early ? { early: true, scheduledDate: h.scheduledDate } : {}) },
  });
  return haulView(ctx, await getHaulRow(ctx, h.id));
}

/**
 * Completes the work and posts the price to the slip reservation (fee lines, taxed at the
 * reservation's rate) in the same batch; a service without a reservation, or whose reservation was
 * cancelled or expired, keeps its price for separate billing (`chargedCents` stays null).
 */
export async function completeHaulService(ctx: Ctx, id: string, input: { note?: string }) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  if (h.status !== 'in_progress') throw new ApiError('invalid_state', `Only a haul service in progress can be completed (it is ${h.status.replace('_', ' ')})`);
  const patch: Partial<HaulRow> = { status: 'completed', completedAt: nowIso(ctx) };
  const extra: Stmt[] = [];
  const events: DomainEvent[] = [];
  let posted: { reservationId: string; chargedCents: number } | null = null;
  if (h.reservationId && h.pricing && h.pricing.subtotalCents > 0) {
    const r = await getReservationRow(ctx, h.reservationId);
    if (r.status !== 'cancelled' && r.status !== 'expired') {
      const change = await chargeLinesChange(
        ctx,
        r,
        {
          fees: h.pricing.lines.map((l) => ({
            name: `${h.serviceNumber} ${l.description}`,
            amountCents: l.amountCents,
            per: 'stay' as const,
            taxable: l.taxable,
          })),
        },
        'haul_service_charge',
        { haulServiceId: h.id, serviceNumber: h.serviceNumber },
      );
      extra.push(...change.stmts);
      events.push(...change.events);
      posted = { reservationId: r.id, chargedCents: change.row.totalCents - r.totalCents };
      patch.chargedCents = posted.chargedCents;
    }
  }
  await commitChange(ctx, h, patch, extra, { action: 'haul_service.complete', details: { note: input.note ?? null, posted } }, events);
  return haulView(ctx, await getHaulRow(ctx, h.id));
}

/** Cancels a service that has not started; its lifts are given back to the day. */
export async function cancelRow(ctx: Ctx, h: HaulRow, reason: string | null, by: 'staff' | 'renter') {
  if (h.status === 'cancelled') return h;
  if (!NOT_STARTED.includes(h.status))
    throw new ApiError('invalid_state', `A ${h.status.replace('_', ' ')} haul service cannot be cancelled (the work has started)`);
  const extra: Stmt[] = [ctx.db.delete(L).where(and(eq(L.serviceId, h.id), eq(L.customerId, h.customerId)))];
  if (by === 'staff' && h.status !== 'requested')
    extra.push(
      renterMail(
        ctx,
        h,
        `${LABEL[h.serviceType]} ${h.serviceNumber} cancelled`,
        `the ${LABEL[h.serviceType].toLowerCase()} of ${h.boat.vesselName} on ${h.scheduledDate ? formatCalendarDate(h.scheduledDate) : 'the scheduled day'} was cancelled by the marina.${reason ? ` Reason: ${reason}` : ''}`,
        'haul_service.cancelled',
      ),
    );
  await commitChange(ctx, h, { status: 'cancelled', cancelledAt: nowIso(ctx), cancelReason: reason }, extra, {
    action: 'haul_service.cancel',
    details: { by, reason },
  });
  return await getHaulRow(ctx, h.id);
}

export async function cancelHaulService(ctx: Ctx, id: string, input: { reason?: string }) {
  requirePermission(ctx, 'marina');
  return haulView(ctx, await cancelRow(ctx, await getHaulRow(ctx, id), input.reason ?? null, 'staff'));
}
