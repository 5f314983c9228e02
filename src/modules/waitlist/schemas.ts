import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zPage } from '../../lib/openapi';
import { isoDate } from '../../lib/time';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'expired', 'cancelled', 'closed'] as const;

/** A real calendar date (rejects 2027-02-30). */
export const zDate = () =>
  z
    .string()
    .trim()
    .regex(isoDate, 'must be a date YYYY-MM-DD')
    .refine((d) => {
      const [y, m, day] = d.split('-').map(Number);
      const t = new Date(Date.UTC(y, m - 1, day));
      return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === day;
    }, 'must be a real calendar date')
    .openapi({ example: '2027-06-01' });

export const zTime = () =>
  z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a local time HH:mm')
    .openapi({ example: '10:00' });

const zAddons = () =>
  z
    .union([z.array(z.unknown()).max(100), z.record(z.string(), z.unknown())])
    .openapi({ description: 'Stored as given and echoed back (the booking widget uses it to prefill the booking)' });

export const JoinBody = z
  .object({
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: zEmail(),
    date: zDate().openapi({ description: "Local date in the item location's time zone; today or later" }),
    inventoryId: zId('inv_01J0000000000000000000000'),
    locationId: zId('loc_01J0000000000000000000000'),
    time: zTime()
      .optional()
      .openapi({ description: 'Tours: one of the departures of that date (HH:mm). Rentals: the wanted start. Absent: any departure / any time that date.' }),
    duration: z
      .number()
      .int()
      .min(1)
      .max(24 * 31)
      .optional()
      .openapi({ description: 'Rentals: hours wanted (defaults to the shortest rental length of the item)' }),
    quantity: z.number().int().min(1).max(50).optional().openapi({ description: 'Seats (tours) or units (rentals) to hold when a spot is offered; default 1' }),
    customerId: zId('cus_01J0000000000000000000000').optional(),
    addons: zAddons().optional(),
    boatAddons: zAddons().optional(),
    giftCardCode: z.string().trim().max(64).optional(),
    refAffiliate: z.string().trim().max(128).optional(),
  })
  .openapi('JoinWaitlist');

export const Offer = z
  .object({
    offerId: z.string().openapi({ description: 'Also the id of the hold (`holds`) that keeps the spot' }),
    startTime: z.string(),
    endTime: z.string(),
    quantity: z.number().int(),
    assetIds: z.array(z.string()).openapi({ description: 'Rentals: the units held' }),
    offeredAt: z.string(),
    expiresAt: z.string(),
    bookingUrl: z.string(),
  })
  .openapi('WaitlistOffer');

export const Entry = z
  .object({
    entryId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    inventoryId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    date: z.string(),
    time: z.string().nullable(),
    duration: z.number().int().nullable(),
    quantity: z.number().int(),
    addons: z.unknown().nullable(),
    boatAddons: z.unknown().nullable(),
    giftCardCode: z.string().nullable(),
    refAffiliate: z.string().nullable(),
    status: z.enum(WAITLIST_STATUSES),
    offer: Offer.nullable(),
    bookedRentalId: z.string().nullable().openapi({ description: 'The booking that used the offer, when it could be identified' }),
    bookedAt: z.string().nullable(),
    expiredAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    closedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WaitlistEntry');

export const JoinResult = Entry.extend({
  created: z.boolean().openapi({ description: 'false when the same e-mail already waits for this item, date and time (that entry is answered, with 200)' }),
}).openapi('WaitlistJoinResult');

export const ListQuery = z.object({
  inventoryId: zId('inv_01J0000000000000000000000').optional(),
  locationId: zId('loc_01J0000000000000000000000').optional(),
  date: zDate().optional(),
  status: z.enum(WAITLIST_STATUSES).optional(),
  email: zEmail().optional(),
  page: zPage(),
  limit: zLimit(100, 50),
});

export const ListResult = z
  .object({
    data: z.array(Entry),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('WaitlistPage');

export const IdParams = z.object({ id: zId('wl_01J0000000000000000000000') });

export const CancelResult = Entry.extend({
  alreadyCancelled: z.boolean().openapi({ description: 'true when the entry was already cancelled (nothing changed)' }),
}).openapi('WaitlistCancelResult');

export const OfferBody = z
  .object({
    time: zTime().optional().openapi({ description: "Overrides the entry's time for this offer (needed for a rental entry without a time)" }),
    duration: z
      .number()
      .int()
      .min(1)
      .max(24 * 31)
      .optional()
      .openapi({ description: "Rentals: overrides the entry's duration (hours)" }),
  })
  .openapi('OfferWaitlistEntry');
