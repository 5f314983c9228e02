/** Tenant-scoped reads of contracts: one contract, its PDF, the contracts of a reservation, lists by status and the counts. */
import { and, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { fromNowIso } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { slipContracts } from '../../db/schema/slip-contracts';
import { getLocationInTenant } from '../locations/service';
import { countWithoutContract, getReservationRow, reservationRowsByIds } from '../slip-reservations/service';
import { contractOut, type ContractRow } from './views';

export async function getContractRow(ctx: Ctx, id: string): Promise<ContractRow> {
  const row = await ctx.db
    .select()
    .from(slipContracts)
    .where(and(eq(slipContracts.id, id), eq(slipContracts.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Contract');
  return row;
}

export const getContract = async (ctx: Ctx, id: string) => contractOut(await getContractRow(ctx, id));

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
  const since = fromNowIso(ctx, -30 * 86_400_000);
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
