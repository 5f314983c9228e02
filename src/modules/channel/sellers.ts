/**
 * What the channel's use cases start from: the service context acting for an operator a key sells,
 * the key's connections, the read of those connections beside the caller's statements in one round
 * trip, and the time window of a request.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx, Principal } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { onOperatorClock } from '../../lib/operator-clock';
import { inJson } from '../availability/service';
import { merchantConnections, sandboxConnection, sellerStatements, type ChannelPrincipal, type ConnectionRow } from './keys';

const MAX_WINDOW_MS = 366 * 86_400_000;

/**
 * A service context acting for the operator a reseller sells, on that operator's clock (a sandbox
 * test clock's operator reads its clock's time: lib/operator-clock.ts).
 */
export async function merchantCtx(ctx: Ctx, p: ChannelPrincipal, conn: ConnectionRow): Promise<Ctx> {
  const principal: Principal = {
    kind: 'system',
    credentialId: `channel:${p.scope}`,
    userId: null,
    customerId: conn.customerId,
    role: 'admin',
    permissions: [],
    plan: 'enterprise',
    name: conn.name,
  };
  return onOperatorClock({ ...ctx, principal }, conn.customerId);
}

export async function activeConnections(ctx: Ctx, p: ChannelPrincipal) {
  return (await merchantConnections(ctx, p)).filter((c) => c.status !== 'removed');
}

/**
 * Reads, in ONE round trip, the connections a key sells through (see `sellerStatements`) plus the
 * caller's statements (`extra`, which may use the operators' ids as a subquery). A test key whose
 * sandbox connection does not exist yet makes it first (once per key holder, after its private
 * sandbox operator is seeded; again after a sandbox reset).
 */
export async function readWithSellers<T extends Stmt[]>(ctx: Ctx, p: ChannelPrincipal, extra: (customerIds: string[] | SQL) => [...T]) {
  const run = async () => {
    const seller = sellerStatements(ctx, p);
    const rest = extra(seller.customerIds);
    if (!seller.connections) {
      const results = rest.length ? ((await ctx.db.batch(rest as unknown as [Stmt, ...Stmt[]])) as unknown[]) : [];
      return { conns: [p.connection!], results };
    }
    const [conns, ...results] = (await ctx.db.batch([seller.connections, ...rest] as unknown as [Stmt, ...Stmt[]])) as [ConnectionRow[], ...unknown[]];
    return { conns, results };
  };
  let out = await run();
  if (p.mode === 'test' && !out.conns.length) {
    await sandboxConnection(ctx, p);
    out = await run();
  }
  return out;
}

export const customerIn = (column: Parameters<typeof inJson>[0], ids: string[] | SQL) =>
  Array.isArray(ids) ? inJson(column, ids) : sql`${column} in (${ids})`;

export function windowOf(startTime: string, endTime?: string) {
  const start = Date.parse(startTime);
  const end = endTime ? Date.parse(endTime) : undefined;
  if (end !== undefined && end <= start)
    throw new ApiError('validation_failed', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  if (end !== undefined && end - start > MAX_WINDOW_MS)
    throw new ApiError('validation_failed', 'The window is at most 366 days', { details: [{ field: 'endTime', message: 'window longer than 366 days' }] });
  return { start, end };
}
