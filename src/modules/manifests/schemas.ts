import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const ManifestParams = z.object({ locationId: zId('loc_01J0000000000000000000000') });

export const ManifestQuery = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
    .optional()
    .openapi({ description: "The location's local date (YYYY-MM-DD); today there when left out", example: '2026-07-04' }),
  format: z.enum(['json', 'csv', 'pdf']).optional().openapi({ description: 'json, csv (RFC 4180) or pdf; else from `Accept`, else json' }),
});

const Person = z.object({ name: z.string(), waiver: z.enum(['signed', 'missing']) });

export const ManifestBooking = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    status: z.string(),
    startTime: z.string().openapi({ description: 'UTC' }),
    endTime: z.string(),
    localStart: z.string().openapi({ description: 'Local wall-clock start (HH:MM)', example: '10:00' }),
    localEnd: z.string().openapi({ example: '12:00' }),
    item: z.object({ id: z.string(), name: z.string() }),
    renter: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
    people: z.number().int().openapi({ description: "The party: the booking's participants, else the people known by name or signature (at least 1)" }),
    participants: z.array(Person).openapi({ description: 'Named participants and the signers of waivers for the booking' }),
    waivers: z.object({ signed: z.number().int(), missing: z.number().int() }),
    checkIn: z.object({
      state: z.enum(['not_checked_in', 'checked_in', 'checked_out', 'no_show']),
      checkedInAt: z.string().nullable(),
      checkedOutAt: z.string().nullable(),
    }),
    staff: z.array(z.object({ staffId: z.string(), displayName: z.string(), role: z.string().nullable() })),
    currency: z.string(),
    balanceDueCents: z.number().int().openapi({ description: 'What the renter still owes, from the money view of the ledger (0 when paid up)' }),
    balanceDue: z.string().openapi({ description: 'The same, formatted', example: '$120.00' }),
  })
  .openapi('ManifestBooking');

export const Manifest = z
  .object({
    locationId: z.string(),
    locationName: z.string(),
    timezone: z.string(),
    date: z.string(),
    generatedAt: z.string(),
    totals: z.object({
      bookings: z.number().int(),
      people: z.number().int(),
      waiversMissing: z.number().int(),
      balanceDueCents: z.number().int().openapi({ description: 'Sum over the bookings (in the currency of the first; bookings of one location share it)' }),
    }),
    bookings: z.array(ManifestBooking),
  })
  .openapi('Manifest');
