import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import type { BookingCancelled, BookingRescheduled } from '../../lib/hooks';
import { newId } from '../../lib/ids';
import { nowIso, nowMs } from '../../lib/clock';
import { formatLocalDateTime } from '../../lib/local-time';
import { scheduledCommunications } from '../../db/schema/communications';
import { getBookingRow, type BookingRow } from '../bookings/service';
import { getLocationInTenant } from '../locations/service';
import type { TRIGGERS } from './schemas';
import { TEMPLATES, type TemplateId } from './templates';
import { scheduleOut, type ScheduleRow } from './views';

export type Trigger = (typeof TRIGGERS)[number];

/** Triggers whose send time follows the booking's window (recomputed when it is rescheduled). */
export const ANCHORED: readonly Trigger[] = ['before_start', 'after_start', 'after_end'];
/** A send time computed more than this far in the past is skipped (never sent late). */
export const PAST_TOLERANCE_MS = 60_000;
const MIN = 60_000;

const bad = (message: string, field: string) => new ApiError('bad_request', message, { details: [{ field, message }] });

/**
 * When a message is due, computed when its triggering event happens: `immediate` = now + delay;
 * `before_start` = start - delay; `after_start` = start + delay; `after_end` = end + delay;
 * `on_cancel` = cancellation + delay (null while the booking is not cancelled).
 */
export function sendTimeOf(trigger: Trigger, delayMinutes: number, b: Pick<BookingRow, 'start' | 'end' | 'cancelledAt'> | null, now: number): number | null {
  const d = delayMinutes * MIN;
  switch (trigger) {
    case 'immediate':
      return now + d;
    case 'before_start':
      return b ? b.start - d : null;
    case 'after_start':
      return b ? b.start + d : null;
    case 'after_end':
      return b ? b.end + d : null;
    case 'on_cancel':
      return b?.cancelledAt ? Date.parse(b.cancelledAt) + d : null;
  }
}

const pastReason = (at: number, tz: string) => `send_time_passed: the computed send time ${formatLocalDateTime(at, tz)} is already past; not sent late`;

export interface ScheduleInput {
  customerId: string;
  locationId: string;
  templateId: TemplateId;
  recipientEmail: string;
  rentalId?: string;
  delayMinutes: number;
  trigger: Trigger;
  conditions?: Record<string, unknown>;
}

export async function scheduleCommunication(ctx: Ctx, input: ScheduleInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  const location = await getLocationInTenant(ctx, input.locationId);
  const booking = input.rentalId ? await getBookingRow(ctx, input.rentalId) : null;
  if (booking && booking.locationId !== location.id) throw bad('rentalId is a booking of another location', 'rentalId');
  if (!booking && input.trigger !== 'immediate') throw bad(`trigger ${input.trigger} needs a rentalId`, 'rentalId');
  if (!booking && input.conditions && Object.keys(input.conditions).length) throw bad('conditions are checked against a booking: give rentalId', 'rentalId');
  if (!booking && TEMPLATES[input.templateId].needsBooking) throw bad(`template ${input.templateId} needs a rentalId`, 'rentalId');
  if (booking?.status === 'cancelled' && input.trigger !== 'on_cancel') throw bad('The booking is cancelled', 'rentalId');

  const now = nowMs(ctx);
  const at = sendTimeOf(input.trigger, input.delayMinutes, booking, now);
  const stamp = new Date(now).toISOString();
  const row: ScheduleRow = {
    id: newId('sch'),
    customerId,
    locationId: location.id,
    templateId: input.templateId,
    recipientEmail: input.recipientEmail,
    rentalId: booking?.id ?? null,
    delayMinutes: input.delayMinutes,
    trigger: input.trigger,
    conditions: input.conditions ?? {},
    status: at === null ? 'waiting' : at < now - PAST_TOLERANCE_MS ? 'skipped' : 'pending',
    sendAt: at === null ? null : new Date(at).toISOString(),
    statusReason: at !== null && at < now - PAST_TOLERANCE_MS ? pastReason(at, location.timezone) : null,
    messageId: null,
    claimedAt: null,
    processedAt: at !== null && at < now - PAST_TOLERANCE_MS ? stamp : null,
    createdBy: ctx.principal.userId ?? ctx.principal.credentialId,
    createdAt: stamp,
    updatedAt: stamp,
  };
  await commit(ctx, [ctx.db.insert(scheduledCommunications).values(row)], {
    audit: {
      action: 'communication.schedule',
      targetType: 'scheduled_communication',
      targetId: row.id,
      details: { templateId: row.templateId, trigger: row.trigger, rentalId: row.rentalId, sendAt: row.sendAt, status: row.status },
    },
  });
  return scheduleOut(row);
}

