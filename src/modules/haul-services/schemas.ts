import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { isoDate } from '../../lib/time';
import { HAUL_SERVICE_TYPES } from '../marina-settings/service';
import { RenterInputSchema } from '../slip-reservations/service';
import { HAUL_STATUSES, LIFT_KINDS } from './types';

const id = () => z.string().trim().min(1).max(128);
const date = () => z.string().regex(isoDate, 'must be a date YYYY-MM-DD');
const ft = () => z.number().finite().positive().max(500);
const cents = () => z.number().int().min(0).max(100_000_000);

export const HaulBoat = z
  .object({
    vesselName: z.string(),
    loaFt: z.number(),
    beamFt: z.number().nullable(),
    draftFt: z.number().nullable(),
    weightLbs: z.number().nullable(),
  })
  .openapi('HaulBoat');

export const HaulBoatIn = z
  .object({
    vesselName: z.string().trim().min(1).max(120),
    loaFt: ft().openapi({ description: 'Length overall, feet (prices are per foot of LOA).' }),
    beamFt: ft().nullable().optional(),
    draftFt: ft().nullable().optional(),
    weightLbs: z
      .number()
      .finite()
      .positive()
      .max(2_000_000)
      .nullable()
      .optional()
      .openapi({ description: 'Displacement in pounds (the lift operator checks it against the lift).' }),
  })
  .strict()
  .openapi('HaulBoatInput');

export const PricingLine = z.object({ description: z.string(), amountCents: z.number().int(), taxable: z.boolean() });
export const Pricing = z
  .object({
    lines: z.array(PricingLine),
    subtotalCents: z.number().int(),
    taxRatePercent: z.number(),
    taxCents: z.number().int(),
    totalCents: z.number().int(),
  })
  .openapi('HaulPricing');

export const Photo = z
  .object({
    id: z.string(),
    url: z.string().openapi({ description: 'GET with staff credentials.' }),
    contentType: z.string(),
    sizeBytes: z.number().int(),
    caption: z.string().nullable(),
    uploadedAt: z.string(),
  })
  .openapi('HaulPhoto');

export const Lift = z.object({ date: z.string(), kind: z.enum(LIFT_KINDS) }).openapi('HaulLift');

export const HaulService = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    serviceNumber: z.string(),
    serviceType: z.enum(HAUL_SERVICE_TYPES),
    status: z.enum(HAUL_STATUSES),
    reservationId: z.string().nullable(),
    slipId: z.string().nullable(),
    renterId: z.string(),
    renter: z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable() }),
    boat: HaulBoat,
    requestedDate: z.string(),
    requestedReturnDate: z.string().nullable(),
    scheduledDate: z.string().nullable(),
    scheduledTime: z.string().nullable(),
    returnDate: z.string().nullable(),
    destination: z.string().nullable(),
    lifts: z.array(Lift).openapi({ description: 'The lifts the schedule takes (each counts against the daily lift capacity).' }),
    pricing: Pricing.nullable().openapi({ description: 'Set when the service is scheduled.' }),
    chargedCents: z.number().int().nullable().openapi({ description: "What completing the service added to the reservation's total (null while not posted)." }),
    photos: z.array(Photo),
    notes: z.string().nullable(),
    staffNotes: z.string().nullable(),
    requestedVia: z.string().openapi({ description: '`staff` or `portal`.' }),
    scheduledAt: z.string().nullable(),
    confirmedAt: z.string().nullable(),
    confirmedBy: z.string().nullable(),
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('HaulService');

