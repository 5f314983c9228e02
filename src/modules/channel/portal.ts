import { and, eq, inArray, isNull } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { checkOutboundUrl } from '../../adapters/http';
import { channelConnections, channelKeys, channels } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { webhookEndpoints } from '../../db/schema/events';
import { forgetChannelKeyHashes, forgetChannelKeys, keyRow, newChannelKey, newPortalToken, type ChannelRow, type KeyMode } from './keys';
import { createPartnerAccount, issuePartnerToken } from '../partners/service';
import { settlement } from './settlement';

/** Events a reseller may receive for the operators it sells (spec: Channel events). */
export const RESELLER_EVENTS = ['booking.created', 'booking.cancelled', 'booking.rescheduled'] as const;

export function channelOut(c: ChannelRow) {
  return {
    channelId: c.id,
    slug: c.slug,
    name: c.name,
    contactEmail: c.contactEmail,
    status: c.status,
    webhookUrl: c.webhookUrl,
    webhookEvents: c.webhookEvents ?? [],
    partnerAccountId: c.partnerAccountId,
    createdAt: c.createdAt,
  };
}

export async function merchantsOf(ctx: Ctx, channelId: string) {
  const db = ctx.db;
  const conns = await db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.channelId, channelId), eq(channelConnections.sandbox, false), eq(channelConnections.kind, 'platform')))
    .all();
  const live = conns.filter((c) => c.status !== 'removed');
  const names = live.length
    ? await db
        .select({ id: customers.id, name: customers.name })
        .from(customers)
        .where(
          inArray(
            customers.id,
            live.map((c) => c.customerId),
          ),
        )
        .all()
    : [];
  return live.map((c) => ({
    merchantId: c.customerId,
    merchantName: names.find((n) => n.id === c.customerId)?.name ?? c.customerId,
    connectionId: c.id,
    commissionRate: c.commissionRate,
    offerAllInventory: c.offerAllInventory,
    offeredItemIds: c.offeredItemIds,
    status: c.status,
  }));
}

/**
 * Registers a channel owned by a partner account: the caller's (a partner token on the request)
 * or one created for `contactEmail` (with `password` when given), whose partner token is returned.
 */
