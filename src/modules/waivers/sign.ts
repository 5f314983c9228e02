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
import { bookingsWaiverSignedStmt } from '../bookings/service';
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

type SignMeta = { baseUrl: string; observedIp: string | null; userAgent: string | null };
type TemplateRow = typeof waiverTemplates.$inferSelect;
type CheckedForm = Awaited<ReturnType<typeof checkForm>>;

/** Everything fixed before the first attempt to record the signature. */
interface SigningDraft {
  t: TemplateRow;
  customerId: string;
  signatureId: string;
  sections: StoredSection[];
  values: CheckedForm['values'];
  images: CheckedForm['images'];
  imageInfo: { field: string; type: string; bytes: number; sha256: string }[];
  template: { title: string; description: TemplateRow['description']; sections: StoredSection[] };
  txnRef: string | null;
  location: typeof locations.$inferSelect | undefined;
  businessName: string;
  signedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  email: string | null;
  signer: {
    firstName: string;
    lastName: string;
    dob: string | null;
    email: string | null;
    phone: string | null;
    addressLine: string | null;
    assignTo: string | null;
  };
  contentHash: string;
}

/** The PDF as stored in R2 for this attempt. */
interface StoredPdf {
  pdf: Uint8Array;
  pdfSha256: string;
  pdfKey: string;
  url: string;
}

/** The statements of one attempt, before the signature row is put first. */
interface SigningAttempt {
  statements: Stmt[];
  events: DomainEvent[];
  renterId: string | null;
  bookingsUpdated: number;
}

async function loadTemplateForSigning(ctx: Ctx, templateId: string): Promise<TemplateRow> {
  const t = await ctx.db
    .select()
    .from(waiverTemplates)
    .where(and(eq(waiverTemplates.id, templateId), isNull(waiverTemplates.deletedAt)))
    .get();
  if (!t) throw notFound('Waiver template');
  return t;
}

async function assertSignatureIdFree(ctx: Ctx, signatureId: string) {
  const dup = await ctx.db.select({ id: waiverSignatures.id }).from(waiverSignatures).where(eq(waiverSignatures.id, signatureId)).get();
  if (dup) throw new ApiError('already_exists', `Signature ${signatureId} already exists`);
}

/** Validates the form, finds the waiver number and fixes the signer, the time and the content hash. */
async function prepareSigning(
  ctx: Ctx,
  t: TemplateRow,
  signatureId: string,
  input: SignInput,
  meta: SignMeta,
): Promise<{ draft: SigningDraft; wn: WaiverNumberRow | null }> {
  const customerId = t.customerId;
  const sections = (t.sections ?? []) as unknown as StoredSection[];
  const { values, images } = await checkForm(sections, input.formData);
  const wn = input.waiverNumber ? await findWaiverNumberForSigning(ctx, customerId, input.waiverNumber) : null;
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
  const draft: SigningDraft = {
    t,
    customerId,
    signatureId,
    sections,
    values,
    images,
    imageInfo,
    template,
    txnRef,
    location,
    businessName,
    signedAt,
    ipAddress,
    userAgent,
    email,
    signer,
    contentHash,
  };
  return { draft, wn };
}

/** Renders the signed waiver; a bad signature image is a validation failure of its field. */
async function renderSignedPdf(ctx: Ctx, d: SigningDraft, wn: WaiverNumberRow | null, input: SignInput): Promise<Uint8Array> {
  await loadPdfFonts(ctx.env.ASSETS);
  try {
    return await buildWaiverPdf({
      signatureId: d.signatureId,
      templateId: d.t.id,
      title: d.t.title,
      description: d.t.description,
      businessName: d.businessName,
      locationName: d.location?.name ?? '',
      sections: d.sections,
      values: d.values,
      images: d.images,
      signer: d.signer,
      waiverNumber: wn?.waiverNumber ?? null,
      transactionId: d.txnRef,
      bookingData: input.bookingData ?? null,
      signedAt: d.signedAt,
      timezone: d.location?.timezone || 'UTC',
      ipAddress: d.ipAddress,
      userAgent: d.userAgent,
      contentHash: d.contentHash,
    });
  } catch (err) {
    if (err instanceof BadImageError)
      throw new ApiError('validation_failed', err.message, { details: [{ field: `formData.${err.field}`, code: 'invalid_signature', message: err.message }] });
    throw err;
  }
}

