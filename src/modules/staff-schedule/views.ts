import type { z } from '@hono/zod-openapi';
import type { staffSchedules } from '../../db/schema/locations';
import { buildRule, type Pattern } from './recurrence';
import type { Shift } from './schemas';

export type ShiftRow = typeof staffSchedules.$inferSelect;

/** A shift as the API answers it (`StaffShift`); with a window, its occurrences that overlap the window. */
export function shiftOut(r: ShiftRow, window?: { from: Date; to: Date }): z.output<typeof Shift> {
  const base = {
    id: r.id,
    customerId: r.customerId,
    locationId: r.locationId,
    staffId: r.staffId,
    startTime: r.startTime,
    endTime: r.endTime,
    recurring: r.recurring,
    recurrencePattern: r.recurrencePattern,
    rrule: r.rrule,
    templateId: r.templateId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  if (!window) return base;
  const duration = Date.parse(r.endTime) - Date.parse(r.startTime);
  let starts: Date[];
  if (r.recurring && r.recurrencePattern) {
    // Look back one shift length so a shift that started before `from` and is still running is included.
    starts = buildRule(r.startTime, r.recurrencePattern as Pattern).between(new Date(window.from.getTime() - duration), window.to, true);
  } else {
    starts = [new Date(r.startTime)];
  }
  const occurrences = starts
    .filter((s) => s.getTime() < window.to.getTime() && s.getTime() + duration > window.from.getTime())
    .map((s) => ({ startTime: s.toISOString(), endTime: new Date(s.getTime() + duration).toISOString() }));
  return { ...base, occurrences };
}
