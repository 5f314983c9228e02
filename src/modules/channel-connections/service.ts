/**
 * The channel-connections module's face. No other module calls it today: the operator's side of
 * channel connections (list, connect, keys, settlement), defined here, is reached through its router only.
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import { type Ctx, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { channelConnections, channelKeys, channels } from '../../db/schema/channel';
import { inventoryItems } from '../../db/schema/inventory';
import {
  forgetChannelKeyHashes,
  forgetChannelKeys,
  keyRow,
  newChannelKey,
  settlement,
  syncChannelEndpoints,
  type ConnectionRow,
  type KeyMode,
} from '../channel/service';

export function connectionOut(c: ConnectionRow, channelName?: string) {
  return {
    connectionId: c.id,
    kind: c.kind,
    channelId: c.channelId,
    channelName: channelName ?? c.name,
    merchantId: c.customerId,
    commissionRate: c.commissionRate,
    offerAllInventory: c.offerAllInventory,
    offeredItemIds: c.offeredItemIds ?? [],
    status: c.status,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

async function assertItems(ctx: Ctx, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await ctx.db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, tenantOf(ctx)), inArray(inventoryItems.id, ids), isNull(inventoryItems.deletedAt)))
    .all();
  const missing = ids.filter((i) => !found.some((f) => f.id === i));
  if (missing.length)
    throw new ApiError('validation_failed', 'Unknown inventory ids in offeredItemIds', {
      details: missing.map((m) => ({ field: 'offeredItemIds', message: `unknown item ${m}` })),
    });
}

async function connectionInTenant(ctx: Ctx, id: string): Promise<ConnectionRow> {
  const row = await ctx.db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.id, id), eq(channelConnections.customerId, tenantOf(ctx)), eq(channelConnections.sandbox, false)))
    .get();
  if (!row) throw notFound('Connection');
  return row;
}

export async function listChannels(ctx: Ctx) {
  const customerId = tenantOf(ctx);
  const [rows, mine] = await Promise.all([
    ctx.db.select().from(channels).orderBy(channels.name).all(),
    ctx.db
      .select()
      .from(channelConnections)
      .where(and(eq(channelConnections.customerId, customerId), eq(channelConnections.kind, 'platform'), eq(channelConnections.sandbox, false)))
      .all(),
  ]);
  return {
    data: rows.map((c) => ({
      channelId: c.id,
      slug: c.slug,
      name: c.name,
      status: c.status,
      connected: mine.some((m) => m.channelId === c.id && m.status !== 'removed'),
    })),
  };
}

export async function listConnections(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.customerId, tenantOf(ctx)), eq(channelConnections.sandbox, false)))
    .orderBy(desc(channelConnections.createdAt))
    .all();
  const chans = rows.some((r) => r.channelId)
    ? await ctx.db
        .select()
        .from(channels)
        .where(
          inArray(
            channels.id,
            rows.filter((r) => r.channelId).map((r) => r.channelId!),
          ),
        )
        .all()
    : [];
  return { data: rows.map((r) => connectionOut(r, chans.find((c) => c.id === r.channelId)?.name)) };
}

export async function getConnection(ctx: Ctx, id: string) {
  const row = await connectionInTenant(ctx, id);
  const chan = row.channelId ? await ctx.db.select().from(channels).where(eq(channels.id, row.channelId)).get() : undefined;
  return connectionOut(row, chan?.name);
}

export async function connect(ctx: Ctx, input: { channelId: string; commissionRate: number; offerAllInventory: boolean; offeredItemIds?: string[] }) {
  const customerId = tenantOf(ctx);
  const channel = await ctx.db.select().from(channels).where(eq(channels.id, input.channelId)).get();
  if (!channel) throw notFound('Channel');
  await assertItems(ctx, input.offeredItemIds);
  const existing = await ctx.db
    .select()
    .from(channelConnections)
    .where(
      and(
        eq(channelConnections.customerId, customerId),
        eq(channelConnections.channelId, channel.id),
        eq(channelConnections.kind, 'platform'),
        eq(channelConnections.sandbox, false),
      ),
    )
    .get();
  const now = nowIso(ctx);
  if (existing && existing.status !== 'removed') throw new ApiError('already_exists', 'Already connected to this channel; PATCH the connection to change it');
  const row: ConnectionRow = {
    id: existing?.id ?? newId('con'),
    customerId,
    channelId: channel.id,
    parentConnectionId: null,
    kind: 'platform',
    name: channel.name,
    commissionRate: input.commissionRate,
    offerAllInventory: input.offerAllInventory,
    offeredItemIds: input.offeredItemIds ?? [],
    status: 'active',
    sandbox: false,
    currency: 'usd',
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  const stmt = existing
    ? ctx.db
        .update(channelConnections)
        .set({ ...row, createdAt: existing.createdAt })
        .where(eq(channelConnections.id, existing.id))
    : ctx.db.insert(channelConnections).values(row);
  await commit(ctx, [stmt], {
    audit: {
      action: 'channel.connect',
      targetType: 'channel_connection',
      targetId: row.id,
      details: { channelId: channel.id, commissionRate: row.commissionRate },
    },
  });
  await syncChannelEndpoints(ctx, channel.id);
  return connectionOut(row, channel.name);
}

export async function createPartnerKey(
  ctx: Ctx,
  input: { name: string; commissionRate: number; offerAllInventory: boolean; offeredItemIds?: string[]; mode: KeyMode },
) {
  const customerId = tenantOf(ctx);
  await assertItems(ctx, input.offeredItemIds);
  const now = nowIso(ctx);
  const row: ConnectionRow = {
    id: newId('con'),
    customerId,
    channelId: null,
    parentConnectionId: null,
    kind: 'single',
    name: input.name,
    commissionRate: input.commissionRate,
    offerAllInventory: input.offerAllInventory,
    offeredItemIds: input.offeredItemIds ?? [],
    status: 'active',
    sandbox: false,
    currency: 'usd',
    createdAt: now,
    updatedAt: now,
  };
  const secret = newChannelKey(input.mode);
  await commit(ctx, [ctx.db.insert(channelConnections).values(row), ctx.db.insert(channelKeys).values(await keyRow(secret, { connectionId: row.id }))], {
    audit: { action: 'channel.partner_key_create', targetType: 'channel_connection', targetId: row.id, details: { name: row.name, mode: input.mode } },
  });
  return { ...connectionOut(row), key: secret, mode: input.mode };
}

export async function updateConnection(
  ctx: Ctx,
  id: string,
  input: { commissionRate?: number; offerAllInventory?: boolean; offeredItemIds?: string[]; status?: 'active' | 'paused' },
) {
  const existing = await connectionInTenant(ctx, id);
  if (existing.status === 'removed') throw new ApiError('invalid_state', 'The connection was removed; connect again');
  await assertItems(ctx, input.offeredItemIds);
  const patch: Partial<ConnectionRow> = {};
  if (input.commissionRate !== undefined) patch.commissionRate = input.commissionRate;
  if (input.offerAllInventory !== undefined) patch.offerAllInventory = input.offerAllInventory;
  if (input.offeredItemIds !== undefined) patch.offeredItemIds = input.offeredItemIds;
  if (input.status !== undefined) patch.status = input.status;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give commissionRate, offerAllInventory, offeredItemIds or status');
  await commit(
    ctx,
    [
      ctx.db
        .update(channelConnections)
        .set(patch)
        .where(and(eq(channelConnections.id, id), eq(channelConnections.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'channel.connection_update', targetType: 'channel_connection', targetId: id, details: patch },
    },
  );
  // A single-operator key carries its connection (status, terms): its rate-limiter object reads it again.
  await forgetChannelKeys(ctx, { connectionIds: [id] });
  if (existing.channelId) await syncChannelEndpoints(ctx, existing.channelId);
  return getConnection(ctx, id);
}

export async function removeConnection(ctx: Ctx, id: string) {
  const existing = await connectionInTenant(ctx, id);
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(channelConnections)
        .set({ status: 'removed' })
        .where(and(eq(channelConnections.id, id), eq(channelConnections.customerId, existing.customerId))),
      ctx.db
        .update(channelKeys)
        .set({ revokedAt: now })
        .where(and(eq(channelKeys.connectionId, id), isNull(channelKeys.revokedAt))),
    ],
    { audit: { action: 'channel.connection_remove', targetType: 'channel_connection', targetId: id } },
  );
  await forgetChannelKeys(ctx, { connectionIds: [id], revokedSince: now });
  if (existing.channelId) await syncChannelEndpoints(ctx, existing.channelId);
  return getConnection(ctx, id);
}

export async function rotateKey(ctx: Ctx, id: string, mode: KeyMode) {
  const existing = await connectionInTenant(ctx, id);
  if (existing.kind !== 'single') throw new ApiError('invalid_state', 'Platform keys belong to the reseller; it rotates them in the partner portal');
  if (existing.status === 'removed') throw new ApiError('invalid_state', 'The connection was removed');
  const secret = newChannelKey(mode);
  const keys = await ctx.db
    .select()
    .from(channelKeys)
    .where(and(eq(channelKeys.connectionId, id), isNull(channelKeys.revokedAt)))
    .all();
  const old = keys.filter((k) => k.mode === mode).map((k) => k.id);
  const oldHashes = keys.filter((k) => k.mode === mode).map((k) => k.keyHash);
  await commit(
    ctx,
    [
      ...(old.length
        ? [
            ctx.db
              .update(channelKeys)
              .set({ revokedAt: nowIso(ctx) })
              .where(inArray(channelKeys.id, old)),
          ]
        : []),
      ctx.db.insert(channelKeys).values(await keyRow(secret, { connectionId: id })),
    ],
    { audit: { action: 'channel.key_rotate', targetType: 'channel_connection', targetId: id, details: { mode, revoked: old.length } } },
  );
  // Written: the old key's rate-limiter object drops its record, so the very next request with it is refused.
  await forgetChannelKeyHashes(ctx, oldHashes);
  return { ...(await getConnection(ctx, id)), key: secret, mode };
}

export async function connectionSettlement(ctx: Ctx, id: string, month: string) {
  const conn = await connectionInTenant(ctx, id);
  return settlement(ctx, [conn.id], month);
}
