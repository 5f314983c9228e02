import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { base64Decode, sha256Hex } from '../../lib/crypto';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import { localDate } from '../../lib/time';
import type { SlipReservationDeleted } from '../../lib/hooks';
import type { Stmt } from '../../db/client';
import { slipContracts } from '../../db/schema/slip-contracts';
import { emailStmt } from '../../adapters/messages';
import { getOwnCustomer } from '../customers/service';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { contractStateStmts, countWithoutContract, getReservationRow, reservationRowsByIds, type ReservationRow } from '../slip-reservations/service';
import { getSlipRow } from '../slips/service';
import type * as s from './schemas';
import { buildContractPdf, buildSignedPdf, type SignatureRecord } from './pdf';
import { templateFor } from './templates';
import { render } from './variables';

type ContractRow = typeof slipContracts.$inferSelect;

const money = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const isVersionRace = (err: unknown) =>
  /UNIQUE constraint failed: slip_reservation_changes\.id/.test(String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''));

export function contractOut(c: ContractRow): z.output<typeof s.Contract> {
  return {
    id: c.id,
    customerId: c.customerId,
    locationId: c.locationId,
    reservationId: c.reservationId,
    templateId: c.templateId,
    status: c.status,
    title: c.title,
    body: c.renderedBody,
    variables: c.variables,
    documentSha256: c.documentSha256,
    pdfUrl: `/slip-contracts/${c.id}/pdf`,
    sentAt: c.sentAt,
    sentTo: c.sentTo,
    sendCount: c.sendCount,
    signTokenExpiresAt: c.status === 'sent' ? c.signTokenExpiresAt : null,
    signature: c.signedAt
      ? {
          signedAt: c.signedAt,
          signerName: c.signerName,
          signerEmail: c.signerEmail,
          signatureType: c.signatureType,
          ip: c.signerIp,
          userAgent: c.signerUserAgent,
          signedVia: c.signedVia,
        }
      : null,
    voidedAt: c.voidedAt,
    voidReason: c.voidReason,
    pdfRegeneratedAt: c.pdfRegeneratedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

async function getContractRow(ctx: Ctx, id: string): Promise<ContractRow> {
  const row = await ctx.db
    .select()
    .from(slipContracts)
    .where(and(eq(slipContracts.id, id), eq(slipContracts.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Contract');
  return row;
}

export const getContract = async (ctx: Ctx, id: string) => contractOut(await getContractRow(ctx, id));

/** The values of the template variables for a reservation. */
async function valuesFor(ctx: Ctx, r: ReservationRow): Promise<Record<string, string>> {
  const [slip, loc, account, settings] = await Promise.all([
    getSlipRow(ctx, r.slipId),
    getLocationInTenant(ctx, r.locationId),
    getOwnCustomer(ctx),
    getSlipSettings(ctx, r.locationId),
  ]);
  const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const balance = r.totalCents - (r.amountPaidCents - r.amountRefundedCents);
  return {
    'renter.firstName': r.renter.firstName,
    'renter.lastName': r.renter.lastName,
    'renter.fullName': `${r.renter.firstName} ${r.renter.lastName}`,
    'renter.email': r.renter.email,
    'renter.phone': str(r.renter.phone),
    'vessel.name': r.boat.vesselName,
    'vessel.loaFt': str(r.boat.loaFt),
    'vessel.beamFt': str(r.boat.beamFt),
    'vessel.draftFt': str(r.boat.draftFt),
    'vessel.registration': str(r.boat.registration),
    'vessel.make': str(r.boat.make),
    'vessel.model': str(r.boat.model),
    'vessel.year': str(r.boat.year),
    'slip.unitNumber': slip.unitNumber,
    'slip.name': str(slip.name),
    'slip.section': str(slip.section),
    'slip.unitType': slip.unitType,
    'slip.lengthFt': str(slip.lengthFt),
    'reservation.number': r.reservationNumber,
    'reservation.rateType': r.rateType,
    'reservation.arrivalDate': r.arrivalDate,
    'reservation.departureDate': r.departureDate,
    'reservation.nights': String(Math.round((Date.parse(r.departureDate) - Date.parse(r.arrivalDate)) / 86_400_000)),
    'reservation.ratePerFoot': money(r.pricing.ratePerFootCents),
    'reservation.billableLengthFt': String(r.pricing.billableLengthFt),
    'reservation.total': money(r.totalCents),
    'reservation.deposit': money(r.depositCents),
    'reservation.balance': money(balance),
    'location.name': loc.name,
    'location.address': loc.address,
    'location.phone': loc.phoneNumber,
    'marina.name': account.businessName ?? account.name,
    'settings.checkInTime': settings.checkInTime,
    'settings.checkOutTime': settings.checkOutTime,
    'settings.cancellationPolicy': str(settings.cancellationPolicy),
    'contract.date': localDate(Date.now(), loc.timezone),
  };
}

const pdfKey = (c: { customerId: string; id: string }, name: string) => `slip-contracts/${c.customerId}/${c.id}/${name}.pdf`;

async function commitContract(ctx: Ctx, stmts: Stmt[], opts: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, stmts, opts);
  } catch (err) {
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The reservation was changed meanwhile; retry');
    throw err;
  }
}

export async function generateContract(ctx: Ctx, input: z.output<typeof s.GenerateBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, input.reservationId);
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `The reservation is ${r.status}`);
  const existing = await ctx.db
    .select()
    .from(slipContracts)
    .where(
      and(eq(slipContracts.customerId, r.customerId), eq(slipContracts.reservationId, r.id), inArray(slipContracts.status, ['generated', 'sent', 'signed'])),
    )
    .all();
  if (existing.some((c) => c.status === 'signed'))
    throw new ApiError('invalid_state', 'The reservation already has a signed contract; void it first to generate a new one');
  const t = await templateFor(ctx, r.locationId, input.templateId);
  const values = { ...(t.defaults ?? {}), ...(await valuesFor(ctx, r)), ...(input.values ?? {}) };
  const title = render(t.title, values);
  const body = render(t.body, values);
  const now = new Date().toISOString();
  const id = newId('sctr');
  const loc = await getLocationInTenant(ctx, r.locationId);
  await loadPdfFonts(ctx.env.ASSETS);
  const pdf = await buildContractPdf({
    contractId: id,
    title: title.text,
    body: body.text,
    header: `${values['marina.name']} - ${loc.name}`,
    details: [
      ['Reservation', r.reservationNumber],
      ['Renter', values['renter.fullName']],
      ['Vessel', `${r.boat.vesselName} (${r.boat.loaFt} ft${r.boat.registration ? `, ${r.boat.registration}` : ''})`],
      ['Unit', `${values['slip.unitNumber']}${values['slip.section'] ? `, ${values['slip.section']}` : ''}`],
      ['Term', `${r.rateType}, ${r.arrivalDate} to ${r.departureDate}`],
      ['Total', values['reservation.total']],
    ],
    signerName: values['renter.fullName'],
    createdAt: now,
  });
  const sha = await sha256Hex(pdf);
  const row: ContractRow = {
    id,
    customerId: r.customerId,
    locationId: r.locationId,
    reservationId: r.id,
    templateId: t.id,
    status: 'generated',
    title: title.text,
    renderedBody: body.text,
    variables: values,
    pdfKey: pdfKey({ customerId: r.customerId, id }, 'contract'),
    documentSha256: sha,
    signedPdfKey: null,
    signTokenHash: null,
    signTokenExpiresAt: null,
    sentAt: null,
    sentTo: null,
    sendCount: 0,
    signedAt: null,
    signerName: null,
    signerEmail: null,
    signatureType: null,
    signature: null,
    signerIp: null,
    signerUserAgent: null,
    signedVia: null,
    voidedAt: null,
    voidReason: null,
    pdfRegeneratedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.env.FILES.put(row.pdfKey, pdf, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { sha256: sha } });
  // A previous unsigned contract of the reservation is superseded.
  const stmts: Stmt[] = [
    ...existing.map((c) =>
      ctx.db
        .update(slipContracts)
        .set({ status: 'voided', voidedAt: now, voidReason: `Superseded by ${id}`, signTokenHash: null })
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
    ),
    ctx.db.insert(slipContracts).values(row),
    ...contractStateStmts(ctx, r, { status: 'pending', contractId: id }),
  ];
  await commitContract(ctx, stmts, {
    audit: { action: 'slip_contract.generate', targetType: 'slip_contract', targetId: id, details: { reservationId: r.id, templateId: t.id, sha256: sha } },
  });
  return { ...contractOut(row), missingVariables: [...new Set([...title.missing, ...body.missing])] };
}

function signLinkMail(ctx: Ctx, c: ContractRow, r: ReservationRow, to: string, token: string, baseUrl: string, message?: string) {
  const link = `${baseUrl}/slip-portal/reservations/${r.id}/contract?contractId=${c.id}&token=${token}`;
  return emailStmt(ctx, {
    to,
    subject: `Please sign: ${c.title}`,
    body: [
      `Hello ${r.renter.firstName},`,
      `please read and sign the contract for your slip reservation ${r.reservationNumber} (${r.arrivalDate} to ${r.departureDate}).`,
      message ?? '',
      `Sign here: ${link}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
    template: 'slip_contract.sign_request',
    customerId: c.customerId,
    metadata: { contractId: c.id, slipReservationId: r.id, link },
  }).stmt;
}

async function newToken() {
  const token = randomString(40);
  return { token, hash: await sha256Hex(token) };
}

export async function sendContract(ctx: Ctx, input: z.output<typeof s.SendBody>, baseUrl: string) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'generated' && c.status !== 'sent') throw new ApiError('invalid_state', `A ${c.status} contract cannot be sent for signature`);
  const r = await getReservationRow(ctx, c.reservationId);
  const to = input.email ?? r.renter.email;
  const { token, hash } = await newToken();
  const now = new Date();
  const expires = new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString();
  const patch: Partial<ContractRow> = {
    status: 'sent',
    sentAt: now.toISOString(),
    sentTo: to,
    signTokenHash: hash,
    signTokenExpiresAt: expires,
    sendCount: c.sendCount + 1,
  };
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
      signLinkMail(ctx, c, r, to, token, baseUrl, input.message),
      ...(r.contractStatus !== 'sent' || r.contractId !== c.id ? contractStateStmts(ctx, r, { status: 'sent', contractId: c.id }) : []),
    ],
    { audit: { action: 'slip_contract.send', targetType: 'slip_contract', targetId: c.id, details: { to, expires } } },
  );
  return contractOut({ ...c, ...patch, updatedAt: now.toISOString() });
}

export async function resendContract(ctx: Ctx, input: { contractId: string; message?: string }, baseUrl: string) {
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'sent' && c.status !== 'generated') throw new ApiError('invalid_state', `A ${c.status} contract cannot be resent`);
  return await sendContract(ctx, { contractId: c.id, email: c.sentTo ?? undefined, message: input.message, expiresInDays: 14 }, baseUrl);
}

function parseSignature(sig: string, name: string): SignatureRecord['signature'] {
  const m = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/=\s]+)$/.exec(sig);
  if (!m) {
    if (sig.length > 200)
      throw new ApiError('validation_failed', 'A typed signature is at most 200 characters', { details: [{ field: 'signature', message: 'too long' }] });
    return { type: 'typed', text: sig.trim() || name };
  }
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(m[2].replace(/\s/g, ''));
  } catch {
    throw new ApiError('validation_failed', 'The signature image is not valid base64', { details: [{ field: 'signature', message: 'invalid base64' }] });
  }
  return { type: 'drawn', mime: m[1] as 'image/png' | 'image/jpeg', bytes };
}

/**
 * Signs a contract: checks the stored PDF still hashes to what was generated, adds the signature
 * page and stores the signed PDF. `via` says who recorded it: staff (POST /slip-contracts/sign), the
 * renter with the e-mailed token (the tenant portal passes `token`), or the renter signed in to the
 * tenant portal (`renterPortal`: the portal checked the session owns the reservation; only a
 * contract sent for signature can be signed that way).
 */
export async function signContract(
  ctx: Ctx,
  input: z.output<typeof s.SignBody> & { token?: string; renterPortal?: boolean },
  meta: { ip: string | null; userAgent: string | null },
) {
  if (!input.token && !input.renterPortal) requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status === 'signed') throw new ApiError('invalid_state', 'The contract is already signed');
  if (c.status === 'voided') throw new ApiError('invalid_state', 'The contract was voided');
  if (input.renterPortal && !input.token && c.status !== 'sent') throw new ApiError('invalid_state', 'The marina has not sent this contract for signature yet');
  if (input.token) {
    if (!c.signTokenHash || (await sha256Hex(input.token)) !== c.signTokenHash) throw new ApiError('forbidden', 'The signing link is not valid');
    if (c.signTokenExpiresAt && c.signTokenExpiresAt < new Date().toISOString())
      throw new ApiError('expired', 'The signing link has expired; ask the marina to resend it');
  }
  const obj = await ctx.env.FILES.get(c.pdfKey);
  if (!obj) throw new ApiError('invalid_state', 'The contract PDF is missing; generate the contract again');
  const original = new Uint8Array(await obj.arrayBuffer());
  const sha = await sha256Hex(original);
  if (sha !== c.documentSha256) throw new ApiError('invalid_state', 'The stored contract does not match what was generated; generate it again');
  const r = await getReservationRow(ctx, c.reservationId);
  const signature = parseSignature(input.signature, input.signerName);
  const signedAt = new Date().toISOString();
  const record: SignatureRecord = {
    signerName: input.signerName,
    signerEmail: input.signerEmail ?? null,
    signedAt,
    ip: meta.ip,
    userAgent: meta.userAgent,
    documentSha256: sha,
    signature,
  };
  await loadPdfFonts(ctx.env.ASSETS);
  let signed: Uint8Array;
  try {
    signed = await buildSignedPdf(original, c.id, record);
  } catch (err) {
    throw new ApiError('validation_failed', `The signature image cannot be read: ${(err as Error).message}`, {
      details: [{ field: 'signature', message: 'unreadable image' }],
    });
  }
  const key = pdfKey(c, 'signed');
  await ctx.env.FILES.put(key, signed, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { documentSha256: sha } });
  const patch: Partial<ContractRow> = {
    status: 'signed',
    signedAt,
    signerName: input.signerName,
    signerEmail: input.signerEmail ?? null,
    signatureType: signature.type,
    signature: signature.type === 'typed' ? signature.text : input.signature,
    signerIp: meta.ip,
    signerUserAgent: meta.userAgent,
    signedVia: input.token ? 'renter_link' : input.renterPortal ? 'renter_portal' : 'staff',
    signedPdfKey: key,
    signTokenHash: null,
  };
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId), inArray(slipContracts.status, ['generated', 'sent']))),
      ...contractStateStmts(ctx, r, { status: 'signed', contractId: c.id, signedAt }),
    ],
    {
      audit: {
        action: 'slip_contract.sign',
        targetType: 'slip_contract',
        targetId: c.id,
        details: { signerName: input.signerName, sha256: sha, ip: meta.ip, via: patch.signedVia },
      },
    },
  );
  return contractOut({ ...c, ...patch, updatedAt: signedAt });
}

export async function voidContract(ctx: Ctx, input: { contractId: string; reason: string }) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status === 'voided') return contractOut(c);
  const r = await getReservationRow(ctx, c.reservationId);
  const now = new Date().toISOString();
  const patch: Partial<ContractRow> = { status: 'voided', voidedAt: now, voidReason: input.reason, signTokenHash: null };
  await commitContract(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set(patch)
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
      ...(r.contractId === c.id ? contractStateStmts(ctx, r, { status: 'none', contractId: null }) : []),
    ],
    { audit: { action: 'slip_contract.void', targetType: 'slip_contract', targetId: c.id, details: { reason: input.reason, was: c.status } } },
  );
  return contractOut({ ...c, ...patch, updatedAt: now });
}

/** Rebuilds the signed PDF from the stored original and the signature record (after a layout or font fix). */
export async function regenerateSignedPdf(ctx: Ctx, input: { contractId: string }) {
  requirePermission(ctx, 'marina');
  const c = await getContractRow(ctx, input.contractId);
  if (c.status !== 'signed' || !c.signedAt) throw new ApiError('invalid_state', 'Only a signed contract has a signed PDF to regenerate');
  const obj = await ctx.env.FILES.get(c.pdfKey);
  if (!obj) throw new ApiError('invalid_state', 'The original contract PDF is missing');
  const original = new Uint8Array(await obj.arrayBuffer());
  const signature: SignatureRecord['signature'] =
    c.signatureType === 'drawn' && c.signature ? parseSignature(c.signature, c.signerName ?? '') : { type: 'typed', text: c.signature ?? c.signerName ?? '' };
  await loadPdfFonts(ctx.env.ASSETS);
  const pdf = await buildSignedPdf(original, c.id, {
    signerName: c.signerName ?? '',
    signerEmail: c.signerEmail,
    signedAt: c.signedAt,
    ip: c.signerIp,
    userAgent: c.signerUserAgent,
    documentSha256: c.documentSha256,
    signature,
  });
  const key = pdfKey(c, 'signed');
  await ctx.env.FILES.put(key, pdf, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { documentSha256: c.documentSha256 } });
  const now = new Date().toISOString();
  await commit(
    ctx,
    [
      ctx.db
        .update(slipContracts)
        .set({ signedPdfKey: key, pdfRegeneratedAt: now })
        .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId))),
    ],
    {
      audit: { action: 'slip_contract.regenerate_pdf', targetType: 'slip_contract', targetId: c.id },
    },
  );
  return contractOut({ ...c, signedPdfKey: key, pdfRegeneratedAt: now, updatedAt: now });
}

export async function contractPdf(ctx: Ctx, id: string): Promise<{ bytes: ArrayBuffer; filename: string }> {
  const c = await getContractRow(ctx, id);
  const obj = await ctx.env.FILES.get(c.signedPdfKey ?? c.pdfKey);
  if (!obj) throw notFound('Contract PDF');
  return { bytes: await obj.arrayBuffer(), filename: `${c.id}${c.signedPdfKey ? '-signed' : ''}.pdf` };
}

export async function contractsOfReservation(ctx: Ctx, reservationId: string) {
  const r = await getReservationRow(ctx, reservationId);
  const rows = await ctx.db
    .select()
    .from(slipContracts)
    .where(and(eq(slipContracts.customerId, r.customerId), eq(slipContracts.reservationId, r.id)))
    .orderBy(desc(slipContracts.createdAt))
    .all();
  return { reservationId: r.id, data: rows.map(contractOut) };
}

/** Contracts in the given statuses with a summary of their reservation. */
export async function contractsByStatus(ctx: Ctx, statuses: ContractRow['status'][], q: { locationId?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const conds: SQL[] = [eq(slipContracts.customerId, customerId), inArray(slipContracts.status, statuses)];
  if (q.locationId) {
    await getLocationInTenant(ctx, q.locationId);
    conds.push(eq(slipContracts.locationId, q.locationId));
  }
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    ctx.db.select().from(slipContracts).where(where).orderBy(desc(slipContracts.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slipContracts)
      .where(where)
      .get(),
  ]);
  const res = new Map(
    (
      await reservationRowsByIds(
        ctx,
        rows.map((c) => c.reservationId),
      )
    ).map((r) => [r.id, r]),
  );
  return {
    data: rows
      .filter((c) => res.has(c.reservationId))
      .map((c) => {
        const r = res.get(c.reservationId)!;
        return {
          ...contractOut(c),
          reservation: {
            reservationNumber: r.reservationNumber,
            status: r.status,
            slipId: r.slipId,
            renterName: `${r.renter.firstName} ${r.renter.lastName}`,
            vesselName: r.boat.vesselName,
            arrivalDate: r.arrivalDate,
            departureDate: r.departureDate,
          },
        };
      }),
    total: Number(count?.n ?? 0),
    limit: q.limit,
    offset: q.offset,
  };
}

export async function contractStats(ctx: Ctx, q: { locationId?: string }) {
  const customerId = tenantOf(ctx);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  const loc = q.locationId ? [eq(slipContracts.locationId, q.locationId)] : [];
  const rows = await ctx.db
    .select({ status: slipContracts.status, n: sql<number>`count(*)` })
    .from(slipContracts)
    .where(and(eq(slipContracts.customerId, customerId), ...loc))
    .groupBy(slipContracts.status)
    .all();
  const byStatus: Record<string, number> = { generated: 0, sent: 0, signed: 0, voided: 0 };
  for (const r of rows) byStatus[r.status] = Number(r.n);
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const signed = await ctx.db
    .select({
      n: sql<number>`count(*)`,
      avg: sql<number | null>`avg((julianday(${slipContracts.signedAt}) - julianday(coalesce(${slipContracts.sentAt}, ${slipContracts.createdAt}))) * 24)`,
    })
    .from(slipContracts)
    .where(and(eq(slipContracts.customerId, customerId), eq(slipContracts.status, 'signed'), gte(slipContracts.signedAt, since), ...loc))
    .get();
  const avgAll = await ctx.db
    .select({
      avg: sql<number | null>`avg((julianday(${slipContracts.signedAt}) - julianday(coalesce(${slipContracts.sentAt}, ${slipContracts.createdAt}))) * 24)`,
    })
    .from(slipContracts)
    .where(and(eq(slipContracts.customerId, customerId), eq(slipContracts.status, 'signed'), ...loc))
    .get();
  const without = await countWithoutContract(ctx, q.locationId);
  return {
    byStatus,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    signedLast30Days: Number(signed?.n ?? 0),
    averageHoursToSign: avgAll?.avg == null ? null : Math.round(Number(avgAll.avg) * 10) / 10,
    reservationsWithoutContract: without,
  };
}

/** Hook: a reservation was deleted; its contracts and their PDFs go with it. */
export async function onReservationDeleted(ctx: Ctx, e: SlipReservationDeleted) {
  const rows = await ctx.db
    .select()
    .from(slipContracts)
    .where(and(eq(slipContracts.customerId, e.customerId), eq(slipContracts.reservationId, e.reservationId)))
    .all();
  if (!rows.length) return;
  const keys = rows.flatMap((r) => [r.pdfKey, ...(r.signedPdfKey ? [r.signedPdfKey] : [])]);
  await ctx.env.FILES.delete(keys);
  await ctx.db.delete(slipContracts).where(and(eq(slipContracts.customerId, e.customerId), eq(slipContracts.reservationId, e.reservationId)));
}
