import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { isoDate } from '../../lib/time';
import { RATE_TYPES } from '../marina-settings/service';
import { BoatInputSchema, BoatSchema, RenterInputSchema, ReservationSchema } from '../slip-reservations/service';
import { UNIT_TYPES } from '../slips/service';
import { OFFER_STATUSES, WAITLIST_STATUSES } from './types';

const id = () => z.string().trim().min(1).max(128);
const date = () => z.string().regex(isoDate, 'must be a date YYYY-MM-DD');

export const Offer = z
  .object({
    id: z.string(),
    entryId: z.string(),
    slipId: z.string(),
    unitNumber: z.string().nullable(),
    reservationId: z
      .string()
      .openapi({ description: 'The reservation that holds the unit (`awaiting_payment`, source `waitlist`) and becomes the stay on accept.' }),
    arrivalDate: z.string(),
    departureDate: z.string(),
    rateType: z.string(),
    status: z.enum(OFFER_STATUSES),
    expiresAt: z.string().openapi({ description: 'The hold ends at this instant; an offer not answered by then expires.' }),
    totalCents: z.number().int(),
    message: z.string().nullable(),
    respondedAt: z.string().nullable(),
    responseNote: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('SlipWaitlistOffer');

export const Entry = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    renterId: z.string(),
    renter: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string(), phone: z.string().nullable() }),
    boat: BoatSchema,
    unitType: z.enum(UNIT_TYPES).nullable().openapi({ description: 'null: any unit type.' }),
    section: z.string().nullable(),
    preferredSlipId: z.string().nullable(),
    rateType: z.enum(RATE_TYPES),
    arrivalDate: z.string().nullable(),
    departureDate: z.string().nullable(),
    season: z.string().nullable(),
    status: z.enum(WAITLIST_STATUSES),
    queuePosition: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Place in the queue of the location (1 = next), among waiting entries; null when not waiting.' }),
    source: z.string(),
    notes: z.string().nullable(),
    offerCount: z.number().int(),
    declineCount: z.number().int(),
    currentOffer: Offer.nullable(),
    acceptedReservationId: z.string().nullable(),
    acceptedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    cancelReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipWaitlistEntry');

