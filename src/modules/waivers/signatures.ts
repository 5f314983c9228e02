import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import { bookings, renters } from '../../db/schema/bookings';
import { waiverNumbers } from '../../db/schema/waivers';
import { bookingsOfRef } from './sign';
import { getSignature } from './queries';
import { signatureInfoOut, signatureLink } from './views';

/** The signed waiver PDF (public by its unguessable signature id). */
export async function signedPdf(ctx: Ctx, signatureId: string): Promise<{ body: ReadableStream; size: number; filename: string }> {
  const s = await getSignature(ctx, signatureId);
  const obj = await ctx.env.FILES.get(s.pdfKey);
  if (!obj) throw new ApiError('not_found', 'The PDF of this signed waiver is missing');
  return { body: obj.body, size: obj.size, filename: `waiver-${s.id}.pdf` };
}

export async function signatureInfo(ctx: Ctx, signatureId: string, baseUrl: string) {
  return signatureInfoOut(await getSignature(ctx, signatureId), baseUrl);
}

/** Checks, now, that the PDF is in storage with its recorded hash and that the transaction, waiver number and renter hold the signature. */
export async function verifySignature(ctx: Ctx, signatureId: string, baseUrl: string) {
  const s = await getSignature(ctx, signatureId);
  const obj = await ctx.env.FILES.get(s.pdfKey);
  let pdfIntact = false;
  if (obj) pdfIntact = (await sha256Hex(new Uint8Array(await obj.arrayBuffer()))) === s.pdfSha256;
  const ref = s.transactionId ?? s.tid;
  let bookingsWithWaiver = 0;
  if (ref) {
    const [{ n }] = await ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(bookings)
      .where(
        and(
          bookingsOfRef(s.customerId, ref),
          sql`EXISTS (SELECT 1 FROM json_each(coalesce(json_extract(bookings.extended_data, '$.signedWaivers'), '[]')) w WHERE json_extract(w.value, '$.signatureId') = ${s.id})`,
        ),
      )
      .all();
    bookingsWithWaiver = Number(n);
  }
  let waiverNumberCompleted = false;
  if (s.waiverNumberId) {
    const wn = await ctx.db
      .select({ status: waiverNumbers.status, signatureId: waiverNumbers.signatureId })
      .from(waiverNumbers)
      .where(and(eq(waiverNumbers.id, s.waiverNumberId), eq(waiverNumbers.customerId, s.customerId)))
      .get();
    waiverNumberCompleted = wn?.status === 'COMPLETED' && wn.signatureId === s.id;
  }
  let renterUpdated = false;
  if (s.renterId) {
    const url = signatureLink(baseUrl, s.id);
    const r = await ctx.db
      .select({ urls: renters.waiversSignedUrls })
      .from(renters)
      .where(and(eq(renters.id, s.renterId), eq(renters.customerId, s.customerId)))
      .get();
    renterUpdated = !!r?.urls?.some((u) => u === url || u.endsWith(`/inHouseWaiver/waiver/sign/${s.id}`));
  }
  return {
    signatureId: s.id,
    pdfExists: !!obj,
    pdfIntact,
    pdfSize: obj?.size ?? null,
    pdfSha256: s.pdfSha256,
    contentHash: s.contentHash,
    signedAt: s.signedAt,
    transactionId: ref,
    transactionUpdated: bookingsWithWaiver > 0,
    bookingsWithWaiver,
    waiverNumber: s.waiverNumber,
    waiverNumberCompleted,
    renterId: s.renterId,
    renterUpdated,
  };
}
