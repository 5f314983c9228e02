/**
 * Documents a renter uploads for a booking (proof of insurance or of boat ownership): no
 * authentication, so only for a real booking that is not finished, at most 10 per booking (counted
 * inside the INSERT, so parallel uploads cannot exceed it), at most 10 MB each, and only PDF, JPEG,
 * PNG, WebP or HEIC files (the type is read from the bytes, never taken from the client). Stored in
 * R2 under `<customerId>/bookings/<rentalId>/documents/`; the operator lists and downloads them.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { limitIp } from '../../lib/ip-limit';
import { bookingDocuments } from '../../db/schema/renter-self-service';
import { getBookingRow } from '../bookings/service';
import { renterFail } from './errors';
import { ACTIVE_STATUSES, asRenter, guardRefused, rentalOnItsClock } from './queries';
import { nowIso, nowMs } from '../../lib/clock';

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENTS = 10;
export const DOCUMENT_KINDS = ['insurance', 'ownership', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

type DocRow = typeof bookingDocuments.$inferSelect;

const startsWith = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'avif']);

/** The document's type from its first bytes, or null when it is not an accepted kind of file. */
export function sniffDocument(b: Uint8Array): { mime: string; ext: string } | null {
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { mime: 'application/pdf', ext: 'pdf' };
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (startsWith(b, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return { mime: 'image/webp', ext: 'webp' };
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(b, 8, 12))) return { mime: 'image/heic', ext: 'heic' };
  return null;
}

export const docOut = (d: DocRow) => ({
  documentId: d.id,
  rentalId: d.rentalId,
  kind: d.kind,
  fileName: d.fileName,
  contentType: d.contentType,
  size: d.size,
  sha256: d.sha256,
  createdAt: d.createdAt,
});

export interface DocumentUpload {
  bytes: Uint8Array;
  name: string;
  kind: DocumentKind;
}

const safeName = (name: string, ext: string) => {
  const base =
    name
      .replace(/[^\w.\- ]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || `document.${ext}`;
  return /\.[A-Za-z0-9]{2,5}$/.test(base) ? base : `${base}.${ext}`;
};

/** POST /public/bookings/{rentalId}/documents. `read` is called once the booking is known to take uploads. */
export async function uploadDocument(ctx0: Ctx, rentalId: string, ip: string | null, read: () => Promise<DocumentUpload>) {
  await limitIp(ctx0, { kind: 'document-upload', ip, limit: 30, windowMs: 10 * 60_000 });
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const over = b.end <= nowMs(ctx);
  if (!ACTIVE_STATUSES.has(b.status) || over)
    throw renterFail('booking_finished', `This booking is ${over ? 'over' : b.status.replace('_', '-')}; it takes no more documents`);
  const file = await read();
  if (file.bytes.length > MAX_DOCUMENT_BYTES) throw renterFail('document_too_large', 'A document is at most 10 MB');
  if (file.bytes.length === 0) throw renterFail('unsupported_document_type', 'The file is empty');
  const type = sniffDocument(file.bytes);
  if (!type) throw renterFail('unsupported_document_type', 'Send a PDF, JPEG, PNG, WebP or HEIC file');
  const id = newId('doc');
  const key = `${b.customerId}/bookings/${b.id}/documents/${id}.${type.ext}`;
  const sha256 = await sha256Hex(file.bytes);
  const fileName = safeName(file.name, type.ext);
  const now = nowIso(ctx);
  await ctx.env.FILES.put(key, file.bytes, {
    httpMetadata: { contentType: type.mime },
    customMetadata: { customerId: b.customerId, rentalId: b.id, kind: file.kind, originalName: file.name.slice(0, 200) },
  });
  let inserted = false;
  try {
    await commit(
      asRenter(ctx, b, `renter:upload:${ip ?? 'unknown'}`),
      [
        // The guard: the rental id is NULL (the batch aborts) when the booking already holds the most documents.
        ctx.db.insert(bookingDocuments).values({
          id,
          customerId: b.customerId,
          rentalId:
            sql`(SELECT ${b.id} WHERE (SELECT count(*) FROM booking_documents WHERE customer_id = ${b.customerId} AND rental_id = ${b.id}) < ${MAX_DOCUMENTS})` as unknown as string,
          kind: file.kind,
          fileName,
          contentType: type.mime,
          size: file.bytes.length,
          sha256,
          r2Key: key,
          createdAt: now,
        }),
      ],
      {
        audit: {
          action: 'booking.document_upload',
          targetType: 'booking',
          targetId: b.id,
          customerId: b.customerId,
          details: { documentId: id, kind: file.kind, size: file.bytes.length },
        },
      },
    );
    inserted = true;
  } catch (err) {
    if (!guardRefused(err, 'booking_documents.rental_id')) throw err;
  } finally {
    if (!inserted) await ctx.env.FILES.delete(key).catch(() => undefined);
  }
  if (!inserted) throw renterFail('too_many_documents', `A booking holds at most ${MAX_DOCUMENTS} documents`);
  const count = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.customerId, b.customerId), eq(bookingDocuments.rentalId, b.id)))
    .get();
  const row: DocRow = {
    id,
    customerId: b.customerId,
    rentalId: b.id,
    kind: file.kind,
    fileName,
    contentType: type.mime,
    size: file.bytes.length,
    sha256,
    r2Key: key,
    createdAt: now,
  };
  return { ...docOut(row), documentsCount: Number(count?.n ?? 1), maxDocuments: MAX_DOCUMENTS };
}

/** GET /coreBooking/{rentalId}/documents: the documents of one of the caller's rentals. */
export async function listDocuments(ctx: Ctx, rentalId: string) {
  const b = await getBookingRow(ctx, rentalId);
  const rows = await ctx.db
    .select()
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.customerId, b.customerId), eq(bookingDocuments.rentalId, b.id)))
    .orderBy(asc(bookingDocuments.createdAt))
    .all();
  return { rentalId: b.id, data: rows.map(docOut), total: rows.length, maxDocuments: MAX_DOCUMENTS };
}

/** GET /coreBooking/{rentalId}/documents/{documentId}: the stored file. */
export async function documentFile(ctx: Ctx, rentalId: string, documentId: string) {
  const row = await ctx.db
    .select()
    .from(bookingDocuments)
    .where(and(eq(bookingDocuments.id, documentId), eq(bookingDocuments.rentalId, rentalId), eq(bookingDocuments.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Document');
  const obj = await ctx.env.FILES.get(row.r2Key);
  if (!obj) throw notFound('Stored document');
  return { body: obj.body, size: row.size, contentType: row.contentType, fileName: row.fileName };
}
