import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip documents'];

export const list = route({
  method: 'get',
  path: '/slip-documents',
  operationId: 'listSlipDocuments',
  tags,
  summary: 'Documents of a location or a reservation',
  description: `Documents renters submitted (tenant portal or public booking) or staff attached: \`locationId\` or \`reservationId\` (one is required), \`status\` (pending_upload, submitted, approved, rejected), \`type\`. Newest first; \`limit\`/\`offset\` with \`total\`. Another operator's location or reservation answers 404.`,
  query: s.ListQuery,
  ok: s.DocumentList,
  errors: [404],
});

export const get = route({
  method: 'get',
  path: '/slip-documents/{id}',
  operationId: 'getSlipDocument',
  tags,
  summary: 'A document',
  description: "The document with its file's type, size and SHA-256, expiry and review. Another operator's document answers 404.",
  params: s.IdParams,
  ok: s.Document,
  errors: [404],
});

export const file = route({
  method: 'get',
  path: '/slip-documents/{id}/file',
  operationId: 'downloadSlipDocument',
  tags,
  summary: 'The file of a document',
  description: 'The stored file with the type read from its content when it was uploaded. A document whose file was not uploaded yet answers 404.',
  params: s.IdParams,
  produces: ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic'],
  errors: [404],
});

export const review = route({
  method: 'post',
  path: '/slip-documents/{id}/review',
  operationId: 'reviewSlipDocument',
  tags,
  summary: 'Approve or reject a document',
  description:
    'Records the decision, who made it and a note (shown to the renter in the portal). A document without its file answers 409. Needs the `marina` permission.',
  params: s.IdParams,
  body: s.ReviewBody,
  ok: s.Document,
  errors: [403, 404, 409],
});