export const EntryDetail = Entry.extend({ offers: z.array(Offer) }).openapi('SlipWaitlistEntryDetail');
export const EntryList = z
  .object({ data: z.array(Entry), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipWaitlistEntryList');

export const OfferResult = z.object({ entry: Entry, offer: Offer, reservation: ReservationSchema }).openapi('SlipWaitlistOfferResult');

export const FitRefusal = z.object({ dimension: z.string(), requiredFt: z.number(), availableFt: z.number(), shortByFt: z.number(), message: z.string() });
export const Match = z
  .object({
    entry: Entry,
    available: z
      .boolean()
      .nullable()
      .openapi({ description: 'Whether the unit is free for the dates (the query dates, else the entry dates); null when neither gives dates.' }),
    arrivalDate: z.string().nullable(),
    departureDate: z.string().nullable(),
  })
  .openapi('SlipWaitlistMatch');
export const MatchList = z
  .object({
    unit: z.object({ id: z.string(), unitNumber: z.string(), section: z.string().nullable(), unitType: z.enum(UNIT_TYPES), locationId: z.string() }),
    data: z.array(Match),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .openapi('SlipWaitlistMatches');

export const Stats = z
  .object({
    locationId: z.string().nullable(),
    byStatus: z.record(z.string(), z.number().int()),
    openByRateType: z.record(z.string(), z.number().int()),
    offers: z.record(z.string(), z.number().int()),
    acceptanceRatePercent: z.number().nullable(),
    averageWaitDays: z.number().nullable().openapi({ description: 'From joining to accepting, over accepted entries.' }),
    oldestWaitingSince: z.string().nullable(),
  })
  .openapi('SlipWaitlistStats');

export const DeleteResult = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('SlipWaitlistEntryDeleted');

export const ListQuery = z.object({
  locationId: id(),
  status: z.enum(WAITLIST_STATUSES).optional(),
  rateType: z.enum(RATE_TYPES).optional(),
  unitType: z.enum(UNIT_TYPES).optional(),
  q: z.string().trim().min(1).max(60).optional().openapi({ description: 'Renter name or e-mail, or vessel name (substring).' }),
  limit: zLimit(200, 50),
  offset: zOffset(),
});
export const PageQuery = z.object({ limit: zLimit(200, 50), offset: zOffset() });
export const StatsQuery = z.object({ locationId: id().optional() });
export const MatchQuery = z.object({
  arrivalDate: date().optional(),
  departureDate: date().optional(),
  limit: zLimit(100, 20),
  offset: zOffset(),
});
export const IdParams = z.object({ id: id() });
export const RenterParams = z.object({ renterId: id() });
export const UnitParams = z.object({ unitId: id() });

const Wish = {
  unitType: z.enum(UNIT_TYPES).nullable().optional().openapi({ description: 'Default: any unit type.' }),
  section: z.string().trim().min(1).max(60).nullable().optional(),
  preferredSlipId: id().nullable().optional(),
  rateType: z.enum(RATE_TYPES),
  arrivalDate: date().optional(),
  departureDate: date().optional().openapi({ description: 'The day the boat would leave (exclusive).' }),
  season: z.string().trim().min(1).max(60).optional().openapi({ description: 'A season when the dates are not known yet, such as "Summer 2027".' }),
  notes: z.string().max(2000).optional(),
};

export const CreateBody = z
  .object({
    locationId: id(),
    renterId: id().optional(),
    renter: RenterInputSchema.optional(),
    boat: BoatInputSchema,
    ...Wish,
  })
  .strict()
  .openapi('CreateSlipWaitlistEntry');

export const UpdateBody = z
  .object({
    boat: BoatInputSchema.partial().strict().optional(),
    ...Wish,
    rateType: z.enum(RATE_TYPES).optional(),
    arrivalDate: date().nullable().optional(),
    departureDate: date().nullable().optional(),
    season: z.string().trim().min(1).max(60).nullable().optional(),
    notes: z.string().max(2000).nullable().optional(),
    moveTo: z.enum(['top', 'bottom']).optional().openapi({ description: 'Move the entry to the top or the bottom of the queue.' }),
  })
  .strict()
  .openapi('UpdateSlipWaitlistEntry');

export const OfferBody = z
  .object({
    slipId: id().openapi({ description: "The unit offered (of the entry's location)." }),
    arrivalDate: date().optional().openapi({ description: "Default: the entry's dates." }),
    departureDate: date().optional(),
    rateType: z.enum(RATE_TYPES).optional().openapi({ description: "Default: the entry's rate type." }),
    holdHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .optional()
      .openapi({ description: "How long the unit is held for the answer. Default: the location's `waitlistOfferHoldHours` (72)." }),
    message: z.string().max(2000).optional().openapi({ description: 'Added to the offer e-mail.' }),
    overrideFit: z.boolean().default(false).openapi({ description: 'Offer a unit the boat does not fit, or of another unit type (staff override; audited).' }),
  })
  .strict();
export const AnswerBody = z.object({ note: z.string().trim().max(1000).optional() }).strict();
export const CancelBody = z.object({ reason: z.string().trim().max(1000).optional() }).strict();

/** The public join from a unit's page (public-slips module). */
export const PublicJoinBody = z
  .object({
    renter: RenterInputSchema,
    boat: BoatInputSchema,
    rateType: z.enum(RATE_TYPES),
    arrivalDate: date().optional(),
    departureDate: date().optional(),
    season: z.string().trim().min(1).max(60).optional(),
    notes: z.string().max(2000).optional(),
  })
  .strict()
  .openapi('PublicSlipWaitlistJoin');
export const PublicJoinResult = z
  .object({
    entryId: z.string(),
    status: z.enum(WAITLIST_STATUSES),
    locationId: z.string(),
    queuePosition: z.number().int().nullable(),
    joinedAt: z.string(),
  })
  .openapi('PublicSlipWaitlistJoined');
