import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { ReservationSchema } from '../slip-reservations/service';
import { FLAG_REASONS, UTILITIES } from './types';

const id = () => z.string().trim().min(1).max(128);
const instant = () => z.string().datetime({ offset: true }).openapi({ description: 'ISO 8601 with offset (stored in UTC).' });
const bool = () => z.enum(['true', 'false']);

export const Reading = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    slipId: z.string(),
    utility: z.enum(UTILITIES),
    unit: z.string().openapi({ description: '`kWh` for electricity, `gal` for water.' }),
    meterId: z.string().nullable(),
    reading: z.number(),
    digits: z.number().int().openapi({ description: 'Digits of the meter: it rolls over from 10^digits − 1 to 0.' }),
    readAt: z.string(),
    previousReadingId: z.string().nullable(),
    previousValue: z.number().nullable(),
    usage: z.number().nullable().openapi({
      description: 'This reading − the previous one (across a rollover); null for the first reading of a meter or a reading below the previous one.',
    }),
    rollover: z.boolean(),
    flagged: z.boolean(),
    flagReasons: z.array(z.enum(FLAG_REASONS)),
    reviewedAt: z.string().nullable(),
    reviewedBy: z.string().nullable(),
    billed: z.boolean(),
    billedAt: z.string().nullable(),
    billingId: z.string().nullable(),
    billingReference: z.string().nullable(),
    reservationId: z.string().nullable().openapi({ description: 'The slip reservation the usage was charged to.' }),
    chargedCents: z.number().int().nullable(),
    notes: z.string().nullable(),
    readBy: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MeterReading');

