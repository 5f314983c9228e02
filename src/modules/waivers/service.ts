import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError, notFound, type ErrorDetail } from '../../lib/errors';
import { newId, ulid } from '../../lib/ids';
import { base64Decode, sha256Hex } from '../../lib/crypto';
import { isoDate } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { customers } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { bookings, renters } from '../../db/schema/bookings';
import { waiverLinkVisits, waiverNumbers, waiverSignatures, waiverTemplates } from '../../db/schema/waivers';
import { findRenterByEmail, isRenterEmailConflict, renterUpsert, sqlJsonAppend, sqlJsonAppendUnique } from '../renters/upsert';
import { completionStatements, isExpired, isVersionConflict, normalizePin, publicWaiverNumberOut, type WaiverNumberRow } from '../waiver-numbers/service';
import { BadImageError, buildWaiverPdf, isTicked, type SignatureImage, type StoredSection } from './pdf';
import { MAX_SIGNATURE_BYTES } from './schemas';

type TemplateRow = typeof waiverTemplates.$inferSelect;
type SignatureRow = typeof waiverSignatures.$inferSelect;
type LocationRow = typeof locations.$inferSelect;
type SectionInput = { type: string; id?: string } & Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Locations, links and logos (public)

async function publicLocation(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const l = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!l) throw notFound('Location');
  return l;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

async function logoOf(ctx: Ctx, l: LocationRow): Promise<{ logoUrl: string | null; businessName: string }> {
  const c = await ctx.db.select({ name: customers.name, businessName: customers.businessName, settings: customers.settings }).from(customers).where(eq(customers.id, l.customerId)).get();
  const d = l.details ?? {};
  const s = (c?.settings ?? {}) as Record<string, unknown>;
  return { logoUrl: str(d.logoUrl) ?? str(d.logo) ?? str(s.logoUrl) ?? str(s.logo), businessName: c?.businessName ?? c?.name ?? l.name };
}

export const templatesLink = (baseUrl: string, locationId: string) => `${baseUrl}/inHouseWaiver/waiver/templates/location/${encodeURIComponent(locationId)}`;
export const signatureLink = (baseUrl: string, signatureId: string) => `${baseUrl}/inHouseWaiver/waiver/sign/${signatureId}`;

export async function waiverUrl(ctx: Ctx, locationId: string, baseUrl: string) {
  const l = await publicLocation(ctx, locationId);
  const { logoUrl } = await logoOf(ctx, l);
  return { locationId: l.id, locationName: l.name, waiverUrl: str(l.details?.waiverUrl) ?? templatesLink(baseUrl, l.id), logoUrl };
}

export async function locationLogo(ctx: Ctx, locationId: string) {
  const l = await publicLocation(ctx, locationId);
  const { logoUrl, businessName } = await logoOf(ctx, l);
  return { locationId: l.id, locationName: l.name, businessName, logoUrl };
}

/** The pending waiver number of a PIN at a location (public). 404 unknown, used or ambiguous; 410 expired. */
export async function waiverNumberValidation(ctx: Ctx, q: { waiverNumber: string; locationId: string }) {
  const l = await publicLocation(ctx, q.locationId);
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(eq(waiverNumbers.customerId, l.customerId), eq(waiverNumbers.locationId, l.id), eq(waiverNumbers.pin, normalizePin(q.waiverNumber)), eq(waiverNumbers.status, 'PENDING')))
    .limit(2)
    .all();
  if (rows.length === 0) throw new ApiError('not_found', 'No pending waiver with this number at this location');
  if (rows.length > 1) throw new ApiError('not_found', 'This waiver number matches more than one waiver; ask the operator');
  if (isExpired(rows[0])) throw new ApiError('expired', `This waiver number expired on ${rows[0].pinExpiresAt}`);
  return { valid: true, waiver: publicWaiverNumberOut(rows[0]) };
}

// ---------------------------------------------------------------------------------------------
// Templates

/** Gives every section an id (`<type>_<n>`, unique in the template) and keeps the documented keys only. */
export function normalizeSections(sections: SectionInput[]): StoredSection[] {
  const used = new Set(sections.map((s) => s.id).filter(Boolean) as string[]);
  const counters: Record<string, number> = {};
  return sections.map((s) => {
    let id = s.id;
    if (!id) {
      do id = `${s.type}_${(counters[s.type] = (counters[s.type] ?? 0) + 1)}`;
      while (used.has(id));
      used.add(id);
    }
    return { ...s, id } as StoredSection;
  });
}

