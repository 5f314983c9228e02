import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';
import { isValidTimeZone } from '../../lib/time';
import { isCalendarDate } from '../inventory/types';

const zTz = () =>
  z
    .string()
    .trim()
    .max(64)
    .refine(isValidTimeZone, 'must be an IANA time zone such as America/New_York')
    .optional()
    .openapi({ description: "Render times in this zone too (`displayTime`). Days and slots are always those of the location's own zone." });
const zMonth = () =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM')
    .openapi({ example: '2026-07' });
const zDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
    .refine(isCalendarDate, 'must be a real calendar date')
    .openapi({ example: '2026-07-04' });
const zInv = () => zId('inv_01J0000000000000000000000');
const zLoc = () => zId('loc_01J0000000000000000000000');

export const PreloadQuery = z.object({ inventoryId: zInv(), month: zMonth(), timezone: zTz() });
export const MonthQuery = z.object({ inventoryId: zInv(), locationId: zLoc(), month: zMonth(), timezone: zTz() });
export const DayQuery = z.object({ inventoryId: zInv(), locationId: zLoc(), date: zDate(), timezone: zTz() });
export const CheckQuery = z.object({
  inventoryId: zInv(),
  assetId: zId('ast_01J0000000000000000000000'),
  startUtc: z.coerce.number().int().min(0).max(32_503_680_000).openapi({ description: 'Unix seconds' }),
  endUtc: z.coerce.number().int().min(0).max(32_503_680_000).openapi({ description: 'Unix seconds' }),
  excludeRentalId: z.string().trim().min(1).max(128).optional().openapi({ description: 'Ignore this booking (when moving it)' }),
});
export const PopularityQuery = z.object({
  inventoryId: zInv(),
  locationId: zLoc(),
  dayOfWeek: z.string().trim().min(1).max(16).optional().openapi({ description: 'Monday..Sunday, mon..sun, or 0-6 with 0 = Sunday' }),
  duration: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 31)
    .optional()
    .openapi({ description: 'Only bookings of this many hours' }),
});
export const WindowQuery = z.object({
  inventoryId: zInv(),
  startTime: z.string().datetime({ offset: true }).openapi({ example: '2026-07-04T10:00:00-04:00' }),
  endTime: z.string().datetime({ offset: true }).openapi({ example: '2026-07-04T14:00:00-04:00' }),
  quantity: z.coerce.number().int().min(1).max(100).optional().openapi({ description: 'Rentals: assets wanted' }),
  seats: z.coerce.number().int().min(1).max(10_000).optional().openapi({ description: 'Tours: seats wanted' }),
  excludeRentalId: z.string().trim().min(1).max(128).optional(),
  source: z
    .enum(['operator', 'widget', 'channel', 'marketplace'])
    .optional()
    .openapi({ description: 'Apply the rules of this sales path (operator: no notice or advance-window rules)' }),
});

const ReasonSchema = z.object({ code: z.string(), message: z.string() });

export const Slot = z
  .object({
    startTime: z.string(),
    endTime: z.string(),
    time: z.string().openapi({ description: "Local start (HH:mm) in the location's zone" }),
    displayTime: z.string().optional(),
    displayDate: z.string().optional(),
    available: z.boolean(),
    unitsFree: z.number().nullable(),
    seatsFree: z.number().optional(),
    capacity: z.number(),
    reasons: z.array(z.string()).optional(),
  })
  .openapi('AvailabilitySlot');

const DaySummary = z
  .object({
    date: z.string(),
    weekday: z.string(),
    status: z.enum(['available', 'sold_out', 'closed', 'unavailable']),
    available: z.boolean(),
    slotsTotal: z.number(),
    slotsAvailable: z.number(),
    unitsFree: z.number().nullable(),
    seatsFree: z.number().optional(),
    slots: z.array(Slot).optional(),
  })
  .openapi('DayAvailabilitySummary');

const Header = {
  inventoryId: z.string(),
  locationId: z.string(),
  name: z.string(),
  type: z.enum(['rental', 'tour']),
  timezone: z.string(),
  displayTimezone: z.string(),
};

export const MonthResult = z.object({ ...Header, month: z.string(), days: z.array(DaySummary) }).openapi('MonthAvailability');
export const DayResult = z
  .object({
    ...Header,
    date: z.string(),
    summary: DaySummary,
    open: z.string().nullable(),
    close: z.string().nullable(),
    slots: z.array(Slot),
    bookings: z
      .array(
        z.object({
          startTime: z.string(),
          endTime: z.string(),
          displayStart: z.string().optional(),
          displayEnd: z.string().optional(),
          assetId: z.string().nullable(),
          kind: z.enum(['booked', 'held', 'blocked']),
          seats: z.number().optional(),
        }),
      )
      .openapi({ description: 'Busy intervals (no renter data)' }),
  })
  .openapi('DayAvailability');
export const CheckResult = z
  .object({
    inventoryId: z.string(),
    assetId: z.string(),
    startUtc: z.number(),
    endUtc: z.number(),
    available: z.boolean(),
    turnaroundBufferMinutes: z.number(),
    conflicts: z.array(z.object({ startTime: z.string(), endTime: z.string(), kind: z.string() })),
    reasons: z.array(ReasonSchema).optional(),
  })
  .openapi('AssetAvailability');
export const PopularityResult = z
  .object({
    ...Header,
    dayOfWeek: z.string().nullable(),
    duration: z.number().nullable(),
    totalBookings: z.number(),
    slots: z.array(z.object({ time: z.string(), bookings: z.number(), share: z.number(), popularity: z.enum(['none', 'low', 'medium', 'high']) })),
  })
  .openapi('TimeSlotPopularity');
export const WindowResult = z
  .object({
    available: z.boolean(),
    unitsFree: z.number().nullable(),
    seatsFree: z.number().optional(),
    capacity: z.number().optional(),
    reasons: z.array(ReasonSchema).optional(),
  })
  .openapi('ItemAvailability');
