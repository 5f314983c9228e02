/**
 * Contracts generated for reservations: the template's variables filled from the reservation, the
 * PDF stored with its SHA-256. Also what every contract write uses (the PDF keys, the commit that
 * answers a reservation changed meanwhile with 409) and the hook that deletes a reservation's
 * contracts with it.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import { nowIso, todayIn } from '../../lib/clock';
import { formatCalendarDate, formatCalendarRange } from '../../lib/local-time';
import type { SlipReservationDeleted } from '../../lib/hooks';
import type { Stmt } from '../../db/client';
import { slipContracts } from '../../db/schema/slip-contracts';
import { getOwnCustomer } from '../customers/service';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { contractStateStmts, getReservationRow, reservationMoney, type ReservationRow } from '../slip-reservations/service';
import { getSlipRow } from '../slips/service';
import type * as s from './schemas';
import { buildContractPdf } from './pdf';
import { templateFor } from './templates';
import { render } from './variables';
import { contractOut, type ContractRow } from './views';

const money = (c: number) => `$${(c / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const isVersionRace = (err: unknown) =>
  /UNIQUE constraint failed: slip_reservation_changes\.id/.test(String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''));

/** The values of the template variables for a reservation. */
export async function valuesFor(ctx: Ctx, r: ReservationRow): Promise<Record<string, string>> {
  const [slip, loc, account, settings, view] = await Promise.all([
    getSlipRow(ctx, r.slipId),
    getLocationInTenant(ctx, r.locationId),
    getOwnCustomer(ctx),
    getSlipSettings(ctx, r.locationId),
    reservationMoney(ctx, r),
  ]);
  const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  // The stay's money view (its ledger, or its quote before confirmation): the total and balance the contract states.
  const balance = view.balance;
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
    // Dates as the renter reads them ("Sat 1 May 2027"), never ISO.
    'reservation.arrivalDate': formatCalendarDate(r.arrivalDate),
    'reservation.departureDate': formatCalendarDate(r.departureDate),
    'reservation.nights': String(Math.round((Date.parse(r.departureDate) - Date.parse(r.arrivalDate)) / 86_400_000)),
    'reservation.ratePerFoot': money(r.pricing.ratePerFootCents),
    'reservation.billableLengthFt': String(r.pricing.billableLengthFt),
    'reservation.total': money(view.total),
    'reservation.deposit': money(r.depositCents),
    'reservation.balance': money(balance),
    'location.name': loc.name,
    'location.address': loc.address,
    'location.phone': loc.phoneNumber,
    'marina.name': account.businessName ?? account.name,
    'settings.checkInTime': settings.checkInTime,
    'settings.checkOutTime': settings.checkOutTime,
    'settings.cancellationPolicy': str(settings.cancellationPolicy),
    'contract.date': formatCalendarDate(todayIn(ctx, loc.timezone)),
  };
}

export const pdfKey = (c: { customerId: string; id: string }, name: string) => `slip-contracts/${c.customerId}/${c.id}/${name}.pdf`;

export async function commitContract(ctx: Ctx, stmts: Stmt[], opts: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, stmts, opts);
  } catch (err) {
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The reservation was changed meanwhile; retry');
    throw err;
  }
}

/** The unsigned contracts (generated or sent) and the signed ones of a reservation. */
export async function liveContractsOf(ctx: Ctx, r: ReservationRow) {
  return ctx.db
    .select()
    .from(slipContracts)
    .where(
      and(eq(slipContracts.customerId, r.customerId), eq(slipContracts.reservationId, r.id), inArray(slipContracts.status, ['generated', 'sent', 'signed'])),
    )
    .all();
}

export async function generateContract(ctx: Ctx, input: z.output<typeof s.GenerateBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, input.reservationId);
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `The reservation is ${r.status}`);
  const existing = await liveContractsOf(ctx, r);
  // A signed contract stands, unless the reservation's terms changed since (its contract state went back to pending).
  if (existing.some((c) => c.status === 'signed') && r.contractStatus !== 'pending')
    throw new ApiError('invalid_state', 'The reservation already has a signed contract; void it first to generate a new one');
  const t = await templateFor(ctx, r.locationId, input.templateId);
  const values = { ...(t.defaults ?? {}), ...(await valuesFor(ctx, r)), ...(input.values ?? {}) };
  const draft = await draftContract(ctx, r, t, values);
  const row = draft.row;
  // A previous unsigned contract of the reservation is superseded.
  const stmts: Stmt[] = [
    ...existing.map((c) => supersedeStmt(ctx, c, `Superseded by ${row.id}`)),
    ctx.db.insert(slipContracts).values(row),
    ...contractStateStmts(ctx, r, { status: 'pending', contractId: row.id }),
  ];
  await commitContract(ctx, stmts, {
    audit: {
      action: 'slip_contract.generate',
      targetType: 'slip_contract',
      targetId: row.id,
      details: { reservationId: r.id, templateId: t.id, sha256: row.documentSha256 },
    },
  });
  return { ...contractOut(row), missingVariables: draft.missingVariables };
}

/** Voids a contract that a newer one replaces (its text, PDF and any signature record stay). */
export function supersedeStmt(ctx: Ctx, c: ContractRow, reason: string) {
  return ctx.db
    .update(slipContracts)
    .set({ status: 'voided', voidedAt: nowIso(ctx), voidReason: reason, signTokenHash: null })
    .where(and(eq(slipContracts.id, c.id), eq(slipContracts.customerId, c.customerId)));
}

/**
 * A new contract of a reservation from a template and the variables' values: the rendered title and
 * body, the PDF built and stored in R2 with its SHA-256, and its row (status `generated`), to insert.
 */
export async function draftContract(ctx: Ctx, r: ReservationRow, t: Awaited<ReturnType<typeof templateFor>>, values: Record<string, string>) {
  const title = render(t.title, values);
  const body = render(t.body, values);
  const now = nowIso(ctx);
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
      ['Term', `${r.rateType}, ${formatCalendarRange(r.arrivalDate, r.departureDate)}`],
      ['Total', values['reservation.total']],
    ],
    signerName: values['renter.fullName'],
    createdAt: now,
  });
  const sha = await sha256Hex(pdf);
  const row = newContractRow(r, { id, templateId: t.id, title: title.text, body: body.text, values, sha, now });
  await ctx.env.FILES.put(row.pdfKey, pdf, { httpMetadata: { contentType: 'application/pdf' }, customMetadata: { sha256: sha } });
  return { row, missingVariables: [...new Set([...title.missing, ...body.missing])] };
}

function newContractRow(
  r: ReservationRow,
  c: { id: string; templateId: string; title: string; body: string; values: Record<string, string>; sha: string; now: string },
): ContractRow {
  return {
    id: c.id,
    customerId: r.customerId,
    locationId: r.locationId,
    reservationId: r.id,
    templateId: c.templateId,
    status: 'generated',
    title: c.title,
    renderedBody: c.body,
    variables: c.values,
    pdfKey: pdfKey({ customerId: r.customerId, id: c.id }, 'contract'),
    documentSha256: c.sha,
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
    createdAt: c.now,
    updatedAt: c.now,
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