export function templateOut(t: TemplateRow) {
  return {
    templateId: t.id,
    customerId: t.customerId,
    locationId: t.locationId,
    title: t.title,
    description: t.description,
    sections: t.sections ?? [],
    assignTo: t.assignTo ?? [],
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

async function getLocationInTenant(ctx: Ctx, locationId: string) {
  const l = await ctx.db.select().from(locations).where(and(eq(locations.id, locationId), eq(locations.customerId, tenantOf(ctx)))).get();
  if (!l) throw notFound('Location');
  return l;
}

/** A template the caller may change: 404 unknown or deleted, 403 another operator's. */
async function ownTemplate(ctx: Ctx, templateId: string): Promise<TemplateRow> {
  const t = await ctx.db.select().from(waiverTemplates).where(eq(waiverTemplates.id, templateId)).get();
  if (!t || t.deletedAt) throw notFound('Waiver template');
  if (t.customerId !== tenantOf(ctx)) throw new ApiError('forbidden', 'This waiver template belongs to another operator');
  return t;
}

export async function createTemplate(ctx: Ctx, input: { title: string; sections: SectionInput[]; customerId: string; locationId: string; description?: string; assignTo?: string[] }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'waivers');
  await getLocationInTenant(ctx, input.locationId);
  const now = new Date().toISOString();
  const row: TemplateRow = {
    id: newId('wvt'),
    customerId,
    locationId: input.locationId,
    title: input.title,
    description: input.description ?? null,
    sections: normalizeSections(input.sections) as unknown as Record<string, unknown>[],
    assignTo: input.assignTo ?? [],
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(waiverTemplates).values(row)], {
    audit: { action: 'waiver_template.create', targetType: 'waiver_template', targetId: row.id, details: { title: row.title, locationId: row.locationId } },
  });
  return templateOut(row);
}

export async function getTemplate(ctx: Ctx, templateId: string) {
  const t = await ctx.db.select().from(waiverTemplates).where(and(eq(waiverTemplates.id, templateId), isNull(waiverTemplates.deletedAt))).get();
  if (!t) throw notFound('Waiver template');
  return templateOut(t);
}

export async function updateTemplate(
  ctx: Ctx,
  templateId: string,
  input: { customerId: string; title?: string; description?: string | null; sections?: SectionInput[]; locationId?: string; assignTo?: string[] },
) {
  ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'waivers');
  const t = await ownTemplate(ctx, templateId);
  const patch: Partial<TemplateRow> = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.description !== undefined) patch.description = input.description;
  if (input.assignTo !== undefined) patch.assignTo = input.assignTo;
  if (input.sections !== undefined) patch.sections = normalizeSections(input.sections) as unknown as Record<string, unknown>[];
  if (input.locationId !== undefined && input.locationId !== t.locationId) {
    await getLocationInTenant(ctx, input.locationId);
    patch.locationId = input.locationId;
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of title, description, sections, locationId, assignTo');
  patch.updatedAt = new Date().toISOString();
  await commit(ctx, [ctx.db.update(waiverTemplates).set(patch).where(and(eq(waiverTemplates.id, t.id), eq(waiverTemplates.customerId, t.customerId)))], {
    audit: { action: 'waiver_template.update', targetType: 'waiver_template', targetId: t.id, details: { fields: Object.keys(patch).filter((k) => k !== 'updatedAt') } },
  });
  return templateOut({ ...t, ...patch });
}

export async function deleteTemplate(ctx: Ctx, templateId: string) {
  requirePermission(ctx, 'waivers');
  const t = await ownTemplate(ctx, templateId);
  const now = new Date().toISOString();
  await commit(ctx, [ctx.db.update(waiverTemplates).set({ deletedAt: now, updatedAt: now }).where(and(eq(waiverTemplates.id, t.id), eq(waiverTemplates.customerId, t.customerId)))], {
    audit: { action: 'waiver_template.delete', targetType: 'waiver_template', targetId: t.id, details: { title: t.title } },
  });
  return { success: true, templateId: t.id, deletedAt: now };
}