export const HaulServiceList = z
  .object({ data: z.array(HaulService), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('HaulServiceList');

export const DayPlan = z
  .object({
    locationId: z.string(),
    date: z.string(),
    capacity: z.number().int().openapi({ description: 'Lifts the yard can do that day (slip settings `dailyLiftCapacity`).' }),
    liftsBooked: z.number().int(),
    liftsLeft: z.number().int(),
    data: z.array(HaulService),
    total: z.number().int(),
  })
  .openapi('HaulDayPlan');

export const Stats = z
  .object({
    locationId: z.string(),
    total: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
    byType: z.record(z.string(), z.number().int()),
    today: z.object({ date: z.string(), liftsBooked: z.number().int(), capacity: z.number().int() }),
    upcoming7Days: z.number().int().openapi({ description: 'Scheduled or confirmed services in the next 7 days (today included).' }),
    awaitingSchedule: z.number().int().openapi({ description: 'Requested services without a date yet.' }),
    completedRevenueCents: z.number().int().openapi({ description: 'Sum of the priced totals of completed services.' }),
  })
  .openapi('HaulServiceStats');

export const DeleteResult = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('HaulServiceDeleted');

// ---------------------------------------------------------------------------------------------
// Inputs

export const ListQuery = z.object({
  locationId: id(),
  status: z.enum(HAUL_STATUSES).optional(),
  serviceType: z.enum(HAUL_SERVICE_TYPES).optional(),
  startDate: date().optional().openapi({ description: 'Services on or after this date (the scheduled date, else the requested date).' }),
  endDate: date().optional().openapi({ description: 'Services on or before this date.' }),
  limit: zLimit(200, 50),
  offset: zOffset(),
});
export const PageQuery = z.object({ limit: zLimit(200, 50), offset: zOffset() });
export const StatsQuery = z.object({ locationId: id() });
export const DayParams = z.object({ date: date() });
export const DayQuery = z.object({ locationId: id() });
export const IdParams = z.object({ id: id() });
export const RenterParams = z.object({ renterId: id() });
export const ReservationParams = z.object({ reservationId: id() });
export const PhotoParams = z.object({ id: id(), photoId: id() });

const RequestFields = {
  serviceType: z.enum(HAUL_SERVICE_TYPES),
  requestedDate: date().openapi({ description: 'The day the renter wants the (first) lift.' }),
  requestedReturnDate: date().optional().openapi({ description: 'Round trip, haul and hold: the day the boat goes back in.' }),
  destination: z.string().trim().max(200).optional().openapi({ description: 'Relocation: where the boat goes (another slip, the yard, a trailer).' }),
  notes: z.string().trim().max(2000).optional(),
};

export const CreateBody = z
  .object({
    locationId: id().optional().openapi({ description: "Required unless reservationId is given (then the reservation's location)." }),
    reservationId: id().optional().openapi({ description: 'A slip reservation of the boat: renter, unit and boat come from it.' }),
    renterId: id().optional(),
    renter: RenterInputSchema.optional().openapi({ description: 'A new or known renter (by e-mail) when neither reservationId nor renterId is given.' }),
    slipId: id().optional(),
    boat: HaulBoatIn.partial()
      .strict()
      .optional()
      .openapi({ description: "Required (with vesselName and loaFt) without a reservation; with one, the fields given replace the reservation's boat." }),
    ...RequestFields,
    staffNotes: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi('CreateHaulService');

/** What a renter sends in the tenant portal (the reservation gives the rest). */
export const PortalRequestBody = z
  .object({ ...RequestFields, weightLbs: z.number().finite().positive().max(2_000_000).optional() })
  .strict()
  .openapi('RequestHaulService');

export const UpdateBody = z
  .object({
    serviceType: z.enum(HAUL_SERVICE_TYPES),
    boat: HaulBoatIn.partial().strict(),
    requestedDate: date(),
    requestedReturnDate: date().nullable(),
    destination: z.string().trim().max(200).nullable(),
    notes: z.string().trim().max(2000).nullable(),
    staffNotes: z.string().trim().max(2000).nullable(),
  })
  .partial()
  .strict()
  .openapi('UpdateHaulService');

export const ScheduleBody = z
  .object({
    scheduledDate: date(),
    scheduledTime: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm')
      .optional()
      .openapi({ description: 'Local time of the (first) lift.' }),
    returnDate: date().optional().openapi({ description: 'Round trip and haul and hold: the day of the second lift (round trip: default the same day).' }),
    pricing: z
      .object({
        lines: z
          .array(z.object({ description: z.string().trim().min(1).max(200), amountCents: cents(), taxable: z.boolean().default(true) }).strict())
          .min(1)
          .max(20)
          .optional()
          .openapi({ description: "Replace the default line (the location's haul rate for the type × LOA)." }),
        taxRatePercent: z.number().finite().min(0).max(100).optional(),
      })
      .strict()
      .optional(),
    staffNotes: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi('ScheduleHaulService');

export const NoteBody = z.object({ note: z.string().trim().max(1000).optional() }).strict();
export const StartBody = NoteBody.extend({
  early: z.boolean().optional().openapi({
    description: 'Start before the scheduled day at the location on purpose (recorded in the audit log); else an early start answers 409 `haul_not_due`.',
  }),
})
  .strict()
  .openapi('HaulServiceStart');
export const CancelBody = z.object({ reason: z.string().trim().max(500).optional() }).strict();

export const PhotoForm = z.object({
  file: z.file().describe('One or more image parts (JPEG, PNG, WebP or HEIC by content, at most 10 MB each, at most 10 per request).'),
  caption: z.string().max(300).optional(),
});
