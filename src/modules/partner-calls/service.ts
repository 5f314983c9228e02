/**
 * The partner-calls module's face. No other module calls it today: its router reaches the calls defined here.
 */
import { and, count, desc, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { partnerCalls } from '../../db/schema/partner-calls';
import { FINAL_CALL_STATUSES, getCall as providerCall, hangupCall, placeCall } from '../../adapters/telephony';
import { getLocationInTenant } from '../locations/service';

type CallRow = typeof partnerCalls.$inferSelect;

const callOut = (r: CallRow) => ({
  callId: r.id,
  customerId: r.customerId,
  locationId: r.locationId,
  appId: r.appId,
  installationId: r.installationId,
  from: r.fromNumber,
  to: r.toNumber,
  message: r.message,
  status: r.status,
  durationSeconds: r.durationSeconds,
  endedAt: r.endedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** An installed app sees the calls its installation placed; operator users see all of theirs. */
function visibility(ctx: Ctx) {
  const inst = ctx.principal.app?.installationId;
  return and(eq(partnerCalls.customerId, tenantOf(ctx)), inst ? eq(partnerCalls.installationId, inst) : undefined);
}

async function callInScope(ctx: Ctx, id: string): Promise<CallRow> {
  const row = await ctx.db
    .select()
    .from(partnerCalls)
    .where(and(eq(partnerCalls.id, id), visibility(ctx)))
    .get();
  if (!row) throw notFound('Call');
  return row;
}

/** Places a call from the location's number through the telephony adapter. Needs the `calls` permission. */
export async function placePartnerCall(ctx: Ctx, input: { locationId: string; to: string; message: string }) {
  requirePermission(ctx, 'calls');
  const customerId = tenantOf(ctx);
  const location = await getLocationInTenant(ctx, input.locationId);
  const placed = await placeCall(ctx.env, { from: location.phoneNumber, to: input.to, message: input.message });
  const now = nowIso(ctx);
  const row: CallRow = {
    id: newId('call'),
    customerId,
    locationId: location.id,
    installationId: ctx.principal.app?.installationId ?? null,
    appId: ctx.principal.app?.appId ?? null,
    placedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    fromNumber: location.phoneNumber,
    toNumber: input.to,
    message: input.message,
    providerId: placed.providerId,
    status: placed.status,
    durationSeconds: placed.durationSeconds,
    endedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(partnerCalls).values(row)], {
    audit: { action: 'call.place', targetType: 'call', targetId: row.id, details: { to: row.toNumber, appId: row.appId } },
  });
  return callOut(row);
}

/** Refreshes a call that has not ended from the provider. */
async function refreshed(ctx: Ctx, row: CallRow): Promise<CallRow> {
  if (FINAL_CALL_STATUSES.includes(row.status)) return row;
  const state = await providerCall(ctx.env, row.providerId);
  if (state.status === row.status && state.durationSeconds === row.durationSeconds) return row;
  const ended = FINAL_CALL_STATUSES.includes(state.status);
  const patch = { status: state.status, durationSeconds: state.durationSeconds, endedAt: ended ? nowIso(ctx) : null };
  await ctx.db
    .update(partnerCalls)
    .set(patch)
    .where(and(eq(partnerCalls.id, row.id), eq(partnerCalls.customerId, row.customerId)));
  return { ...row, ...patch };
}

export async function listPartnerCalls(ctx: Ctx, q: { locationId?: string; limit: number; offset: number }) {
  const where = and(visibility(ctx), q.locationId ? eq(partnerCalls.locationId, q.locationId) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(partnerCalls).where(where).orderBy(desc(partnerCalls.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(partnerCalls).where(where).get(),
  ]);
  const fresh = await Promise.all(rows.map((r) => refreshed(ctx, r)));
  return { data: fresh.map(callOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export async function getPartnerCall(ctx: Ctx, id: string) {
  return callOut(await refreshed(ctx, await callInScope(ctx, id)));
}

/** Ends a call; 409 `invalid_state` once it has ended. */
export async function hangupPartnerCall(ctx: Ctx, id: string) {
  requirePermission(ctx, 'calls');
  const row = await refreshed(ctx, await callInScope(ctx, id));
  if (FINAL_CALL_STATUSES.includes(row.status)) throw new ApiError('invalid_state', `The call already ended (${row.status})`);
  const state = await hangupCall(ctx.env, row.providerId);
  const patch = { status: state.status, durationSeconds: state.durationSeconds, endedAt: nowIso(ctx) };
  await commit(
    ctx,
    [
      ctx.db
        .update(partnerCalls)
        .set(patch)
        .where(and(eq(partnerCalls.id, row.id), eq(partnerCalls.customerId, row.customerId))),
    ],
    { audit: { action: 'call.hangup', targetType: 'call', targetId: row.id } },
  );
  return callOut({ ...row, ...patch, updatedAt: nowIso(ctx) });
}
