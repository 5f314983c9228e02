import { and, eq, gte, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import { channelFail } from './errors';
import type { DB } from '../../db/client';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { channelConnections, channelKeys, channels } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { newId, randomString } from '../../lib/ids';
import { forgetCredentials } from '../../lib/credentials';
import type { ChannelKeyRecord, RateCount } from '../../lib/rate-limiter-protocol';
import type { Env } from '../../env';
import { privateSandbox, type SandboxOwner } from '../partners/service';

export type ChannelRow = typeof channels.$inferSelect;
export type ConnectionRow = typeof channelConnections.$inferSelect;
export type KeyMode = 'live' | 'test';

/** Default commission of a sandbox connection when the key holder has none (percent). */
export const SANDBOX_COMMISSION = 10;

/** `rtc_live_` / `rtc_test_` + 40 random base62 characters. */
export const newChannelKey = (mode: KeyMode) => `rtc_${mode}_${randomString(40)}`;
/** Partner-portal token: `rtp_` + 40 random characters. */
export const newPortalToken = () => `rtp_${randomString(40)}`;

/** A channel key's row (its `createdAt` is the column's default: the ambient clock of the request, lib/clock.ts). */
export async function keyRow(secret: string, owner: { channelId?: string | null; connectionId?: string | null }) {
  const mode: KeyMode = secret.startsWith('rtc_test_') ? 'test' : 'live';
  return {
    id: newId('ck'),
    keyHash: await sha256Hex(secret),
    prefix: secret.slice(0, 13),
    mode,
    channelId: owner.channelId ?? null,
    connectionId: owner.connectionId ?? null,
    revokedAt: null,
  };
}

/** Who is calling the channel API, resolved from its key. */
export interface ChannelPrincipal {
  keyId: string;
  mode: KeyMode;
  kind: 'platform' | 'single';
  channel: ChannelRow | null;
  /** The single-operator key's own connection. */
  connection: ConnectionRow | null;
  /** Rate-limit and idempotency scope: the key holder. */
  scope: string;
}

const invalidKey = () => channelFail('invalid_api_key', 'The key does not exist or was rotated; contact the operator, do not retry');

/** 401 `invalid_api_key` for a string that cannot be a channel key (checked before any lookup). */
export function checkChannelKeyFormat(secret: string): void {
  if (!/^rtc_(live|test)_[A-Za-z0-9_]{16,120}$/.test(secret)) throw invalidKey();
}

/** The live channel key with this SHA-256 hex hash, with its channel (platform key) or connection (single-operator key). One read. */
export function readChannelKeyRecord(db: DB, hash: string): Promise<ChannelKeyRecord | undefined> {
  return db
    .select({ key: channelKeys, channel: channels, connection: channelConnections })
    .from(channelKeys)
    .leftJoin(channels, eq(channels.id, channelKeys.channelId))
    .leftJoin(channelConnections, eq(channelConnections.id, channelKeys.connectionId))
    .where(and(eq(channelKeys.keyHash, hash), isNull(channelKeys.revokedAt)))
    .get();
}

/** The key holder of a channel key record: 401 `invalid_api_key` when unknown, rotated or removed; 403 `connection_paused`. */
export function channelPrincipalOf(row: ChannelKeyRecord | null | undefined, hash: string): ChannelPrincipal {
  const invalid = invalidKey;
  if (!row || !timingSafeEqual(row.key.keyHash, hash)) throw invalid();
  const { key, channel, connection } = row;
  if (key.channelId) {
    if (!channel) throw invalid();
    if (channel.status === 'paused') throw channelFail('connection_paused', 'This channel is paused; no operator can be sold until it resumes');
    return { keyId: key.id, mode: key.mode, kind: 'platform', channel, connection: null, scope: `${channel.id}:${key.mode}` };
  }
  if (!connection || connection.status === 'removed') throw invalid();
  if (connection.status === 'paused') throw channelFail('connection_paused', 'The operator paused this connection');
  return { keyId: key.id, mode: key.mode, kind: 'single', channel: null, connection, scope: `${connection.id}:${key.mode}` };
}

/** The key holder of a channel key (`hash`: its SHA-256, when the caller computed it already). One read. */
export async function resolveChannelKey(db: DB, secret: string, hash?: string): Promise<ChannelPrincipal> {
  checkChannelKeyFormat(secret);
  hash ??= await sha256Hex(secret);
  return channelPrincipalOf(await readChannelKeyRecord(db, hash), hash);
}

/** The rate-limit bucket (and RateLimiter object name) of a channel key, by its SHA-256 hex hash. */
export const channelKeyBucket = (hash: string) => `chan:${hash}`;

/**
 * Authenticates a channel key with ONE call: the key's rate-limiter object counts the request and
 * answers the key's record, held in its memory (read from D1 when it holds none). Every change to a
 * channel key, a channel or a connection makes the objects of its keys forget (`forgetChannelKeys`),
 * so a rotated key or a paused connection is refused by the very next request.
 */
export async function authenticateChannelKey(env: Env, secret: string): Promise<{ principal: ChannelPrincipal; count: RateCount }> {
  checkChannelKeyFormat(secret);
  const hash = await sha256Hex(secret);
  const { count, row } = await env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(channelKeyBucket(hash))).authenticateChannel(hash, 60_000);
  return { principal: channelPrincipalOf(row, hash), count };
}