async function storeSignedPdf(ctx: Ctx, d: SigningDraft, pdf: Uint8Array, baseUrl: string): Promise<StoredPdf> {
  const pdfSha256 = await sha256Hex(pdf);
  // A key of its own per attempt: a racing submission with the same signatureId that loses
  // removes only its own PDF, never the winner's.
  const pdfKey = `waivers/${d.customerId}/${d.signatureId}/${ulid()}.pdf`;
  const url = signatureLink(baseUrl, d.signatureId);
  await ctx.env.FILES.put(pdfKey, pdf, {
    httpMetadata: { contentType: 'application/pdf' },
    customMetadata: { signatureId: d.signatureId, customerId: d.customerId, templateId: d.t.id, contentHash: d.contentHash, pdfSha256 },
  });
  return { pdf, pdfSha256, pdfKey, url };
}

/**
 * The renter: the waiver number's, else the one with this e-mail (given the waiver URL
 * only: a public form never overwrites an operator's renter record), else a new renter.
 */
async function resolveSigningRenter(ctx: Ctx, d: SigningDraft, wn: WaiverNumberRow | null, input: SignInput, url: string) {
  const statements: Stmt[] = [];
  let events: DomainEvent[] = [];
  const { customerId, email, signer, txnRef, signatureId } = d;
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
    statements.push(waiverSignedStmt(ctx, { renterId, customerId, waiverUrl: url, at: d.signedAt }));
  }
  return { statements, events, renterId };
}

/** Appends the signature to the bookings of the transaction, if any. */
async function bookingSignatureStatements(ctx: Ctx, d: SigningDraft, input: SignInput, url: string, renterId: string | null) {
  const statements: Stmt[] = [];
  let bookingsUpdated = 0;
  const { customerId, txnRef } = d;
  if (txnRef) {
    const [{ n }] = await ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(bookings)
      .where(bookingsOfRef(customerId, txnRef))
      .all();
    bookingsUpdated = Number(n);
    if (bookingsUpdated) {
      const entry = {
        signatureId: d.signatureId,
        url,
        templateId: d.t.id,
        signerName: `${input.firstName} ${input.lastName}`,
        email: d.email,
        assignTo: d.signer.assignTo,
        renterId,
        signedAt: d.signedAt,
      };
      statements.push(bookingsWaiverSignedStmt(ctx, { customerId, ref: txnRef, entry }));
    }
  }
  return { statements, bookingsUpdated };
}

function signatureRowOf(
  d: SigningDraft,
  wn: WaiverNumberRow | null,
  input: SignInput,
  meta: SignMeta,
  stored: StoredPdf,
  renterId: string | null,
  bookingsUpdated: number,
): SignatureRow {
  return {
    id: d.signatureId,
    customerId: d.customerId,
    locationId: d.t.locationId,
    templateId: d.t.id,
    template: d.template as unknown as Record<string, unknown>,
    firstName: input.firstName,
    lastName: input.lastName,
    dob: d.signer.dob,
    email: d.email,
    phone: d.signer.phone,
    addressLine: d.signer.addressLine,
    ipAddress: d.ipAddress,
    observedIp: meta.observedIp,
    userAgent: d.userAgent,
    assignTo: d.signer.assignTo,
    waiverNumber: wn?.waiverNumber ?? null,
    waiverNumberId: wn?.id ?? null,
    transactionId: input.transactionId ?? wn?.transactionId ?? null,
    tid: input.tid ?? null,
    bookingData: input.bookingData ?? null,
    formData: d.values,
    images: d.imageInfo,
    renterId,
    pdfKey: stored.pdfKey,
    pdfSize: stored.pdf.length,
    pdfSha256: stored.pdfSha256,
    contentHash: d.contentHash,
    signedAt: d.signedAt,
    bookingsUpdated,
    waiverNumberCompleted: !!wn,
    createdAt: d.signedAt,
  };
}