async function templatesOfLocation(ctx: Ctx, customerId: string, locationId: string) {
  const rows = await ctx.db
    .select()
    .from(waiverTemplates)
    .where(and(eq(waiverTemplates.customerId, customerId), eq(waiverTemplates.locationId, locationId), isNull(waiverTemplates.deletedAt)))
    .orderBy(asc(waiverTemplates.createdAt), asc(waiverTemplates.id))
    .all();
  return rows.map(templateOut);
}

export async function listTemplates(ctx: Ctx, locationId: string) {
  const l = await getLocationInTenant(ctx, locationId);
  return { locationId: l.id, data: await templatesOfLocation(ctx, l.customerId, l.id) };
}

/** Renter-facing: the templates of a location; records the visit with the `fn`, `ln`, `em` tracking. */
export async function publicTemplatesOfLocation(ctx: Ctx, locationId: string, q: { fn?: string; ln?: string; em?: string }, meta: { ip: string | null; userAgent: string | null }) {
  const l = await publicLocation(ctx, locationId);
  const data = await templatesOfLocation(ctx, l.customerId, l.id);
  const { logoUrl, businessName } = await logoOf(ctx, l);
  const visitId = newId('wvv');
  await commit(ctx, [
    ctx.db.insert(waiverLinkVisits).values({
      id: visitId,
      customerId: l.customerId,
      locationId: l.id,
      firstName: q.fn || null,
      lastName: q.ln || null,
      email: q.em ? q.em.toLowerCase() : null,
      ipAddress: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    }),
  ]);
  return {
    locationId: l.id,
    locationName: l.name,
    businessName,
    logoUrl,
    prefill: { firstName: q.fn ?? null, lastName: q.ln ?? null, email: q.em ?? null },
    visitId,
    data,
  };
}

// ---------------------------------------------------------------------------------------------
// Signing

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg));base64,([A-Za-z0-9+/=\s]+)$/;

function isPng(b: Uint8Array) {
  return b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a;
}
const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Decodes a signature data URL; 400 when it is not a PNG or JPEG data URL, 413 when too large. */
async function decodeSignature(field: string, value: unknown, details: ErrorDetail[]): Promise<SignatureImage | null> {
  const bad = (message: string) => {
    details.push({ field: `formData.${field}`, code: 'invalid_signature', message });
    return null;
  };
  if (typeof value !== 'string') return bad(`formData.${field} must be a PNG or JPEG data URL (data:image/png;base64,...)`);
  const m = DATA_URL.exec(value.trim());
  if (!m) return bad(`formData.${field} must be a PNG or JPEG data URL (data:image/png;base64,... or data:image/jpeg;base64,...)`);
  const b64 = m[2].replace(/\s+/g, '');
  if (Math.floor((b64.length * 3) / 4) > MAX_SIGNATURE_BYTES + 3) {
    throw new ApiError('payload_too_large', `formData.${field}: signature images are limited to ${MAX_SIGNATURE_BYTES / 1024} KiB`, { details: [{ field: `formData.${field}`, message: 'image too large', code: 'too_large' }] });
  }
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(b64);
  } catch {
    return bad(`formData.${field} is not valid base64`);
  }
  const mime = m[1] === 'image/png' ? 'image/png' : 'image/jpeg';
  if (mime === 'image/png' ? !isPng(bytes) : !isJpeg(bytes)) return bad(`formData.${field} does not contain a ${mime === 'image/png' ? 'PNG' : 'JPEG'} image`);
  return { field, mime, bytes, sha256: await sha256Hex(bytes) };
}

function fieldProblem(s: Extract<StoredSection, { type: 'field' }>, v: unknown): string | null {
  const empty = v === undefined || v === null || (typeof v === 'string' && !v.trim());
  if (empty) return s.required ? `${s.label} is required` : null;
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return `${s.label} must be text`;
  const t = String(v).trim();
  if (t.length > 5000) return `${s.label} is too long (5000 characters at most)`;
  if (s.fieldType === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t)) return `${s.label} must be an e-mail address`;
  if (s.fieldType === 'date' && !isoDate.test(t)) return `${s.label} must be a date YYYY-MM-DD`;
  if (s.fieldType === 'number' && !Number.isFinite(Number(t))) return `${s.label} must be a number`;
  if (s.fieldType === 'phone' && !/^\+?[0-9 ().-]{3,32}$/.test(t)) return `${s.label} must be a phone number`;
  if (s.fieldType === 'select' && s.options && !s.options.includes(t)) return `${s.label} must be one of: ${s.options.join(', ')}`;
  return null;
}

