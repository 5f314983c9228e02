import { z } from '@hono/zod-openapi';

const WEEKDAY = z.enum(['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU']);
const isoInstant = () => z.string().datetime({ offset: true }).openapi({ example: '2026-12-01T09:00:00-05:00' });

export const RecurrencePattern = z
  .object({
    frequency: z.enum(['daily', 'weekly', 'monthly']),
    interval: z.number().int().min(1).max(52).default(1),
    byWeekday: z.array(WEEKDAY).max(7).optional().openapi({ description: 'Weekdays for weekly shifts (RFC 5545 two-letter codes).' }),
    until: z.string().datetime({ offset: true }).optional(),
    count: z.number().int().min(1).max(1000).optional(),
  })
  .openapi('RecurrencePattern', {
    description: "Repeats the shift at the first occurrence's local wall-clock times; turned into an RFC 5545 RRULE in the location's zone (TZID).",
  });

export const Shift = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    staffId: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    recurring: z.boolean(),
    recurrencePattern: z.record(z.string(), z.unknown()).nullable(),
    rrule: z.string().nullable(),
    templateId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    occurrences: z.array(z.object({ startTime: z.string(), endTime: z.string() })).optional(),
  })
  .openapi('StaffShift');

export const CreateBody = z
  .object({
    customerId: z.string().min(1).max(128),
    locationId: z.string().min(1).max(128),
    staffId: z.string().min(1).max(128),
    startTime: isoInstant(),
    endTime: isoInstant(),
    recurring: z.boolean().optional(),
    recurrencePattern: RecurrencePattern.optional(),
    templateId: z.string().max(128).optional(),
  })
  .openapi('CreateStaffShift');

export const UpdateBody = z
  .object({
    startTime: isoInstant().optional(),
    endTime: isoInstant().optional(),
    recurring: z.boolean().optional(),
    recurrencePattern: RecurrencePattern.nullable().optional(),
  })
  .openapi('UpdateStaffShift');

export const ListQuery = z.object({
  locationId: z.string().max(128).optional(),
  customerId: z.string().max(128).optional(),
  staffId: z.string().max(128).optional(),
  from: z
    .string()
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'With `to`, expands recurring shifts into occurrences in the window (at most 62 days).' }),
  to: z.string().datetime({ offset: true }).optional(),
});

export const IdParam = z.object({ id: z.string().min(1).max(128) });

const reason = z.string().trim().max(500).openapi({ example: 'Vacation' });

export const CreateTimeOffBody = z
  .object({
    staffId: z.string().trim().min(1).max(128).openapi({ description: 'A user of the account' }),
    startTime: isoInstant(),
    endTime: isoInstant(),
    reason: reason.optional(),
  })
  .openapi('CreateStaffTimeOff');

export const UpdateTimeOffBody = z
  .object({ startTime: isoInstant().optional(), endTime: isoInstant().optional(), reason: reason.nullable().optional() })
  .openapi('UpdateStaffTimeOff');

export const TimeOffQuery = z.object({
  staffId: z.string().max(128).optional(),
  from: z.string().datetime({ offset: true }).optional().openapi({ description: 'Only time off ending after this instant' }),
  to: z.string().datetime({ offset: true }).optional().openapi({ description: 'Only time off starting before this instant' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const TimeOff = z
  .object({
    id: z.string(),
    customerId: z.string(),
    staffId: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    reason: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('StaffTimeOff');

export const TimeOffWritten = TimeOff.extend({
  assignments: z
    .array(z.object({ rentalId: z.string(), startTime: z.string(), endTime: z.string() }))
    .openapi({ description: 'Active bookings the person is assigned to during the time off: reassign them (the time off is recorded anyway)' }),
}).openapi('StaffTimeOffWritten');

export const TimeOffList = z
  .object({ data: z.array(TimeOff), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('StaffTimeOffList');
