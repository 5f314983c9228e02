import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, ulid } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import { nowIso, nowMs } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Stmt } from '../../db/client';
import { locations } from '../../db/schema/locations';
import { bookings, renters } from '../../db/schema/bookings';
import { waiverNumbers, waiverSignatures, waiverTemplates } from '../../db/schema/waivers';
import { findRenterByEmail, isRenterEmailConflict, renterUpsert, waiverSignedStmt } from '../renters/service';
import { sqlJsonAppend } from '../../db/json';
import { completionStatements, isExpired, isVersionConflict, normalizePin, pinExpiryText, type WaiverNumberRow } from '../waiver-numbers/service';
import { BadImageError, buildWaiverPdf, type StoredSection } from './pdf';
import { logoOf } from './queries';
import { signatureLink, type SignatureRow } from './views';
import { canonicalJson, checkForm } from './form';

/** The waiver number named in a signing (its number or PIN), within the template's operator. */
async function findWaiverNumberForSigning(ctx: Ctx, customerId: string, ref: string): Promise<WaiverNumberRow> {
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(
      and(
        eq(waiverNumbers.customerId, customerId),
        ne(waiverNumbers.status, 'DELETED'),
        or(eq(waiverNumbers.waiverNumber, ref), eq(waiverNumbers.pin, normalizePin(ref))),
      ),
    )
    .limit(2)
    .all();
  if (rows.length !== 1) throw new ApiError('not_found', 'Waiver number not found');
  const wn = rows[0];
  if (wn.status !== 'PENDING') throw new ApiError('not_pending', `Waiver number ${wn.waiverNumber} is ${wn.status}, not pending`);
  if (isExpired(wn, nowMs(ctx))) throw new ApiError('expired', `Waiver number ${wn.waiverNumber} expired on ${await pinExpiryText(ctx, wn)}`);
  return wn;
}

export const bookingsOfRef = (customerId: string, ref: string) =>
  and(eq(bookings.customerId, customerId), or(eq(bookings.transactionId, ref), eq(bookings.id, ref)));

export interface SignInput {
  templateId: string;
  firstName: string;
  lastName: string;
  formData: Record<string, unknown>;
  signatureId?: string;
  dob?: string;
  userEmail?: string;
  phoneNumber?: string;
  addressLine?: string;
  ipAddress?: string;
  userAgent?: string;
  waiverNumber?: string;
  transactionId?: string;
  tid?: string;
  bookingData?: Record<string, unknown>;
  assignTo?: string;
}

/**
 * Signs a waiver: validates the form against the template, renders the PDF, stores it in R2 and
 * records the signature in one batch with the waiver-number completion, the renter (created or
 * given the waiver URL) and the bookings of the transaction. If the batch fails the PDF is
 * removed again, so nothing is left half-written.
 */