async function getScheduleRow(ctx: Ctx, id: string): Promise<ScheduleRow> {
  const row = await ctx.db
    .select()
    .from(scheduledCommunications)
    .where(and(eq(scheduledCommunications.id, id), eq(scheduledCommunications.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Scheduled communication');
  return row;
}

/** Cancels a waiting or pending message (again: answers it as is); one already processed is 409. */
export async function cancelSchedule(ctx: Ctx, id: string) {
  const row = await getScheduleRow(ctx, id);
  if (row.status === 'cancelled') return scheduleOut(row);
  const now = nowIso(ctx);
  const done = await ctx.db
    .update(scheduledCommunications)
    .set({ status: 'cancelled', statusReason: 'cancelled by the operator', processedAt: now, updatedAt: now })
    .where(and(eq(scheduledCommunications.id, row.id), inArray(scheduledCommunications.status, ['waiting', 'pending'])))
    .returning()
    .get();
  if (!done) {
    const current = await getScheduleRow(ctx, id);
    throw new ApiError('invalid_state', `A ${current.status} scheduled communication cannot be cancelled`, { extra: { status: current.status } });
  }
  await commit(ctx, [], { audit: { action: 'communication.schedule_cancel', targetType: 'scheduled_communication', targetId: row.id } });
  return scheduleOut(done);
}

export async function listSchedulesForRental(ctx: Ctx, rentalId: string) {
  const b = await getBookingRow(ctx, rentalId);
  const rows = await ctx.db
    .select()
    .from(scheduledCommunications)
    .where(and(eq(scheduledCommunications.customerId, b.customerId), eq(scheduledCommunications.rentalId, b.id)))
    .orderBy(asc(scheduledCommunications.createdAt), asc(scheduledCommunications.id))
    .all();
  return { data: rows.map(scheduleOut) };
}

// ------------------------------------------------------------------------------------------------
// Hooks: the booking lifecycle moves pending messages

/** A cancelled booking cancels its pending messages and starts its `on_cancel` ones. */
export async function onBookingCancelled(ctx: Ctx, e: BookingCancelled) {
  const now = nowIso(ctx);
  const t = scheduledCommunications;
  await ctx.db
    .update(t)
    .set({ status: 'cancelled', statusReason: 'booking_cancelled: the booking was cancelled', processedAt: now, updatedAt: now })
    .where(and(eq(t.customerId, e.customerId), eq(t.rentalId, e.rentalId), inArray(t.status, ['waiting', 'pending']), ne(t.trigger, 'on_cancel')));
  const waiting = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.customerId, e.customerId), eq(t.rentalId, e.rentalId), eq(t.status, 'waiting'), eq(t.trigger, 'on_cancel')))
    .all();
  for (const w of waiting) {
    const at = sendTimeOf('on_cancel', w.delayMinutes, { start: 0, end: 0, cancelledAt: e.cancelledAt }, nowMs(ctx))!;
    await ctx.db
      .update(t)
      .set({ status: 'pending', sendAt: new Date(at).toISOString(), updatedAt: now })
      .where(and(eq(t.id, w.id), eq(t.status, 'waiting')));
  }
}

/** A rescheduled booking moves the send time of its pending anchored messages (skipped when the new time is past). */
export async function onBookingRescheduled(ctx: Ctx, e: BookingRescheduled) {
  const t = scheduledCommunications;
  const rows = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.customerId, e.customerId), eq(t.rentalId, e.rentalId), eq(t.status, 'pending'), inArray(t.trigger, [...ANCHORED])))
    .all();
  const now = nowMs(ctx);
  const at0 = new Date(now).toISOString();
  const zones = new Map<string, string>();
  const zoneOf = async (locationId: string) => {
    if (!zones.has(locationId)) zones.set(locationId, (await getLocationInTenant(ctx, locationId).catch(() => null))?.timezone ?? 'UTC');
    return zones.get(locationId)!;
  };
  for (const r of rows) {
    const at = sendTimeOf(r.trigger as Trigger, r.delayMinutes, { start: e.start, end: e.end, cancelledAt: null }, now)!;
    const past = at < now - PAST_TOLERANCE_MS;
    await ctx.db
      .update(t)
      .set(
        past
          ? {
              status: 'skipped',
              sendAt: new Date(at).toISOString(),
              statusReason: `${pastReason(at, await zoneOf(r.locationId))} (booking rescheduled)`,
              processedAt: at0,
              updatedAt: at0,
            }
          : { sendAt: new Date(at).toISOString(), updatedAt: at0 },
      )
      .where(and(eq(t.id, r.id), eq(t.status, 'pending')));
  }
}