export async function register(ctx: Ctx, input: { name: string; slug: string; contactEmail: string; password?: string }, partnerId?: string) {
  const taken = await ctx.db.select({ id: channels.id }).from(channels).where(eq(channels.slug, input.slug)).get();
  if (taken) throw new ApiError('already_exists', 'A channel with this slug is already registered');
  let partnerToken: string | null = null;
  if (!partnerId) {
    const account = await createPartnerAccount(ctx, { email: input.contactEmail, name: input.name, password: input.password ?? null });
    partnerId = account.id;
    partnerToken = (await issuePartnerToken(ctx, account.id, 'session', 'channel registration')).token;
  }
  const token = newPortalToken();
  const live = newChannelKey('live');
  const test = newChannelKey('test');
  const now = nowIso(ctx);
  const row: ChannelRow = {
    id: newId('chn'),
    slug: input.slug,
    name: input.name,
    contactEmail: input.contactEmail,
    portalTokenHash: await sha256Hex(token),
    status: 'active',
    webhookUrl: null,
    webhookEvents: null,
    webhookSecret: null,
    partnerAccountId: partnerId,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ctx.db.batch([
      ctx.db.insert(channels).values(row),
      ctx.db.insert(channelKeys).values(await keyRow(live, { channelId: row.id })),
      ctx.db.insert(channelKeys).values(await keyRow(test, { channelId: row.id })),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'A channel with this slug is already registered');
    throw err;
  }
  return { ...channelOut(row), portalToken: token, keys: { live, test }, partnerToken };
}

export async function getChannel(ctx: Ctx, channel: ChannelRow) {
  return { ...channelOut(channel), merchants: await merchantsOf(ctx, channel.id) };
}

export async function rotatePlatformKey(ctx: Ctx, channel: ChannelRow, mode: KeyMode) {
  const db = ctx.db;
  const secret = newChannelKey(mode);
  const old = await db
    .select({ id: channelKeys.id, hash: channelKeys.keyHash })
    .from(channelKeys)
    .where(and(eq(channelKeys.channelId, channel.id), eq(channelKeys.mode, mode), isNull(channelKeys.revokedAt)))
    .all();
  const stmts: Stmt[] = [db.insert(channelKeys).values(await keyRow(secret, { channelId: channel.id }))];
  if (old.length)
    stmts.unshift(
      db
        .update(channelKeys)
        .set({ revokedAt: nowIso(ctx) })
        .where(
          inArray(
            channelKeys.id,
            old.map((o) => o.id),
          ),
        ),
    );
  await db.batch(stmts as [Stmt, ...Stmt[]]);
  // Written: the old keys' rate-limiter objects drop their record, so the very next request with one is refused.
  await forgetChannelKeyHashes(
    ctx,
    old.map((o) => o.hash),
  );
  return { mode, key: secret, revoked: old.length };
}

export async function setStatus(ctx: Ctx, channel: ChannelRow, status: 'active' | 'paused') {
  const db = ctx.db;
  await db.update(channels).set({ status }).where(eq(channels.id, channel.id));
  await forgetChannelKeys(ctx, { channelId: channel.id });
  return getChannel(ctx, { ...channel, status });
}

export async function channelSettlement(ctx: Ctx, channel: ChannelRow, month: string) {
  const db = ctx.db;
  const conns = await db
    .select({ id: channelConnections.id })
    .from(channelConnections)
    .where(and(eq(channelConnections.channelId, channel.id), eq(channelConnections.sandbox, false)))
    .all();
  return settlement(
    ctx,
    conns.map((c) => c.id),
    month,
  );
}

/**
 * Keeps one webhook endpoint per connected operator for the reseller's URL (owner `channel`),
 * so the normal delivery machinery (signatures, retries, replay) serves resellers too.
 */
export async function syncChannelEndpoints(ctx: Ctx, channelId: string): Promise<void> {
  const db = ctx.db;
  const channel = await db.select().from(channels).where(eq(channels.id, channelId)).get();
  if (!channel) return;
  const conns = await db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.channelId, channelId), eq(channelConnections.sandbox, false), eq(channelConnections.kind, 'platform')))
    .all();
  const existing = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerType, 'channel'), eq(webhookEndpoints.ownerId, channelId)))
    .all();
  const stmts: Stmt[] = [];
  for (const conn of conns) {
    const ep = existing.find((e) => e.customerId === conn.customerId);
    const wanted = Boolean(channel.webhookUrl && channel.webhookSecret) && conn.status === 'active' && channel.status === 'active';
    if (wanted && !ep) {
      stmts.push(
        db.insert(webhookEndpoints).values({
          id: newId('whe'),
          customerId: conn.customerId,
          url: channel.webhookUrl!,
          description: `Reseller ${channel.name}`,
          events: channel.webhookEvents ?? [...RESELLER_EVENTS],
          secret: channel.webhookSecret!,
          status: 'active',
          ownerType: 'channel',
          ownerId: channelId,
        }),
      );
    } else if (ep) {
      stmts.push(
        db
          .update(webhookEndpoints)
          .set({
            url: channel.webhookUrl ?? ep.url,
            events: channel.webhookEvents ?? ep.events,
            secret: channel.webhookSecret ?? ep.secret,
            status: wanted ? 'active' : 'disabled',
          })
          .where(eq(webhookEndpoints.id, ep.id)),
      );
    }
  }
  if (stmts.length) await db.batch(stmts as [Stmt, ...Stmt[]]);
}

export async function setWebhook(ctx: Ctx, channel: ChannelRow, input: { url: string; events?: string[] }) {
  // A self-registered reseller's URL: the outbound policy, never a local URL (not even while developing).
  await checkOutboundUrl(ctx.env, input.url, { field: 'url' });
  const secret = `whsec_${randomString(40)}`;
  const events = input.events?.length ? [...new Set(input.events)] : [...RESELLER_EVENTS];
  await ctx.db.update(channels).set({ webhookUrl: input.url, webhookEvents: events, webhookSecret: secret }).where(eq(channels.id, channel.id));
  await forgetChannelKeys(ctx, { channelId: channel.id });
  await syncChannelEndpoints(ctx, channel.id);
  return { url: input.url, events, secret };
}

export async function removeWebhook(ctx: Ctx, channel: ChannelRow) {
  const db = ctx.db;
  await db.update(channels).set({ webhookUrl: null, webhookEvents: null, webhookSecret: null }).where(eq(channels.id, channel.id));
  await forgetChannelKeys(ctx, { channelId: channel.id });
  await syncChannelEndpoints(ctx, channel.id);
  return { removed: true };
}
