import type { z } from '@hono/zod-openapi';
import type { staffSchedules } from '../../db/schema/locations';
import type { Shift } from './schemas';

export type ShiftRow = typeof staffSchedules.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

/** A shift as the API answers it (`StaffShift`); with `occurrences` (expanded for a window: ./recurrence.ts), those too. */
export function shiftOut(r: ShiftRow, occurrences?: { start: number; end: number }[]): z.output<typeof Shift> {
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
  if (!occurrences) return base;
  return { ...base, occurrences: occurrences.map((o) => ({ startTime: iso(o.start), endTime: iso(o.end) })) };
}
