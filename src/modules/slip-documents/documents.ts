import { and, asc, eq, gt, inArray, lte, min, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import { onOperatorClock } from '../../lib/operator-clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { EXTENSIONS, safeFileName, sniffFile } from '../../lib/sniff';
import type { SlipReservationDeleted, SlipReservationDetail } from '../../lib/hooks';
import { slipDocuments as D, slipUploads as U } from '../../db/schema/slip-documents';
import type { ReservationRow } from '../slip-reservations/service';
import { documentErrors } from './errors';
import type * as s from './schemas';
import { ACCEPTED_TYPES, MAX_DOCUMENT_BYTES, UPLOAD_URL_TTL_MS } from './types';
import { getDocumentRow } from './queries';
import { documentOut, type DocumentRow } from './views';

type UploadRow = typeof U.$inferSelect;

const LIVE = ['pending', 'awaiting_payment', 'confirmed', 'checked_in'];

/** Checks a file: not empty, within the cap, and a PDF or photo by its content. */
export function checkFile(bytes: Uint8Array, field = 'file') {
  if (!bytes.length)
    throw new ApiError('validation_failed', `Invalid request: ${field} is empty`, { details: [{ field, code: 'empty_file', message: `${field} is empty` }] });
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new ApiError('payload_too_large', `The file is ${(bytes.length / 1048576).toFixed(1)} MB; the limit is ${MAX_DOCUMENT_BYTES / 1048576} MB`);
  const type = sniffFile(bytes.subarray(0, 64));
  if (!type) throw documentErrors.fail('document_type_not_accepted', `The file is not a ${ACCEPTED_TYPES} by its content`);
  return type;
}

const fileKey = (customerId: string, folder: string, id: string, ext: string) => `slip-documents/${customerId}/${folder}/${id}.${ext}`;

function requireLive(r: ReservationRow) {
  if (!LIVE.includes(r.status)) throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation takes no documents`);
}

/** Portal: stores an uploaded file of the renter (not yet attached to a reservation). */
export async function storeUpload(ctx: Ctx, renterId: string, file: { bytes: Uint8Array; name: string | null }) {
  const type = checkFile(file.bytes);
  const id = newId('supl');
  const customerId = tenantOf(ctx);
  const sha = await sha256Hex(file.bytes);
  const row: UploadRow = {
    id,
    customerId,
    renterId,
    r2Key: fileKey(customerId, 'uploads', id, EXTENSIONS[type]),
    fileName: safeFileName(file.name, `${id}.${EXTENSIONS[type]}`),
    contentType: type,
    sizeBytes: file.bytes.length,
    sha256: sha,
    attachedDocumentId: null,
    createdAt: nowIso(ctx),
  };
  await ctx.env.FILES.put(row.r2Key, file.bytes, { httpMetadata: { contentType: type }, customMetadata: { sha256: sha } });
  await commit(ctx, [ctx.db.insert(U).values(row)], {
    audit: { action: 'slip_document.upload', targetType: 'slip_upload', targetId: id, details: { sizeBytes: row.sizeBytes, contentType: type } },
  });
  return { uploadId: id, fileName: row.fileName, contentType: type, sizeBytes: row.sizeBytes, sha256: sha, createdAt: row.createdAt };
}

/** Portal: attaches an upload of the renter to their reservation as a submitted document (an upload is attached once). */
export async function attachUpload(
  ctx: Ctx,
  r: ReservationRow,
  input: { uploadId: string; type: string; expiresOn?: string; notes?: string },
  via: 'portal' | 'staff',
) {
  requireLive(r);
  const up = await ctx.db
    .select()
    .from(U)
    .where(and(eq(U.id, input.uploadId), eq(U.customerId, r.customerId), eq(U.renterId, r.renterId)))
    .get();
  if (!up) throw notFound('Upload');
  if (up.attachedDocumentId) throw new ApiError('invalid_state', 'The upload is already attached to a document');
  const now = nowIso(ctx);
  const doc: DocumentRow = {
    id: newId('sdoc'),
    customerId: r.customerId,
    locationId: r.locationId,
    reservationId: r.id,
    renterId: r.renterId,
    type: input.type,
    status: 'submitted',
    fileName: up.fileName,
    contentType: up.contentType,
    sizeBytes: up.sizeBytes,
    sha256: up.sha256,
    r2Key: up.r2Key,
    expiresOn: input.expiresOn ?? null,
    notes: input.notes ?? null,
    uploadedVia: via,
    uploadTokenHash: null,
    uploadExpiresAt: null,
    declaredSizeBytes: null,
    reviewedAt: null,
    reviewedBy: null,
    reviewNote: null,
    createdAt: now,
    updatedAt: now,
  };
  const claim = await ctx.db
    .update(U)
    .set({ attachedDocumentId: doc.id })
    .where(and(eq(U.id, up.id), eq(U.customerId, up.customerId), sql`${U.attachedDocumentId} IS NULL`))
    .run();
  if (!Number((claim as { meta?: { changes?: number } }).meta?.changes ?? 0))
    throw new ApiError('invalid_state', 'The upload is already attached to a document');
  try {
    await commit(ctx, [ctx.db.insert(D).values(doc)], {
      audit: { action: 'slip_document.submit', targetType: 'slip_document', targetId: doc.id, details: { reservationId: r.id, type: doc.type, via } },
    });
  } catch (err) {
    // The document was not written: the upload can be attached again.
    await ctx.db
      .update(U)
      .set({ attachedDocumentId: null })
      .where(and(eq(U.id, up.id), eq(U.attachedDocumentId, doc.id)))
      .run();
    throw err;
  }
  return documentOut(doc);
}

/**
 * Public: records a document's metadata and answers a one-time upload URL (served by this API,
 * `PUT /public/slips/uploads/{documentId}?token=...`, valid for 30 minutes) for the file itself.
 */
export async function announceDocument(
  ctx: Ctx,
  r: ReservationRow,
  input: { type: string; fileName: string; contentType: string; sizeBytes: number; expiresOn?: string; notes?: string },
  baseUrl: string,
) {
  requireLive(r);
  if (input.sizeBytes > MAX_DOCUMENT_BYTES) throw new ApiError('payload_too_large', `A document is at most ${MAX_DOCUMENT_BYTES / 1048576} MB`);
  const token = randomString(40);
  const now = ctx.clock.now();
  const doc: DocumentRow = {
    id: newId('sdoc'),
    customerId: r.customerId,
    locationId: r.locationId,
    reservationId: r.id,
    renterId: r.renterId,
    type: input.type,
    status: 'pending_upload',
    fileName: safeFileName(input.fileName, 'document'),
    contentType: null,
    sizeBytes: null,
    sha256: null,
    r2Key: null,
    expiresOn: input.expiresOn ?? null,
    notes: input.notes ?? null,
    uploadedVia: 'public',
    uploadTokenHash: await sha256Hex(token),
    uploadExpiresAt: now + UPLOAD_URL_TTL_MS,
    declaredSizeBytes: input.sizeBytes,
    reviewedAt: null,
    reviewedBy: null,
    reviewNote: null,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  await commit(ctx, [ctx.db.insert(D).values(doc)], {
    audit: { action: 'slip_document.announce', targetType: 'slip_document', targetId: doc.id, details: { reservationId: r.id, type: doc.type } },
  });
  return {
    document: { id: doc.id, type: doc.type, status: doc.status, expiresOn: doc.expiresOn, createdAt: doc.createdAt },
    upload: {
      method: 'PUT' as const,
      url: `${baseUrl.replace(/\/$/, '')}/public/slips/uploads/${doc.id}?token=${token}`,
      expiresAt: new Date(doc.uploadExpiresAt!).toISOString(),
      maxBytes: MAX_DOCUMENT_BYTES,
      headers: { 'content-type': input.contentType },
    },
  };
}

/**
 * PUT /public/slips/uploads/{documentId}?token=...: the file of an announced document. The token
 * works once, until its expiry; the file must be the declared size and a PDF or photo by content.
 */
export async function receiveUpload(ctx: Ctx, documentId: string, token: string | undefined, bytes: Uint8Array) {
  const doc = await ctx.db.select().from(D).where(eq(D.id, documentId)).get();
  const hash = token ? await sha256Hex(token) : '';
  if (!doc || !doc.uploadTokenHash || !token || !timingSafeEqual(doc.uploadTokenHash, hash))
    throw new ApiError('unauthenticated', 'The upload URL is not valid');
  if (doc.status !== 'pending_upload') throw new ApiError('invalid_state', 'The file of this document was already uploaded');
  // The operator is known from here: its clock says whether the URL has expired.
  const octx = await onOperatorClock(ctx, doc.customerId);
  if ((doc.uploadExpiresAt ?? 0) <= octx.clock.now()) throw new ApiError('expired', 'The upload URL has expired; submit the document again for a new one');
  const type = checkFile(bytes);
  if (doc.declaredSizeBytes != null && doc.declaredSizeBytes !== bytes.length)
    throw documentErrors.fail('upload_size_mismatch', `The file has ${bytes.length} bytes; ${doc.declaredSizeBytes} were declared`);
  const ctxT: Ctx = { ...octx, principal: { ...octx.principal, customerId: doc.customerId } };
  const sha = await sha256Hex(bytes);
  // A key of its own per attempt: two uploads racing on one URL never overwrite the file of the winner.
  const key = fileKey(doc.customerId, doc.reservationId, `${doc.id}_${randomString(8)}`, EXTENSIONS[type]);
  await ctx.env.FILES.put(key, bytes, { httpMetadata: { contentType: type }, customMetadata: { sha256: sha } });
  const now = nowIso(octx);
  const res = await ctx.db
    .update(D)
    .set({ status: 'submitted', contentType: type, sizeBytes: bytes.length, sha256: sha, r2Key: key, uploadTokenHash: null, updatedAt: now })
    .where(and(eq(D.id, doc.id), eq(D.status, 'pending_upload'), eq(D.uploadTokenHash, doc.uploadTokenHash)))
    .run();
  if (!Number((res as { meta?: { changes?: number } }).meta?.changes ?? 0)) {
    await ctx.env.FILES.delete(key);
    throw new ApiError('invalid_state', 'The file of this document was already uploaded');
  }
  await commit(ctxT, [], {
    audit: {
      action: 'slip_document.upload',
      targetType: 'slip_document',
      targetId: doc.id,
      customerId: doc.customerId,
      details: { sizeBytes: bytes.length, contentType: type },
    },
  });
  return { document: { id: doc.id, type: doc.type, status: 'submitted' as const, expiresOn: doc.expiresOn, createdAt: doc.createdAt } };
}

export async function documentFile(ctx: Ctx, id: string) {
  const d = await getDocumentRow(ctx, id);
  if (!d.r2Key) throw notFound('Document file');
  const obj = await ctx.env.FILES.get(d.r2Key);
  if (!obj) throw notFound('Document file');
  return { bytes: await obj.arrayBuffer(), contentType: d.contentType ?? 'application/octet-stream', fileName: d.fileName ?? d.id };
}

export async function reviewDocument(ctx: Ctx, id: string, input: z.output<typeof s.ReviewBody>) {
  requirePermission(ctx, 'marina');
  const d = await getDocumentRow(ctx, id);
  if (d.status === 'pending_upload') throw new ApiError('invalid_state', 'The file of this document has not been uploaded yet');
  const now = nowIso(ctx);
  const patch = {
    status: input.decision,
    reviewedAt: now,
    reviewedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    reviewNote: input.note ?? null,
    updatedAt: now,
  };
  await commit(
    ctx,
    [
      ctx.db
        .update(D)
        .set(patch)
        .where(and(eq(D.id, d.id), eq(D.customerId, d.customerId))),
    ],
    {
      audit: {
        action: `slip_document.${input.decision === 'approved' ? 'approve' : 'reject'}`,
        targetType: 'slip_document',
        targetId: d.id,
        details: { note: input.note ?? null },
      },
    },
  );
  return documentOut({ ...d, ...patch });
}

/** Hook: the reservation's detail view lists its documents. */
export async function onReservationDetail(ctx: Ctx, e: SlipReservationDetail) {
  const rows = await ctx.db
    .select()
    .from(D)
    .where(and(eq(D.customerId, e.customerId), eq(D.reservationId, e.reservationId)))
    .orderBy(asc(D.createdAt))
    .limit(100)
    .all();
  e.documents.push(
    ...rows.map((d) => ({
      id: d.id,
      type: d.type,
      status: d.status,
      fileName: d.fileName,
      contentType: d.contentType,
      sizeBytes: d.sizeBytes,
      expiresOn: d.expiresOn,
      uploadedVia: d.uploadedVia,
      createdAt: d.createdAt,
    })),
  );
}

/** Hook: a deleted reservation takes its documents and their files with it. */
export async function onReservationDeleted(ctx: Ctx, e: SlipReservationDeleted) {
  const rows = await ctx.db
    .select({ key: D.r2Key })
    .from(D)
    .where(and(eq(D.customerId, e.customerId), eq(D.reservationId, e.reservationId)))
    .all();
  const keys = rows.map((r) => r.key).filter((k): k is string => !!k);
  if (keys.length) await ctx.env.FILES.delete(keys);
  await ctx.db
    .delete(D)
    .where(and(eq(D.customerId, e.customerId), eq(D.reservationId, e.reservationId)))
    .run();
}

const DAY_MS = 86_400_000;

/** Unattached portal uploads in scope (purged a day after they were made). */
const looseUploads = (ctx: Ctx) => and(sql`${U.attachedDocumentId} IS NULL`, inJobScope(ctx, U.customerId));
/** Public documents in scope whose file never came (purged a day after their upload URL expired). */
const unsentDocuments = (ctx: Ctx) => and(eq(D.status, 'pending_upload'), inJobScope(ctx, D.customerId));

/** Cron (daily, on the clock): uploads never attached after a day and public documents whose upload URL expired unused a day ago are removed. */
export async function purgeStaleUploads(ctx: Ctx) {
  const now = ctx.clock.now();
  const dayAgo = new Date(now - DAY_MS).toISOString();
  const stale = await ctx.db
    .select()
    .from(U)
    .where(and(looseUploads(ctx), lte(U.createdAt, dayAgo)))
    .limit(500)
    .all();
  if (stale.length) {
    await ctx.env.FILES.delete(stale.map((u) => u.r2Key));
    await ctx.db
      .delete(U)
      .where(
        inArray(
          U.id,
          stale.map((u) => u.id),
        ),
      )
      .run();
  }
  const res = await ctx.db
    .delete(D)
    .where(and(unsentDocuments(ctx), lte(D.uploadExpiresAt, now - DAY_MS)))
    .run();
  return { uploads: stale.length, announced: Number((res as { meta?: { changes?: number } }).meta?.changes ?? 0) };
}

/** The purge's next due instant (ms): the first upload or unsent document in scope to become stale after the clock's now, or null. */
export async function nextStaleUpload(ctx: Ctx): Promise<number | null> {
  const now = ctx.clock.now();
  const [[u], [d]] = await ctx.db.batch([
    ctx.db
      .select({ at: min(U.createdAt) })
      .from(U)
      .where(and(looseUploads(ctx), gt(U.createdAt, new Date(now - DAY_MS).toISOString()))),
    ctx.db
      .select({ at: min(D.uploadExpiresAt) })
      .from(D)
      .where(and(unsentDocuments(ctx), gt(D.uploadExpiresAt, now - DAY_MS))),
  ]);
  const dues = [u?.at ? Date.parse(u.at) + DAY_MS : null, d?.at != null ? d.at + DAY_MS : null].filter((t): t is number => t != null && t > now);
  return dues.length ? Math.min(...dues) : null;
}
