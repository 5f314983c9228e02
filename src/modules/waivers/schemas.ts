import { z } from '@hono/zod-openapi';
import { isoDate } from '../../lib/time';

const zRef = () => z.string().trim().min(1).max(128);
const zSectionId = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, dot, dash and underscore only')
    .openapi({ description: 'Key of this section in `formData` when signing; generated (`<type>_<n>`) when absent.' });

export const TextSection = z
  .object({
    type: z.literal('text'),
    id: zSectionId().optional(),
    title: z.string().trim().max(200).optional(),
    content: z.string().trim().min(1).max(50_000),
  })
  .openapi('WaiverTextSection', { description: 'Waiver text shown and printed as written (paragraphs separated by new lines).' });

export const CheckboxSection = z
  .object({
    type: z.literal('checkbox'),
    id: zSectionId().optional(),
    label: z.string().trim().min(1).max(2000),
    required: z.boolean().default(true),
  })
  .openapi('WaiverCheckboxSection', { description: 'An acknowledgement the signer ticks; `formData[id]` must be true when `required` (default).' });

export const FIELD_TYPES = ['text', 'textarea', 'email', 'phone', 'date', 'number', 'select'] as const;

export const FieldSection = z
  .object({
    type: z.literal('field'),
    id: zSectionId().optional(),
    label: z.string().trim().min(1).max(200),
    fieldType: z.enum(FIELD_TYPES).default('text'),
    required: z.boolean().default(false),
    options: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
    placeholder: z.string().max(200).optional(),
  })
  .refine((f) => f.fieldType !== 'select' || (f.options && f.options.length), { message: 'a select field needs options', path: ['options'] })
  .openapi('WaiverFieldSection', { description: 'An input the signer fills (`formData[id]`); `select` needs `options`.' });

export const SignatureSection = z
  .object({
    type: z.literal('signature'),
    id: zSectionId().optional(),
    label: z.string().trim().min(1).max(200).default('Signature'),
    required: z.boolean().default(true),
    signer: z.enum(['participant', 'guardian']).default('participant'),
  })
  .openapi('WaiverSignatureSection', { description: 'A signature block: `formData[id]` is a PNG or JPEG data URL (`data:image/png;base64,...`).' });

export const Section = z.discriminatedUnion('type', [TextSection, CheckboxSection, FieldSection, SignatureSection]);

export const Sections = z
  .array(Section)
  .min(1)
  .max(200)
  .superRefine((sections, ctx) => {
    const seen = new Set<string>();
    sections.forEach((s, i) => {
      if (!s.id) return;
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', message: `duplicate section id "${s.id}"`, path: [i, 'id'] });
      seen.add(s.id);
    });
    if (!sections.some((s) => s.type === 'signature'))
      ctx.addIssue({ code: 'custom', message: 'a waiver template needs at least one signature section', path: [] });
  })
  .openapi({
    description: `Kinds (\`type\`): \`text\`, \`checkbox\` (acknowledgement), \`field\` (text, textarea, email, phone, date, number, select),
\`signature\`. At least one signature section.`,
  });

