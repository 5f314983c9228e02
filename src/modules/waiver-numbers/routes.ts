import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Waiver numbers'];

export const createWaiverNumber = route({
  method: 'post',
  path: '/pending-renters',
  operationId: 'createWaiverNumber',
  tags,
  summary: 'Create a waiver number (pending renter) with a PIN',
  body: s.CreateBody,
  ok: s.WaiverNumber,
  status: 201,
  errors: [403, 404, 409],
  description: `Starts in status \`PENDING\` with a generated \`waiverNumber\` (or the one you give) and an unguessable 8-character \`pin\` (letters
and digits without 0/O/1/I/L) that the renter uses to open the waiver. The PIN expires 30 days after creation. \`locationId\`, \`templateId\` and
\`renterId\` must be your own (404 otherwise). A \`waiverNumber\` the operator already has answers 409 \`already_exists\`. \`version\` starts at "1".`,
});

export const listWaiverNumbers = route({
  method: 'get',
  path: '/pending-renters',
  operationId: 'listWaiverNumbers',
  tags,
  summary: 'Waiver numbers of a transaction, location or operator',
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.WaiverNumber), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
  errors: [403],
  description: `Give at least one of \`transactionId\`, \`customerId\`, \`locationId\` (400 otherwise); \`status\` filters (PENDING, COMPLETED,
CANCELLED). Newest first; \`limit\` (max 500, default 100) and \`offset\`. Deleted waiver numbers are not listed.`,
});

export const validatePin = route({
  method: 'get',
  path: '/pending-renters/validate',
  operationId: 'validateWaiverPin',
  tags,
  access: 'public',
  summary: 'Check a waiver PIN (renter-facing)',
  query: s.ValidateQuery,
  ok: s.PublicWaiverNumber,
  errors: [404, 410],
  description: `No credentials needed. Answers the waiver details for a pending, unexpired PIN (case and dashes ignored). 404 when the PIN is unknown
or its waiver was already completed (the PIN is removed on completion); 410 \`expired\` once the PIN is 30 days old. The PIN itself, \`rawData\`,
\`renterId\` and \`completionData\` are not returned.`,
});

export const patchWaiverNumber = route({
  method: 'patch',
  path: '/pending-renters/{waiverNumber}',
  operationId: 'updateWaiverNumber',
  tags,
  summary: 'Update a waiver number (optimistic locking)',
  params: s.WaiverNumberParam,
  body: s.PatchBody,
  ok: s.WaiverNumber,
  errors: [404, 409],
  description: `Every write changes \`version\`. With \`expectedVersion\` the update applies only if the waiver number is still at that version, else
409 \`version_conflict\` (another user changed it). Without it, concurrent writes are serialized and the last one wins. \`status\` can move only from
PENDING (to COMPLETED or CANCELLED; the PIN is then removed); other changes of status answer 409 \`not_pending\`. A body without any valid field
answers 400 \`no_changes\`.`,
});

export const deleteWaiverNumber = route({
  method: 'delete',
  path: '/pending-renters/{waiverNumber}',
  operationId: 'deleteWaiverNumber',
  tags,
  summary: 'Delete a pending waiver number',
  params: s.WaiverNumberParam,
  ok: z.object({ success: z.boolean(), waiverNumber: z.string(), deletedAt: z.string() }),
  errors: [404, 409],
  description:
    'Only while `PENDING`; otherwise 409 `not_pending`. The PIN stops working at once and the waiver number answers 404 afterwards (its number can be reused).',
});

export const completeWaiverNumber = route({
  method: 'patch',
  path: '/pending-renters/{waiverNumber}/complete',
  operationId: 'completeWaiverNumber',
  tags,
  summary: 'Complete a waiver number',
  params: s.WaiverNumberParam,
  body: s.CompleteBody,
  ok: s.WaiverNumber,
  errors: [404, 409],
  description: `Moves a \`PENDING\` waiver number to \`COMPLETED\`, removes the PIN and records \`renterId\`, \`waiverUrl\`, \`signatureId\` and
\`completionData\`. The renter (404 if unknown) gets \`waiverUrl\` in its \`waivers_signed_urls\` unless \`updateRenter\` is false. 409
\`not_pending\` when it is no longer pending; 409 \`version_conflict\` when \`expectedVersion\` is stale. Of several concurrent completions exactly
one succeeds. The operator may complete a waiver number whose PIN has expired (the expiry only stops the renter-facing PIN).`,
});
