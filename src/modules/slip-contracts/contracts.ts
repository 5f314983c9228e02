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
import { contractStateStmts, getReservationRow, type ReservationRow } from '../slip-reservations/service';
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
    // Dates as the renter reads them ("Sat 1 May 2027"), never ISO.
    'reservation.arrivalDate': formatCalendarDate(r.arrivalDate),
    'reservation.departureDate': formatCalendarDate(r.departureDate),
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