/** Makes the rate-limiter objects of these channel keys (by SHA-256 hex hash) forget the record they hold. */
export const forgetChannelKeyHashes = (ctx: Pick<Ctx, 'env'>, hashes: string[]) => forgetCredentials(ctx, hashes.map(channelKeyBucket));

/**
 * Makes the rate-limiter objects of the keys of a channel or of a connection forget the record
 * they hold: the live keys, and with `revokedSince` those revoked at or after that instant (by the
 * change itself). Call after the change is written.
 */
export async function forgetChannelKeys(
  ctx: Pick<Ctx, 'env' | 'db'>,
  of: { channelId?: string; connectionIds?: string[]; revokedSince?: string },
): Promise<void> {
  const owner = of.channelId
    ? eq(channelKeys.channelId, of.channelId)
    : of.connectionIds?.length
      ? inArray(channelKeys.connectionId, of.connectionIds)
      : undefined;
  if (!owner) return;
  const rows = await ctx.db
    .select({ hash: channelKeys.keyHash })
    .from(channelKeys)
    .where(and(owner, of.revokedSince ? or(isNull(channelKeys.revokedAt), gte(channelKeys.revokedAt, of.revokedSince)) : isNull(channelKeys.revokedAt)))
    .all();
  await forgetCredentials(
    ctx,
    rows.map((r) => channelKeyBucket(r.hash)),
  );
}

/** The private sandbox of a key holder: a platform key's channel, or a single-operator key's connection. */
export function sandboxOwner(p: ChannelPrincipal): SandboxOwner {
  return p.kind === 'platform'
    ? { kind: 'channel', id: p.channel!.id, label: p.channel!.name }
    : { kind: 'connection', id: p.connection!.id, label: p.connection!.name };
}

/** The id of a key holder's sandbox connection: one per key holder (its primary key makes a second insert a no-op). */
export const sandboxConnectionId = (p: ChannelPrincipal) => `con_sbx_${p.kind === 'platform' ? p.channel!.id : p.connection!.id}`;

/**
 * The operator a test key sells. A single-operator key of a sandbox operator (the demo reseller of
 * Demo Marina, DEMO_CHANNEL_TEST_KEY; a test clock's or a partner's sandbox operator) sells that
 * operator; every other key holder sells its own private sandbox (modules/partners/sandbox.ts:
 * created and seeded on first use, seen by no other reseller).
 */