/** The statements of one attempt: the signature row first, then renter, bookings and waiver-number completion. */
async function buildSigningAttempt(
  ctx: Ctx,
  d: SigningDraft,
  wn: WaiverNumberRow | null,
  input: SignInput,
  meta: SignMeta,
  stored: StoredPdf,
): Promise<SigningAttempt> {
  const url = stored.url;
  const renter = await resolveSigningRenter(ctx, d, wn, input, url);
  const { renterId, events } = renter;
  const statements: Stmt[] = [...renter.statements];
  const booked = await bookingSignatureStatements(ctx, d, input, url, renterId);
  statements.push(...booked.statements);
  const bookingsUpdated = booked.bookingsUpdated;

  if (wn) {
    statements.push(
      ...completionStatements(ctx, wn, {
        renterId,
        waiverUrl: url,
        signatureId: d.signatureId,
        completionData: { source: 'in_house_waiver', templateId: d.t.id, signedAt: d.signedAt, contentHash: d.contentHash },
      }),
    );
  }

  const row = signatureRowOf(d, wn, input, meta, stored, renterId, bookingsUpdated);
  statements.unshift(ctx.db.insert(waiverSignatures).values(row));
  return { statements, events, renterId, bookingsUpdated };
}

function signResultOf(d: SigningDraft, wn: WaiverNumberRow | null, meta: SignMeta, stored: StoredPdf, attempt: SigningAttempt) {
  const { signatureId } = d;
  return {
    signatureId,
    templateId: d.t.id,
    customerId: d.customerId,
    locationId: d.t.locationId,
    signedAt: d.signedAt,
    waiverUrl: stored.url,
    infoUrl: `${meta.baseUrl}/inHouseWaiver/waiver/sign/info/${signatureId}`,
    verifyUrl: `${meta.baseUrl}/inHouseWaiver/waiver/verify/${signatureId}`,
    contentHash: d.contentHash,
    pdfSha256: stored.pdfSha256,
    pdfSize: stored.pdf.length,
    renterId: attempt.renterId,
    waiverNumber: wn?.waiverNumber ?? null,
    waiverNumberCompleted: !!wn,
    transactionId: d.txnRef,
    transactionUpdated: attempt.bookingsUpdated > 0,
    bookingsUpdated: attempt.bookingsUpdated,
  };
}

/**
 * Signs a waiver: validates the form against the template, renders the PDF, stores it in R2 and
 * records the signature in one batch with the waiver-number completion, the renter (created or
 * given the waiver URL) and the bookings of the transaction. If the batch fails the PDF is
 * removed again, so nothing is left half-written.
 */
export async function signWaiver(ctx0: Ctx, input: SignInput, meta: SignMeta) {
  const t = await loadTemplateForSigning(ctx0, input.templateId);
  const customerId = t.customerId;
  // The operator is known now: the signature is dated on its clock.
  const ctx = await onOperatorClock(ctx0, customerId);
  const signatureId = input.signatureId ?? newId('sig');
  await assertSignatureIdFree(ctx, signatureId);

  const prepared = await prepareSigning(ctx, t, signatureId, input, meta);
  const draft = prepared.draft;
  let wn = prepared.wn;
  const pdf = await renderSignedPdf(ctx, draft, wn, input);
  const stored = await storeSignedPdf(ctx, draft, pdf, meta.baseUrl);

  try {
    for (let attempt = 0; ; attempt++) {
      const built = await buildSigningAttempt(ctx, draft, wn, input, meta, stored);
      try {
        await commit(ctx, built.statements, {
          audit: {
            customerId,
            action: 'waiver.sign',
            targetType: 'waiver_signature',
            targetId: signatureId,
            details: {
              templateId: t.id,
              waiverNumber: wn?.waiverNumber ?? null,
              transactionId: draft.txnRef,
              renterId: built.renterId,
              bookingsUpdated: built.bookingsUpdated,
              contentHash: draft.contentHash,
            },
          },
          events: built.events,
        });
      } catch (err) {
        if (attempt < 3 && (isVersionConflict(err) || isRenterEmailConflict(err))) {
          // The waiver number changed, or the renter was created, while we signed: look again.
          if (wn) wn = await findWaiverNumberForSigning(ctx, customerId, wn.waiverNumber);
          continue;
        }
        throw err;
      }
      return signResultOf(draft, wn, meta, stored, built);
    }
  } catch (err) {
    await ctx.env.FILES.delete(stored.pdfKey).catch(() => undefined);
    if (/UNIQUE constraint failed: waiver_signatures\.id/.test(`${(err as Error)?.message} ${String((err as { cause?: unknown })?.cause ?? '')}`)) {
      throw new ApiError('already_exists', `Signature ${signatureId} already exists`);
    }
    throw err;
  }
}
