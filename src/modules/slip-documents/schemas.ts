import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { isoDate } from '../../lib/time';
import { DOCUMENT_STATUSES, REQUIREMENT_STATUSES } from './types';

const id = () => z.string().trim().min(1).max(128);

export const Document = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    reservationId: z.string(),
    renterId: z.string(),
    type: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    fileName: z.string().nullable(),
    contentType: z.string().nullable().openapi({ description: 'The type read from the file content.' }),
    sizeBytes: z.number().int().nullable(),
    sha256: z.string().nullable(),
    expiresOn: z.string().nullable().openapi({ description: 'When the document (an insurance policy) runs out.' }),
    notes: z.string().nullable(),
    uploadedVia: z.string().openapi({ description: '`portal`, `public` or `staff`.' }),
    fileUrl: z.string().nullable().openapi({ description: 'Staff download (GET /slip-documents/{id}/file) once the file is stored.' }),
    reviewedAt: z.string().nullable(),
    reviewedBy: z.string().nullable(),
    reviewNote: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SlipDocument');

export const Requirement = z
  .object({
    type: z.string(),
    status: z.enum(REQUIREMENT_STATUSES).openapi({
      description: 'From the best document of the type: approved, submitted, pending_upload, rejected; `expired` past its `expiresOn`; `missing` without one.',
    }),
    documentId: z.string().nullable(),
    expiresOn: z.string().nullable(),
  })
  .openapi('SlipDocumentRequirement');

export const Requirements = z
  .object({
    reservationId: z.string(),
    requirements: z.array(Requirement),
    documents: z.array(Document),
    complete: z.boolean().openapi({ description: 'Every required type has a submitted or approved document that has not expired.' }),
  })
  .openapi('SlipDocumentRequirements');

export const DocumentList = z
  .object({ data: z.array(Document), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('SlipDocumentList');

export const ListQuery = z.object({
  locationId: id().optional().openapi({ description: 'Required unless reservationId is given.' }),
  reservationId: id().optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  type: z.string().trim().min(1).max(60).optional(),
  limit: zLimit(200, 50),
  offset: zOffset(),
});
export const IdParams = z.object({ id: id() });
export const ReviewBody = z
  .object({ decision: z.enum(['approved', 'rejected']), note: z.string().trim().max(1000).optional() })
  .strict()
  .openapi('ReviewSlipDocument');

export const docType = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(60)
    .regex(/^[a-z0-9][a-z0-9 _-]*$/, 'letters, digits, spaces, - and _')
    .openapi({ description: 'A required type of the location (its `requiredDocuments`, e.g. insurance, registration) or another type.' });
export const expiresOn = () => z.string().regex(isoDate, 'must be a date YYYY-MM-DD').optional();