export async function signWaiver(ctx0: Ctx, input: SignInput, meta: { baseUrl: string; observedIp: string | null; userAgent: string | null }) {
  const t = await ctx0.db
    .select()
    .from(waiverTemplates)
    .where(and(eq(waiverTemplates.id, input.templateId), isNull(waiverTemplates.deletedAt)))
    .get();
  if (!t) throw notFound('Waiver template');
  const customerId = t.customerId;
  // The operator is known now: the signature is dated on its clock.
  const ctx = await onOperatorClock(ctx0, customerId);
  const signatureId = input.signatureId ?? newId('sig');
  const dup = await ctx.db.select({ id: waiverSignatures.id }).from(waiverSignatures).where(eq(waiverSignatures.id, signatureId)).get();
  if (dup) throw new ApiError('already_exists', `Signature ${signatureId} already exists`);

  const sections = (t.sections ?? []) as unknown as StoredSection[];
  const { values, images } = await checkForm(sections, input.formData);
  let wn = input.waiverNumber ? await findWaiverNumberForSigning(ctx, customerId, input.waiverNumber) : null;
  const txnRef = input.transactionId ?? input.tid ?? wn?.transactionId ?? null;

  const location = await ctx.db.select().from(locations).where(eq(locations.id, t.locationId)).get();
  const { businessName } = location ? await logoOf(ctx, location) : { businessName: '' };
  const signedAt = nowIso(ctx);
  const ipAddress = input.ipAddress ?? meta.observedIp;
  const userAgent = input.userAgent ?? meta.userAgent;
  const email = input.userEmail ?? wn?.email ?? null;
  const signer = {
    firstName: input.firstName,
    lastName: input.lastName,
    dob: input.dob ?? wn?.dob ?? null,
    email,
    phone: input.phoneNumber ?? wn?.phone ?? null,
    addressLine: input.addressLine ?? null,
    assignTo: input.assignTo ?? wn?.assignTo ?? null,
  };
  const imageInfo = images.map((i) => ({ field: i.field, type: i.mime, bytes: i.bytes.length, sha256: i.sha256 }));
  const template = { title: t.title, description: t.description, sections };
  const contentHash = await sha256Hex(
    canonicalJson({
      signatureId,
      templateId: t.id,
      template,
      signer,
      formData: values,
      images: imageInfo,
      bookingData: input.bookingData ?? null,
      waiverNumber: wn?.waiverNumber ?? null,
      transactionId: txnRef,
      signedAt,
      ipAddress,
      userAgent,
    }),
  );

  await loadPdfFonts(ctx.env.ASSETS);
  let pdf: Uint8Array;
  try {
    pdf = await buildWaiverPdf({
      signatureId,
      templateId: t.id,
      title: t.title,
      description: t.description,
      businessName,
      locationName: location?.name ?? '',
      sections,
      values,
      images,
      signer,
      waiverNumber: wn?.waiverNumber ?? null,
      transactionId: txnRef,
      bookingData: input.bookingData ?? null,
      signedAt,
      timezone: location?.timezone || 'UTC',
      ipAddress,
      userAgent,
      contentHash,
    });
  } catch (err) {
    if (err instanceof BadImageError)
      throw new ApiError('validation_failed', err.message, { details: [{ field: `formData.${err.field}`, code: 'invalid_signature', message: err.message }] });
    throw err;
  }
  const pdfSha256 = await sha256Hex(pdf);
  // A key of its own per attempt: a racing submission with the same signatureId that loses
  // removes only its own PDF, never the winner's.
  const pdfKey = `waivers/${customerId}/${signatureId}/${ulid()}.pdf`;
  const url = signatureLink(meta.baseUrl, signatureId);
  await ctx.env.FILES.put(pdfKey, pdf, {
    httpMetadata: { contentType: 'application/pdf' },
    customMetadata: { signatureId, customerId, templateId: t.id, contentHash, pdfSha256 },
  });

  try {
    for (let attempt = 0; ; attempt++) {
      const statements: Stmt[] = [];
      let events: DomainEvent[] = [];

      // The renter: the waiver number's, else the one with this e-mail (given the waiver URL
      // only: a public form never overwrites an operator's renter record), else a new renter.
      let renterId: string | null = null;
      let appendUrl = false;
      if (wn?.renterId) {
        const r = await ctx.db
          .select({ id: renters.id })
          .from(renters)
          .where(and(eq(renters.id, wn.renterId), eq(renters.customerId, customerId), isNull(renters.deletedAt)))
          .get();
        renterId = r?.id ?? null;
      }
      if (!renterId && email) {
        const existing = await findRenterByEmail(ctx, customerId, email);
        if (existing && !existing.deletedAt) {
          renterId = existing.id;
          appendUrl = true;
        } else {
          const up = await renterUpsert(ctx, {
            customerId,
            firstName: input.firstName,
            lastName: input.lastName,
            email,
            phone: signer.phone,
            dob: signer.dob,
            address: signer.addressLine ?? undefined,
            waivers_signed_urls: [url],
            transactions: txnRef ? [{ transactionId: txnRef, source: 'waiver', signatureId }] : undefined,
          });
          renterId = up.renterId;
          statements.push(...up.statements);
          events = up.events;
        }
      }
      // With a waiver number the completion adds the URL to the renter.
      if (renterId && appendUrl && !wn) {
        statements.push(waiverSignedStmt(ctx, { renterId, customerId, waiverUrl: url, at: signedAt }));
      }

      let bookingsUpdated = 0;
      if (txnRef) {
        const [{ n }] = await ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(bookings)
          .where(bookingsOfRef(customerId, txnRef))
          .all();
        bookingsUpdated = Number(n);
        if (bookingsUpdated) {
          const entry = {
            signatureId,
            url,
            templateId: t.id,
            signerName: `${input.firstName} ${input.lastName}`,
            email,
            assignTo: signer.assignTo,
            renterId,
            signedAt,
          };
          const current = sql`coalesce(json_extract(coalesce(${bookings.extendedData}, '{}'), '$.signedWaivers'), '[]')`;
          statements.push(
            ctx.db
              .update(bookings)
              .set({ extendedData: sql`json_set(coalesce(${bookings.extendedData}, '{}'), '$.signedWaivers', json(${sqlJsonAppend(current, [entry])}))` })
              .where(bookingsOfRef(customerId, txnRef)),
          );
        }
      }

      if (wn) {
        statements.push(
          ...completionStatements(ctx, wn, {
            renterId,
            waiverUrl: url,
            signatureId,
            completionData: { source: 'in_house_waiver', templateId: t.id, signedAt, contentHash },
          }),
        );
      }

      const row: SignatureRow = {
        id: signatureId,
        customerId,
        locationId: t.locationId,
        templateId: t.id,
        template: template as unknown as Record<string, unknown>,
        firstName: input.firstName,
        lastName: input.lastName,
        dob: signer.dob,
        email,
        phone: signer.phone,
        addressLine: signer.addressLine,
        ipAddress,
        observedIp: meta.observedIp,
        userAgent,
        assignTo: signer.assignTo,
        waiverNumber: wn?.waiverNumber ?? null,
        waiverNumberId: wn?.id ?? null,
        transactionId: input.transactionId ?? wn?.transactionId ?? null,
        tid: input.tid ?? null,
        bookingData: input.bookingData ?? null,
        formData: values,
        images: imageInfo,
        renterId,
        pdfKey,
        pdfSize: pdf.length,
        pdfSha256,
        contentHash,
        signedAt,
        bookingsUpdated,
        waiverNumberCompleted: !!wn,
        createdAt: signedAt,
      };
      statements.unshift(ctx.db.insert(waiverSignatures).values(row));
      try {
        await commit(ctx, statements, {
          audit: {
            customerId,
            action: 'waiver.sign',
            targetType: 'waiver_signature',
            targetId: signatureId,
            details: { templateId: t.id, waiverNumber: wn?.waiverNumber ?? null, transactionId: txnRef, renterId, bookingsUpdated, contentHash },
          },
          events,
        });
      } catch (err) {
        if (attempt < 3 && (isVersionConflict(err) || isRenterEmailConflict(err))) {
          // The waiver number changed, or the renter was created, while we signed: look again.
          if (wn) wn = await findWaiverNumberForSigning(ctx, customerId, wn.waiverNumber);
          continue;
        }
        throw err;
      }
      return {
        signatureId,
        templateId: t.id,
        customerId,
        locationId: t.locationId,
        signedAt,
        waiverUrl: url,
        infoUrl: `${meta.baseUrl}/inHouseWaiver/waiver/sign/info/${signatureId}`,
        verifyUrl: `${meta.baseUrl}/inHouseWaiver/waiver/verify/${signatureId}`,
        contentHash,
        pdfSha256,
        pdfSize: pdf.length,
        renterId,
        waiverNumber: wn?.waiverNumber ?? null,
        waiverNumberCompleted: !!wn,
        transactionId: txnRef,
        transactionUpdated: bookingsUpdated > 0,
        bookingsUpdated,
      };
    }
  } catch (err) {
    await ctx.env.FILES.delete(pdfKey).catch(() => undefined);
    if (/UNIQUE constraint failed: waiver_signatures\.id/.test(`${(err as Error)?.message} ${String((err as { cause?: unknown })?.cause ?? '')}`)) {
      throw new ApiError('already_exists', `Signature ${signatureId} already exists`);
    }
    throw err;
  }
}
