import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';

const id = () => z.string().trim().min(1).max(128);
const RATE_TYPES = ['nightly', 'monthly', 'seasonal', 'annual'] as const;

export const Template = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string().nullable().openapi({ description: 'null: every location of the operator.' }),
    name: z.string(),
    description: z.string().nullable(),
    title: z.string(),
    body: z.string(),
    rateTypes: z.array(z.enum(RATE_TYPES)).openapi({ description: 'Reservation types it is meant for (empty: all).' }),
    defaults: z.record(z.string(), z.string()).openapi({ description: 'Values of variables the reservation does not provide (your own names too).' }),
    variablesUsed: z.array(z.string()),
    isDefault: z.boolean(),
    isActive: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipContractTemplate');

const TemplateFields = {
  locationId: id().nullable(),
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2000).nullable(),
  title: z.string().trim().min(1).max(200),
  body: z.string().min(1).max(100_000),
  rateTypes: z.array(z.enum(RATE_TYPES)).max(4),
  defaults: z.record(z.string().regex(/^[A-Za-z0-9_.-]{1,60}$/), z.string().max(2000)),
  isDefault: z.boolean(),
  isActive: z.boolean(),
};

export const CreateTemplateBody = z
  .object(TemplateFields)
  .partial()
  .extend({ name: TemplateFields.name, title: TemplateFields.title, body: TemplateFields.body })
  .strict()
  .openapi('CreateSlipContractTemplate');
export const UpdateTemplateBody = z.object(TemplateFields).partial().strict().openapi('UpdateSlipContractTemplate');
export const DuplicateBody = z.object({ name: z.string().trim().min(1).max(120).optional(), locationId: id().nullable().optional() }).strict();

export const TemplateQuery = z.object({
  locationId: id().optional().openapi({ description: 'Templates of this location and those for every location.' }),
  includeInactive: z.enum(['true', 'false']).optional(),
  limit: zLimit(100, 50),
  offset: zOffset(),
});
export const TemplateDeleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('SlipContractTemplateDeleted');
export const TemplateList = z
  .object({ data: z.array(Template), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipContractTemplateList');
export const LocationTemplates = z
  .object({ locationId: z.string(), defaultTemplateId: z.string().nullable(), data: z.array(Template.extend({ isLocationDefault: z.boolean() })) })
  .openapi('SlipSettingsTemplates');
export const Variables = z
  .object({ data: z.array(z.object({ name: z.string(), description: z.string(), example: z.string() })), syntax: z.string() })
  .openapi('SlipContractVariables');

export const IdParams = z.object({ id: id() });
export const ReservationParams = z.object({ reservationId: id() });
export const LocationParams = z.object({ locationId: id() });

export const Contract = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    reservationId: z.string(),
    templateId: z.string().nullable(),
    status: z.enum(['generated', 'sent', 'signed', 'voided']),
    title: z.string(),
    body: z.string(),
    variables: z.record(z.string(), z.string()),
    documentSha256: z.string(),
    pdfUrl: z.string().openapi({ description: 'GET it with the same credentials (the signed PDF once signed).' }),
    sentAt: z.string().nullable(),
    sentTo: z.string().nullable(),
    sendCount: z.number().int(),
    signTokenExpiresAt: z.string().nullable(),
    signature: z
      .object({
        signedAt: z.string(),
        signerName: z.string().nullable(),
        signerEmail: z.string().nullable(),
        signatureType: z.string().nullable(),
        ip: z.string().nullable(),
        userAgent: z.string().nullable(),
        signedVia: z.string().nullable(),
      })
      .nullable(),
    voidedAt: z.string().nullable(),
    voidReason: z.string().nullable(),
    pdfRegeneratedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipContract');

export const ContractWithReservation = Contract.extend({
  reservation: z.object({
    reservationNumber: z.string(),
    status: z.string(),
    slipId: z.string(),
    renterName: z.string(),
    vesselName: z.string(),
    arrivalDate: z.string(),
    departureDate: z.string(),
  }),
}).openapi('SlipContractWithReservation');

export const ContractList = z
  .object({ data: z.array(ContractWithReservation), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipContractList');
export const ReservationContracts = z.object({ reservationId: z.string(), data: z.array(Contract) }).openapi('SlipReservationContracts');
export const ListQuery = z.object({ locationId: id().optional(), limit: zLimit(200, 50), offset: zOffset() });

export const Stats = z
  .object({
    byStatus: z.record(z.string(), z.number().int()),
    total: z.number().int(),
    signedLast30Days: z.number().int(),
    averageHoursToSign: z.number().nullable(),
    reservationsWithoutContract: z.number().int(),
  })
  .openapi('SlipContractStats');

export const GenerateBody = z
  .object({
    reservationId: id(),
    templateId: id().optional().openapi({ description: "Default: the location's default template (settings), else the operator's default template." }),
    values: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]{1,60}$/), z.string().max(2000))
      .optional()
      .openapi({ description: 'Values for variables, over the defaults.' }),
  })
  .strict();
export const GenerateResult = Contract.extend({ missingVariables: z.array(z.string()) }).openapi('SlipContractGenerated');
export const SendBody = z
  .object({
    contractId: id(),
    email: z.string().trim().toLowerCase().email().max(254).optional().openapi({ description: "Default: the renter's e-mail." }),
    message: z.string().max(5000).optional(),
    expiresInDays: z.number().int().min(1).max(90).default(14),
  })
  .strict();
export const ContractIdBody = z.object({ contractId: id() }).strict();
export const ResendBody = z.object({ contractId: id(), message: z.string().max(5000).optional() }).strict();
export const VoidBody = z.object({ contractId: id(), reason: z.string().trim().min(1).max(1000) }).strict();
export const SignBody = z
  .object({
    contractId: id(),
    signerName: z.string().trim().min(1).max(200),
    signerEmail: z.string().trim().toLowerCase().email().max(254).optional(),
    signature: z
      .string()
      .min(1)
      .max(400_000)
      .openapi({ description: 'The typed name, or a drawn signature as a data URL (data:image/png;base64,... or image/jpeg), at most about 290 KB.' }),
    agreed: z.literal(true).openapi({ description: 'The signer agreed to the contract (must be true).' }),
  })
  .strict();