export const ReadingList = z
  .object({ data: z.array(Reading), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('MeterReadingList');

export const History = ReadingList.extend({
  slipId: z.string(),
  usage: z.object({ electricity: z.number(), water: z.number() }).openapi({ description: 'Usage of the readings matching the filters (all pages).' }),
}).openapi('MeterReadingHistory');

export const Latest = z
  .object({
    slipId: z.string(),
    unitNumber: z.string(),
    electricity: Reading.nullable(),
    water: Reading.nullable(),
  })
  .openapi('MeterReadingsLatest');

export const UnbilledReading = Reading.extend({
  amountCents: z.number().int().openapi({ description: "The usage at the location's utility rate, rounded to the cent." }),
}).openapi('UnbilledMeterReading');

export const Unbilled = z
  .object({
    locationId: z.string(),
    rates: z.object({ electricityPerKwhCents: z.number(), waterPerGallonCents: z.number(), taxable: z.boolean() }),
    totals: z.object({
      electricity: z.object({ usage: z.number(), amountCents: z.number().int(), readings: z.number().int() }),
      water: z.object({ usage: z.number(), amountCents: z.number().int(), readings: z.number().int() }),
    }),
    data: z.array(UnbilledReading),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('UnbilledMeterReadings');

const UtilityStats = z.object({
  readings: z.number().int(),
  usage: z.number(),
  billedUsage: z.number(),
  unbilledUsage: z.number(),
  unbilledCents: z.number().int(),
});
export const Stats = z
  .object({
    locationId: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    readings: z.number().int(),
    unitsRead: z.number().int(),
    billed: z.number().int(),
    unbilled: z.number().int(),
    flagged: z.number().int(),
    awaitingReview: z.number().int().openapi({ description: 'Flagged and not reviewed: not charged until reviewed.' }),
    byUtility: z.object({ electricity: UtilityStats, water: UtilityStats }),
  })
  .openapi('MeterReadingStats');

export const MarkBilledResult = z.object({ billingId: z.string(), billed: z.number().int(), data: z.array(Reading) }).openapi('MeterReadingsMarkedBilled');

export const ChargeLine = z.object({
  utility: z.enum(UTILITIES),
  description: z.string(),
  usage: z.number(),
  rateCents: z.number(),
  amountCents: z.number().int(),
  readings: z.number().int(),
  taxable: z.boolean(),
});
export const AddToReservationResult = z
  .object({
    reservationId: z.string(),
    billingId: z.string(),
    lines: z.array(ChargeLine),
    chargedCents: z.number().int().openapi({ description: 'Sum of the lines (before tax).' }),
    reservationTotalCents: z.number().int(),
    previousTotalCents: z.number().int(),
    data: z.array(Reading),
    skipped: z
      .array(z.object({ id: z.string(), reason: z.string() }))
      .openapi({ description: 'Readings of the stay left unbilled (flagged and not reviewed).' }),
    reservation: ReservationSchema,
  })
  .openapi('MeterChargesAdded');

export const DeleteResult = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('MeterReadingDeleted');

// ---------------------------------------------------------------------------------------------
// Inputs

export const ListQuery = z.object({
  locationId: id().optional().openapi({ description: 'Required unless slipId or reservationId is given.' }),
  slipId: id().optional(),
  utility: z.enum(UTILITIES).optional(),
  billed: bool().optional(),
  flagged: bool().optional(),
  reservationId: id().optional().openapi({ description: 'Readings charged to this reservation.' }),
  from: instant().optional(),
  to: instant().optional(),
  limit: zLimit(500, 100),
  offset: zOffset(),
});
export const LocationQuery = z.object({
  locationId: id(),
  from: instant().optional(),
  to: instant().optional(),
});
export const UnbilledQuery = z.object({ locationId: id(), utility: z.enum(UTILITIES).optional(), limit: zLimit(1000, 200), offset: zOffset() });
export const UnitParams = z.object({ unitId: id() });
export const LatestQuery = z.object({ utility: z.enum(UTILITIES).optional() });
export const HistoryQuery = z.object({
  utility: z.enum(UTILITIES).optional(),
  from: instant().optional(),
  to: instant().optional(),
  limit: zLimit(500, 100),
  offset: zOffset(),
});
export const IdParams = z.object({ id: id() });

const value = () => z.number().finite().min(0).max(1e12);
const digits = () => z.number().int().min(1).max(12);

export const CreateBody = z
  .object({
    slipId: id(),
    utility: z.enum(UTILITIES),
    reading: value().openapi({ description: 'The value on the meter (kWh or gallons; decimals allowed).' }),
    digits: digits()
      .optional()
      .openapi({ description: "Digits of the meter (default: the meter's previous reading's, else 6); the reading must be below 10^digits." }),
    meterId: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .optional()
      .openapi({ description: 'Serial of the meter; a reading from another meter than the previous one starts a new series (no usage).' }),
    readAt: instant()
      .optional()
      .openapi({ description: "When the meter was read (default now; not in the future on the operator's clock, with five minutes' slack)." }),
    rollover: z.boolean().optional().openapi({ description: 'The meter went past 10^digits − 1 since the previous reading (detected by itself otherwise).' }),
    notes: z.string().trim().max(1000).optional(),
  })
  .strict()
  .openapi('RecordMeterReading');

export const UpdateBody = z
  .object({
    reading: value(),
    digits: digits(),
    meterId: z.string().trim().min(1).max(60).nullable(),
    readAt: instant(),
    rollover: z.boolean(),
    notes: z.string().trim().max(1000).nullable(),
    reviewed: z.literal(true).openapi({ description: 'Marks a flagged reading reviewed: it can then be charged.' }),
  })
  .partial()
  .strict()
  .openapi('UpdateMeterReading');

export const MarkBilledBody = z
  .object({
    ids: z.array(id()).min(1).max(500),
    billingReference: z.string().trim().min(1).max(200).optional().openapi({ description: 'Your invoice or statement number.' }),
  })
  .strict()
  .openapi('MarkMeterReadingsBilled');

export const AddToReservationBody = z
  .object({
    reservationId: id(),
    readingIds: z
      .array(id())
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: "Default: every unbilled reading with usage of the reservation's unit read during the stay (flagged ones only once reviewed)." }),
  })
  .strict()
  .openapi('AddMeterChargesToReservation');