/** Checks formData against the template; returns the values (images taken out) and the decoded images. */
async function checkForm(sections: StoredSection[], formData: Record<string, unknown>) {
  const details: ErrorDetail[] = [];
  const images: SignatureImage[] = [];
  const values: Record<string, unknown> = {};
  const byId = new Map(sections.map((s) => [s.id, s]));
  for (const s of sections) {
    const v = formData[s.id];
    if (s.type === 'checkbox') {
      if (s.required && !isTicked(v)) details.push({ field: `formData.${s.id}`, code: 'required', message: `"${s.label.slice(0, 80)}" must be accepted` });
      values[s.id] = isTicked(v);
    } else if (s.type === 'field') {
      const p = fieldProblem(s, v);
      if (p) details.push({ field: `formData.${s.id}`, code: 'invalid', message: p });
      if (v !== undefined && v !== null) values[s.id] = typeof v === 'string' ? v.trim() : v;
    } else if (s.type === 'signature') {
      if (v === undefined || v === null || v === '') {
        if (s.required) details.push({ field: `formData.${s.id}`, code: 'required', message: `${s.label} is required` });
        continue;
      }
      const img = await decodeSignature(s.id, v, details);
      if (img) images.push(img);
    }
  }
  for (const [k, v] of Object.entries(formData)) {
    if (byId.has(k)) continue;
    if (typeof v === 'string' && v.trim().toLowerCase().startsWith('data:')) {
      const img = await decodeSignature(k, v, details);
      if (img) images.push(img);
      continue;
    }
    if (typeof v === 'string' && v.length > 5000) details.push({ field: `formData.${k}`, code: 'too_long', message: `formData.${k} is too long (5000 characters at most)` });
    else if (v !== null && typeof v === 'object' && JSON.stringify(v).length > 5000) details.push({ field: `formData.${k}`, code: 'too_long', message: `formData.${k} is too large` });
    else values[k] = v;
  }
  if (images.length > 20) details.push({ field: 'formData', code: 'too_many', message: 'at most 20 signature images' });
  if (details.length) throw new ApiError('validation_failed', `Invalid waiver: ${details.map((d) => d.message).slice(0, 3).join('; ')}`, { details });
  return { values, images };
}

/** JSON with sorted keys, so the content hash does not depend on key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** The waiver number named in a signing (its number or PIN), within the template's operator. */
async function findWaiverNumberForSigning(ctx: Ctx, customerId: string, ref: string): Promise<WaiverNumberRow> {
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(eq(waiverNumbers.customerId, customerId), ne(waiverNumbers.status, 'DELETED'), or(eq(waiverNumbers.waiverNumber, ref), eq(waiverNumbers.pin, normalizePin(ref)))))
    .limit(2)
    .all();
  if (rows.length !== 1) throw new ApiError('not_found', 'Waiver number not found');
  const wn = rows[0];
  if (wn.status !== 'PENDING') throw new ApiError('not_pending', `Waiver number ${wn.waiverNumber} is ${wn.status}, not pending`);
  if (isExpired(wn)) throw new ApiError('expired', `Waiver number ${wn.waiverNumber} expired on ${wn.pinExpiresAt}`);
  return wn;
}

