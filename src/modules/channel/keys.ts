import { and, eq, isNull } from 'drizzle-orm';
import { channelFail } from './errors';
import type { DB } from '../../db/client';
import { channelConnections, channelKeys, channels } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { newId, randomString } from '../../lib/ids';

export type ChannelRow = typeof channels.$inferSelect;
export type ConnectionRow = typeof channelConnections.$inferSelect;
export type KeyMode = 'live' | 'test';

/** Default commission of a sandbox connection when the key holder has none (percent). */
export const SANDBOX_COMMISSION = 10;

/** `rtc_live_` / `rtc_test_` + 40 random base62 characters. */
export const newChannelKey = (mode: KeyMode) => `rtc_${mode}_${randomString(40)}`;
/** Partner-portal token: `rtp_` + 40 random characters. */
export const newPortalToken = () => `rtp_${randomString(40)}`;

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
    createdAt: new Date().toISOString(),
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

export async function resolveChannelKey(db: DB, secret: string): Promise<ChannelPrincipal> {
  const invalid = () => channelFail('invalid_api_key', 'The key does not exist or was rotated; contact the operator, do not retry');
  if (!/^rtc_(live|test)_[A-Za-z0-9_]{16,120}$/.test(secret)) throw invalid();
  const hash = await sha256Hex(secret);
  // One read: the key with its channel or connection.
  const row = await db
    .select({ key: channelKeys, channel: channels, connection: channelConnections })
    .from(channelKeys)
    .leftJoin(channels, eq(channels.id, channelKeys.channelId))
    .leftJoin(channelConnections, eq(channelConnections.id, channelKeys.connectionId))
    .where(and(eq(channelKeys.keyHash, hash), isNull(channelKeys.revokedAt)))
    .get();
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

export async function sandboxCustomerId(db: DB): Promise<string> {
  const row = await db.select({ id: customers.id }).from(customers).where(eq(customers.isSandbox, true)).orderBy(customers.createdAt).get();
  if (!row) throw channelFail('service_unavailable', 'The sandbox operator is not seeded');
  return row.id;
}

/** The sandbox connection of a key holder (created on first use): test keys sell the sandbox operator. */
export async function sandboxConnection(db: DB, p: ChannelPrincipal): Promise<ConnectionRow> {
  const customerId = await sandboxCustomerId(db);
  const where =
    p.kind === 'platform'
      ? and(eq(channelConnections.sandbox, true), eq(channelConnections.channelId, p.channel!.id), eq(channelConnections.customerId, customerId))
      : and(eq(channelConnections.sandbox, true), eq(channelConnections.parentConnectionId, p.connection!.id), eq(channelConnections.customerId, customerId));
  const existing = await db.select().from(channelConnections).where(where).get();
  if (existing) return existing;
  const now = new Date().toISOString();
  const row: ConnectionRow = {
    id: newId('con'),
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
  await db.insert(channelConnections).values(row);
  return row;
}

/** The operators a key sells, as their connections (active or paused; callers filter). */
export async function merchantConnections(db: DB, p: ChannelPrincipal): Promise<ConnectionRow[]> {
  if (p.mode === 'test') return [await sandboxConnection(db, p)];
  if (p.kind === 'single') return [p.connection!];
  return db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.channelId, p.channel!.id), eq(channelConnections.sandbox, false), eq(channelConnections.kind, 'platform')))
    .all()
    .then((rows) => rows.filter((r) => r.status !== 'removed'));
}