export const Template = z
  .object({
    templateId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    sections: z.array(z.record(z.string(), z.unknown())),
    assignTo: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WaiverTemplate');

const zAssignTo = () => z.array(z.string().trim().min(1).max(128)).max(200);

export const CreateTemplateBody = z
  .object({
    title: z.string().trim().min(1).max(200),
    sections: Sections,
    customerId: zRef(),
    locationId: zRef(),
    description: z.string().trim().max(5000).optional(),
    assignTo: zAssignTo().optional().openapi({ description: 'What the template applies to, for example inventory item ids; free strings.' }),
  })
  .openapi('CreateWaiverTemplate');

export const UpdateTemplateBody = z
  .object({
    customerId: zRef(),
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).nullable().optional(),
    sections: Sections.optional(),
    locationId: zRef().optional(),
    assignTo: zAssignTo().optional(),
  })
  .openapi('UpdateWaiverTemplate');

export const TemplateParam = z.object({ templateId: zRef().openapi({ param: { name: 'templateId', in: 'path' }, example: 'wvt_01J0000000000000000000000' }) });
export const LocationParam = z.object({ locationId: zRef().openapi({ param: { name: 'locationId', in: 'path' }, example: 'loc_demo_miami' }) });
export const SignatureParam = z.object({
  signatureId: zRef().openapi({ param: { name: 'signatureId', in: 'path' }, example: 'sig_01J0000000000000000000000' }),
});

export const LocationQuery = z.object({ locationId: zRef() });
export const TrackingQuery = z.object({
  fn: z.string().trim().max(100).optional().openapi({ description: 'First name of the visitor (tracking, prefill).' }),
  ln: z.string().trim().max(100).optional().openapi({ description: 'Last name (tracking, prefill).' }),
  em: z.string().trim().max(254).optional().openapi({ description: 'E-mail (tracking, prefill).' }),
});
export const WaiverNumberValidationQuery = z.object({
  waiverNumber: z.string().trim().min(4).max(64).openapi({ description: 'The PIN of the waiver number.' }),
  locationId: zRef(),
});

/** Largest signature image accepted (decoded bytes); bigger ones answer 413. */
export const MAX_SIGNATURE_BYTES = 512 * 1024;

export const SignBody = z
  .object({
    templateId: zRef(),
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    formData: z
      .record(z.string().max(64), z.unknown())
      .refine((o) => Object.keys(o).length <= 200, 'at most 200 entries')
      .openapi({
        description: `Section id to value: true for ticked checkboxes, text for fields, \`data:image/png;base64,...\` or
\`data:image/jpeg;base64,...\` for signatures. Keys that are not sections are printed as additional information.`,
      }),
    signatureId: z
      .string()
      .trim()
      .min(16)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/)
      .optional()
      .openapi({
        description: `Your own id for this signature (at least 16 characters) so a retried submission cannot sign twice: an id already used answers
409 \`already_exists\`. Generated when absent.`,
      }),
    dob: z.string().trim().regex(isoDate, 'must be a date YYYY-MM-DD').optional(),
    userEmail: z.string().trim().toLowerCase().max(254).email().optional(),
    phoneNumber: z
      .string()
      .trim()
      .min(3)
      .max(32)
      .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number')
      .optional(),
    addressLine: z.string().trim().max(500).optional(),
    ipAddress: z.string().trim().max(64).optional(),
    userAgent: z.string().trim().max(512).optional(),
    waiverNumber: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: 'A pending waiver number (its number or PIN) to complete with this signature.' }),
    transactionId: zRef().optional(),
    tid: zRef().optional().openapi({ description: 'A rental (booking) id or transaction id, used when `transactionId` is absent.' }),
    bookingData: z
      .record(z.string(), z.unknown())
      .refine((o) => JSON.stringify(o).length <= 20_000, 'bookingData is too large')
      .optional(),
    assignTo: z.string().trim().max(200).optional(),
  })
  .openapi('SignWaiver');

export const SignResult = z
  .object({
    signatureId: z.string(),
    templateId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    signedAt: z.string(),
    waiverUrl: z.string(),
    infoUrl: z.string(),
    verifyUrl: z.string(),
    contentHash: z.string(),
    pdfSha256: z.string(),
    pdfSize: z.number().int(),
    renterId: z.string().nullable(),
    waiverNumber: z.string().nullable(),
    waiverNumberCompleted: z.boolean(),
    transactionId: z.string().nullable(),
    transactionUpdated: z.boolean(),
    bookingsUpdated: z.number().int(),
  })
  .openapi('SignedWaiverResult');

export const SignatureInfo = z
  .object({
    signatureId: z.string(),
    templateId: z.string(),
    templateTitle: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    dob: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    addressLine: z.string().nullable(),
    assignTo: z.string().nullable(),
    waiverNumber: z.string().nullable(),
    transactionId: z.string().nullable(),
    tid: z.string().nullable(),
    renterId: z.string().nullable(),
    formData: z.record(z.string(), z.unknown()),
    bookingData: z.record(z.string(), z.unknown()).nullable(),
    signedAt: z.string(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    contentHash: z.string(),
    pdfSha256: z.string(),
    pdfSize: z.number().int(),
    waiverUrl: z.string(),
    waiverNumberCompleted: z.boolean(),
    bookingsUpdated: z.number().int(),
  })
  .openapi('SignedWaiverInfo');

export const VerifyResult = z
  .object({
    signatureId: z.string(),
    pdfExists: z.boolean(),
    pdfIntact: z.boolean().openapi({ description: 'The stored PDF still has the SHA-256 recorded at signing.' }),
    pdfSize: z.number().int().nullable(),
    pdfSha256: z.string(),
    contentHash: z.string(),
    signedAt: z.string(),
    transactionId: z.string().nullable(),
    transactionUpdated: z.boolean(),
    bookingsWithWaiver: z.number().int(),
    waiverNumber: z.string().nullable(),
    waiverNumberCompleted: z.boolean(),
    renterId: z.string().nullable(),
    renterUpdated: z.boolean(),
  })
  .openapi('SignedWaiverVerification');
