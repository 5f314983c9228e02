import { z } from '@hono/zod-openapi';
import { isoDate } from '../../lib/time';
import { zEmail, zLimit, zPage, zQueryBool } from '../../lib/openapi';

export const RENTER_STATUSES = ['active', 'inactive', 'blocked'] as const;
export const SORT_FIELDS = ['firstName', 'lastName', 'email', 'createdAt', 'updatedAt', 'riskScore', 'balance'] as const;

const zCustomerId = () => z.string().trim().min(1).max(128).openapi({ description: "The caller's operator id (another operator's id answers 403)." });
const zDob = () => z.string().trim().regex(isoDate, 'must be a date YYYY-MM-DD');
const zPhone = () =>
  z
    .string()
    .trim()
    .min(3)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number');
/** A postal address: free text or an object (street, city, postalCode, country, ...). */
const zAddress = () =>
  z
    .union([z.string().trim().min(1).max(500), z.record(z.string(), z.unknown()).refine((o) => JSON.stringify(o).length <= 4000, 'address is too large')])
    .openapi({ description: 'Free text or an object such as {line1, city, state, postalCode, country}.' });
const zJsonObject = (max = 20_000) =>
  z.record(z.string(), z.unknown()).refine((o) => JSON.stringify(o).length <= max, `must serialize to at most ${max} characters`);

export const Accounting = z
  .object({
    balanceCents: z.number().int().openapi({ description: 'Sum of the non-deleted ledger entries that affect the balance; positive means the renter owes.' }),
    balance: z.number().openapi({ description: 'The balance in dollars.' }),
    chargesCents: z.number().int(),
    creditsCents: z.number().int(),
    entryCount: z.number().int(),
    lastEntryAt: z.string().nullable(),
    accountCreditCents: z
      .number()
      .int()
      .openapi({
        description:
          "Goodwill credit held on the renter's account: the `credit` entries of goodwill credits beyond what a booking owed " +
          '(POST /coreBooking/{rentalId}/credits), reversals included',
      }),
    accountCredit: z.number().openapi({ description: 'The account credit in dollars.' }),
  })
  .openapi('RenterAccounting');

export const Renter = z
  .object({
    id: z.string(),
    customerId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    address: z.unknown().nullable(),
    dob: z.string().nullable(),
    licenseNumber: z.string().nullable(),
    waivers_signed_urls: z.array(z.string()),
    id_verifications: z.record(z.string(), z.unknown()),
    transactions: z.array(z.unknown()),
    additional_info: z.record(z.string(), z.unknown()),
    payment_customer_id: z.string().nullable(),
    status: z.string(),
    riskScore: z.number().nullable(),
    notes: z.array(z.record(z.string(), z.unknown())),
    loyaltyPoints: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    accounting: Accounting.optional(),
  })
  .openapi('Renter');

export const IdParam = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'rnt_01J0000000000000000000000' }),
});

const listFilters = {
  customerId: zCustomerId(),
  includeAccounting: zQueryBool().openapi({ description: 'Adds `accounting` (balance from the ledger) to each renter.' }),
  search: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Matches first or last name, full name, e-mail, phone (digits) or licence number.' }),
  status: z.enum(RENTER_STATUSES).optional(),
  sortField: z.enum(SORT_FIELDS).default('createdAt'),
  sortDirection: z.enum(['asc', 'desc']).default('desc'),
};

export const ListQuery = z.object({ ...listFilters, page: zPage(), limit: zLimit(100, 25) });

export const ExportQuery = z.object({
  ...listFilters,
  format: z
    .enum(['csv', 'json', 'CSV', 'JSON'])
    .default('csv')
    .transform((v) => v.toLowerCase() as 'csv' | 'json'),
});

export const SuggestQuery = z.object({
  customerId: zCustomerId(),
  query: z.string().trim().min(2, 'query must be at least 2 characters').max(100),
  limit: zLimit(25, 10),
});

export const RenterList = z
  .object({
    data: z.array(Renter),
    pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  })
  .openapi('RenterList');

export const Suggestion = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  label: z.string(),
});

export const UpsertBody = z
  .object({
    customerId: zCustomerId(),
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    email: zEmail(),
    address: zAddress(),
    phone: zPhone().optional(),
    dob: zDob().optional(),
    waivers_signed_urls: z.array(z.string().trim().min(1).max(2048)).max(100).optional(),
    id_verifications: zJsonObject().optional(),
    transactions: z
      .array(z.unknown())
      .max(100)
      .refine((a) => JSON.stringify(a).length <= 50_000, 'transactions are too large')
      .optional(),
    additional_info: zJsonObject().optional(),
    stripe_customer_id: z.string().trim().min(1).max(128).optional().openapi({ description: "The renter's customer id at the payment provider." }),
  })
  .openapi('UpsertRenter');

export const PatchBody = z
  .object({
    add_note: z.boolean().optional().openapi({ description: 'With `note`: appends the note to `notes` (stamped with an id, the time and the author).' }),
    note: zJsonObject(10_000)
      .refine((o) => Object.keys(o).length > 0, 'note must not be empty')
      .optional()
      .openapi({ description: 'A note object such as {"text": "Prefers the pontoon"}.' }),
    firstName: z.string().trim().min(1).max(100).optional(),
    lastName: z.string().trim().min(1).max(100).optional(),
    email: zEmail().optional(),
    phone: zPhone().nullable().optional(),
    dob: zDob().nullable().optional(),
    address: zAddress().nullable().optional(),
    status: z.enum(RENTER_STATUSES).optional(),
    riskScore: z.number().finite().min(-1_000_000).max(1_000_000).nullable().optional(),
    additional_info: zJsonObject().optional().openapi({ description: 'Merged into the stored object (JSON merge patch: null removes a key).' }),
    transactions: z
      .array(z.unknown())
      .min(1)
      .max(100)
      .refine((a) => JSON.stringify(a).length <= 50_000, 'transactions are too large')
      .optional()
      .openapi({ description: 'Appended to the stored list.' }),
  })
  .openapi('PatchRenter');

export const PaymentMethodBody = z.object({
  payment_method_id: z.string().trim().min(1).max(128).openapi({ example: 'pm_card_visa' }),
});

export const PaymentMethod = z
  .object({
    id: z.string(),
    type: z.string(),
    brand: z.string(),
    last4: z.string(),
    expMonth: z.number(),
    expYear: z.number(),
    customerId: z.string().nullable(),
    isDefault: z.boolean().optional(),
  })
  .openapi('RenterPaymentMethod');

export const OwingQuery = z.object({
  asOfDate: z
    .string()
    .trim()
    .refine((v) => isoDate.test(v) || !Number.isNaN(Date.parse(v)), 'must be a date YYYY-MM-DD or an ISO 8601 instant')
    .optional()
    .openapi({ description: 'Balances as of the end of this UTC date (YYYY-MM-DD) or this instant; default now.' }),
  customerId: zCustomerId().optional(),
});

export const JournalEntry = z
  .object({
    id: z.string(),
    entryType: z.string(),
    amountCents: z.number().int(),
    amount: z.number(),
    currency: z.string(),
    affectsBalance: z.boolean(),
    occurredAt: z.string(),
    description: z.string().nullable(),
    transactionId: z.string().nullable(),
    rentalId: z.string().nullable(),
    locationId: z.string().nullable(),
    itemId: z.string().nullable(),
    source: z.string().nullable(),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    createdAt: z.string(),
  })
  .openapi('JournalEntry');