const bookingsOfRef = (customerId: string, ref: string) => and(eq(bookings.customerId, customerId), or(eq(bookings.transactionId, ref), eq(bookings.id, ref)));

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
export async function signWaiver(ctx: Ctx, input: SignInput, meta: { baseUrl: string; observedIp: string | null; userAgent: string | null }) {
  const t = await ctx.db.select().from(waiverTemplates).where(and(eq(waiverTemplates.id, input.templateId), isNull(waiverTemplates.deletedAt))).get();
  if (!t) throw notFound('Waiver template');
  const customerId = t.customerId;
  const signatureId = input.signatureId ?? newId('sig');
  const dup = await ctx.db.select({ id: waiverSignatures.id }).from(waiverSignatures).where(eq(waiverSignatures.id, signatureId)).get();
  if (dup) throw new ApiError('already_exists', `Signature ${signatureId} already exists`);

  const sections = (t.sections ?? []) as unknown as StoredSection[];
  const { values, images } = await checkForm(sections, input.formData);
  let wn = input.waiverNumber ? await findWaiverNumberForSigning(ctx, customerId, input.waiverNumber) : null;
  const txnRef = input.transactionId ?? input.tid ?? wn?.transactionId ?? null;

  const location = await ctx.db.select().from(locations).where(eq(locations.id, t.locationId)).get();
  const { businessName } = location ? await logoOf(ctx, location) : { businessName: '' };
  const signedAt = new Date().toISOString();
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
      ipAddress,
      userAgent,
      contentHash,
    });
  } catch (err) {
    if (err instanceof BadImageError) throw new ApiError('validation_failed', err.message, { details: [{ field: `formData.${err.field}`, code: 'invalid_signature', message: err.message }] });
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
        const r = await ctx.db.select({ id: renters.id }).from(renters).where(and(eq(renters.id, wn.renterId), eq(renters.customerId, customerId), isNull(renters.deletedAt))).get();
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
        statements.push(
          ctx.db
            .update(renters)
            .set({ waiversSignedUrls: sqlJsonAppendUnique(renters.waiversSignedUrls, [url]), updatedAt: signedAt })
            .where(and(eq(renters.id, renterId), eq(renters.customerId, customerId))),
        );
      }

      let bookingsUpdated = 0;
      if (txnRef) {
        const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)` }).from(bookings).where(bookingsOfRef(customerId, txnRef)).all();
        bookingsUpdated = Number(n);
        if (bookingsUpdated) {
          const entry = { signatureId, url, templateId: t.id, signerName: `${input.firstName} ${input.lastName}`, email, assignTo: signer.assignTo, renterId, signedAt };
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

async function getSignature(ctx: Ctx, signatureId: string): Promise<SignatureRow> {
  const s = await ctx.db.select().from(waiverSignatures).where(eq(waiverSignatures.id, signatureId)).get();
  if (!s) throw notFound('Signed waiver');
  return s;
}

/** The signed waiver PDF (public by its unguessable signature id). */
export async function signedPdf(ctx: Ctx, signatureId: string): Promise<{ body: ReadableStream; size: number; filename: string }> {
  const s = await getSignature(ctx, signatureId);
  const obj = await ctx.env.FILES.get(s.pdfKey);
  if (!obj) throw new ApiError('not_found', 'The PDF of this signed waiver is missing');
  return { body: obj.body, size: obj.size, filename: `waiver-${s.id}.pdf` };
}

export async function signatureInfo(ctx: Ctx, signatureId: string, baseUrl: string) {
  const s = await getSignature(ctx, signatureId);
  return {
    signatureId: s.id,
    templateId: s.templateId,
    templateTitle: String((s.template as { title?: string }).title ?? ''),
    customerId: s.customerId,
    locationId: s.locationId,
    firstName: s.firstName,
    lastName: s.lastName,
    dob: s.dob,
    email: s.email,
    phone: s.phone,
    addressLine: s.addressLine,
    assignTo: s.assignTo,
    waiverNumber: s.waiverNumber,
    transactionId: s.transactionId,
    tid: s.tid,
    renterId: s.renterId,
    formData: { ...s.formData, ...Object.fromEntries((s.images ?? []).map((i) => [String(i.field), { image: i.type, bytes: i.bytes, sha256: i.sha256 }])) },
    bookingData: s.bookingData ?? null,
    signedAt: s.signedAt,
    ipAddress: s.ipAddress,
    userAgent: s.userAgent,
    contentHash: s.contentHash,
    pdfSha256: s.pdfSha256,
    pdfSize: s.pdfSize,
    waiverUrl: signatureLink(baseUrl, s.id),
    waiverNumberCompleted: s.waiverNumberCompleted,
    bookingsUpdated: s.bookingsUpdated,
  };
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
    const wn = await ctx.db.select({ status: waiverNumbers.status, signatureId: waiverNumbers.signatureId }).from(waiverNumbers).where(and(eq(waiverNumbers.id, s.waiverNumberId), eq(waiverNumbers.customerId, s.customerId))).get();
    waiverNumberCompleted = wn?.status === 'COMPLETED' && wn.signatureId === s.id;
  }
  let renterUpdated = false;
  if (s.renterId) {
    const url = signatureLink(baseUrl, s.id);
    const r = await ctx.db.select({ urls: renters.waiversSignedUrls }).from(renters).where(and(eq(renters.id, s.renterId), eq(renters.customerId, s.customerId))).get();
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

