import { z } from '@hono/zod-openapi';
import { isoDate } from '../../lib/time';
import { zEmail } from '../../lib/openapi';

export const WAIVER_STATUSES = ['PENDING', 'COMPLETED', 'CANCELLED'] as const;

const zRef = () => z.string().trim().min(1).max(128);
const zName = () => z.string().trim().min(1).max(100);
const zPhone = () =>
  z
    .string()
    .trim()
    .min(3)
    .max(32)
    .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number');
const zDob = () => z.string().trim().regex(isoDate, 'must be a date YYYY-MM-DD');
const zObject = (max = 20_000) =>
  z.record(z.string(), z.unknown()).refine((o) => JSON.stringify(o).length <= max, `must serialize to at most ${max} characters`);
const zExpectedVersion = () =>
  z.union([z.string().trim().min(1).max(64), z.number().int()]).openapi({
    type: 'string',
    description: `The \`version\` you read, sent back as it was (an opaque string; a number is taken as its decimal string).
The write answers 409 \`version_conflict\` unless it is the current version.`,
    example: '1',
  });

export const WaiverNumber = z
  .object({
    waiverNumber: z.string(),
    pin: z.string().nullable().openapi({ description: 'Present while the waiver number is pending; removed on completion, cancellation or deletion.' }),
    customerId: z.string(),
    locationId: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    dob: z.string().nullable(),
    address: z.record(z.string(), z.unknown()).nullable(),
    assignTo: z.string().nullable(),
    assetId: z.string().nullable(),
    transactionId: z.string().nullable(),
    renterId: z.string().nullable(),
    templateId: z.string().nullable(),
    rawData: z.record(z.string(), z.unknown()).nullable(),
    status: z.enum(['PENDING', 'COMPLETED', 'CANCELLED', 'DELETED']),
    expiresAt: z.string().openapi({ description: 'When the PIN stops working (30 days after creation).' }),
    expired: z.boolean(),
    waiverUrl: z.string().nullable(),
    signatureId: z.string().nullable(),
    completionData: z.record(z.string(), z.unknown()).nullable(),
    completedAt: z.string().nullable(),
    version: z.string().openapi({ description: 'Changes on every write; send it back as `expectedVersion`.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WaiverNumber');

export const PublicWaiverNumber = WaiverNumber.omit({ pin: true, rawData: true, completionData: true, renterId: true }).openapi('PublicWaiverNumber');

export const WaiverNumberParam = z.object({
  waiverNumber: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'waiverNumber', in: 'path' }, example: 'WN-7K3M9Q2X4T' }),
});

export const CreateBody = z
  .object({
    customerId: zRef().openapi({ description: "The caller's operator id (another operator's id answers 403)." }),
    waiverNumber: z
      .string()
      .trim()
      .min(3)
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, dot, dash and underscore only')
      .optional()
      .openapi({
        description: 'Your own waiver number (for example a printed one); generated when absent. 409 `already_exists` if the operator already has it.',
      }),
    locationId: zRef().optional(),
    firstName: zName().optional(),
    lastName: zName().optional(),
    email: zEmail().optional(),
    phone: zPhone().optional(),
    dob: zDob().optional(),
    address: zObject(4000).optional(),
    assignTo: z.string().trim().min(1).max(200).optional(),
    assetId: zRef().optional(),
    transactionId: zRef().optional(),
    renterId: zRef().optional(),
    templateId: zRef().optional(),
    rawData: zObject().optional(),
  })
  .openapi('CreateWaiverNumber');

export const ListQuery = z
  .object({
    transactionId: zRef().optional(),
    customerId: zRef().optional(),
    locationId: zRef().optional(),
    status: z.enum(WAIVER_STATUSES).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((q) => q.transactionId || q.customerId || q.locationId, {
    message: 'give at least one of transactionId, customerId or locationId',
    path: ['transactionId'],
  });

export const ValidateQuery = z.object({ pin: z.string().trim().min(4).max(32) });

export const PatchBody = z
  .object({
    firstName: zName().nullable().optional(),
    lastName: zName().nullable().optional(),
    email: zEmail().nullable().optional(),
    phone: zPhone().nullable().optional(),
    dob: zDob().nullable().optional(),
    address: zObject(4000).nullable().optional(),
    assignTo: z.string().trim().min(1).max(200).nullable().optional(),
    assetId: zRef().nullable().optional(),
    status: z.enum(WAIVER_STATUSES).optional(),
    renterId: zRef().nullable().optional(),
    waiverUrl: z.string().trim().min(1).max(2048).nullable().optional(),
    templateId: zRef().nullable().optional(),
    expectedVersion: zExpectedVersion().optional(),
  })
  .openapi('PatchWaiverNumber');

export const CompleteBody = z
  .object({
    renterId: zRef(),
    waiverUrl: z.string().trim().min(1).max(2048),
    signatureId: zRef().optional(),
    completionData: zObject().optional(),
    expectedVersion: zExpectedVersion().optional(),
    updateRenter: z.boolean().default(true).openapi({
      description:
        "Default true: adds `waiverUrl` to the renter's `waivers_signed_urls` and fills the renter's missing phone and date of birth from the waiver number.",
    }),
  })
  .openapi('CompleteWaiverNumber');