async function sandboxTarget(ctx: Ctx, p: ChannelPrincipal): Promise<string> {
  if (p.kind === 'single') {
    const own = await ctx.db
      .select({ id: customers.id, isSandbox: customers.isSandbox })
      .from(customers)
      .where(eq(customers.id, p.connection!.customerId))
      .get();
    if (own?.isSandbox) return own.id;
  }
  return (await privateSandbox(ctx, sandboxOwner(p))).operatorId;
}

/**
 * The sandbox connection of a key holder (made on first use, once its operator is ready): test keys
 * sell a sandbox operator (`sandboxTarget`) through it, at the key holder's commission.
 */
export async function sandboxConnection(ctx: Ctx, p: ChannelPrincipal): Promise<ConnectionRow> {
  const db = ctx.db;
  const id = sandboxConnectionId(p);
  const existing = await db.select().from(channelConnections).where(eq(channelConnections.id, id)).get();
  if (existing) return existing;
  const customerId = await sandboxTarget(ctx, p);
  const now = nowIso(ctx);
  const row: ConnectionRow = {
    id,
    customerId,
    channelId: p.kind === 'platform' ? p.channel!.id : null,
    parentConnectionId: p.kind === 'single' ? p.connection!.id : null,
    kind: p.kind,
    name: p.kind === 'platform' ? `${p.channel!.name} (sandbox)` : `${p.connection!.name} (sandbox)`,
    commissionRate: p.connection?.commissionRate ?? SANDBOX_COMMISSION,
    offerAllInventory: true,
    offeredItemIds: [],
    status: 'active',
    sandbox: true,
    currency: 'usd',
    createdAt: now,
    updatedAt: now,
  };
  await db.insert(channelConnections).values(row).onConflictDoNothing();
  return (await db.select().from(channelConnections).where(eq(channelConnections.id, id)).get()) ?? row;
}

/** The operators a key sells, as their connections (active or paused; callers filter). */
export async function merchantConnections(ctx: Ctx, p: ChannelPrincipal): Promise<ConnectionRow[]> {
  if (p.mode === 'test') return [await sandboxConnection(ctx, p)];
  if (p.kind === 'single') return [p.connection!];
  return ctx.db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.channelId, p.channel!.id), eq(channelConnections.sandbox, false), eq(channelConnections.kind, 'platform')))
    .all()
    .then((rows) => rows.filter((r) => r.status !== 'removed'));
}

/**
 * The operators a key sells, for a caller's batch: the statement reading their connections (null
 * when the key's own connection is all there is) and their operator ids as a subquery, so the
 * products, locations and allocations of those operators are read in the same round trip. A test
 * key sells its sandbox operator through its sandbox connection (made on first use, see
 * `sandboxConnection`: until then, and while a sandbox reset runs, the statement finds none).
 */
export function sellerStatements(ctx: Ctx, p: ChannelPrincipal): { connections: ReturnType<typeof connectionsWhere> | null; customerIds: string[] | SQL } {
  const db = ctx.db;
  if (p.mode === 'test') {
    const where = and(eq(channelConnections.id, sandboxConnectionId(p)), eq(channelConnections.sandbox, true))!;
    return { connections: connectionsWhere(db, where), customerIds: customerIdsWhere(db, where) };
  }
  if (p.kind === 'single') return { connections: null, customerIds: [p.connection!.customerId] };
  const where = and(
    eq(channelConnections.channelId, p.channel!.id),
    eq(channelConnections.sandbox, false),
    eq(channelConnections.kind, 'platform'),
    ne(channelConnections.status, 'removed'),
  )!;
  return { connections: connectionsWhere(db, where), customerIds: customerIdsWhere(db, where) };
}

const connectionsWhere = (db: DB, where: SQL) => db.select().from(channelConnections).where(where);
const customerIdsWhere = (db: DB, where: SQL) => db.select({ c: channelConnections.customerId }).from(channelConnections).where(where).getSQL();
