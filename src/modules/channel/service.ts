// Channel's face: the reseller API's key profile, products and settlement (defined here, for the router), and what other
// modules may call. The router imports its other use cases from their files: sellers.ts (the merchant context and the reads
// through a key's connections), availability.ts (availability lines), create-booking.ts (bookings under the idempotency
// contract), bookings.ts (reads, cancel, sandbox reset), catalog.ts, keys.ts, idempotency.ts, portal.ts, settlement.ts.
// Other modules use it for:
// - keys on the operator side (channel-connections, seed, dev): keyRow, newChannelKey, forgetChannelKeys, forgetChannelKeyHashes, ConnectionRow, KeyMode;
// - the partner portal's endpoints and settlement (channel-connections): syncChannelEndpoints, settlement;
// - selling through the same keys, connections, offer sets and rate limit (OCTO): authenticateChannelKey, merchantConnections, merchantCtx, findOffered, ...;
// - the rate limiter's key lookup (durable-objects/rate-limiter.ts): readChannelKeyRecord.
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { customers } from '../../db/schema/accounts';
import { catalog } from './catalog';
import { merchantConnections, type ChannelPrincipal } from './keys';
import { merchantsOf } from './portal';
import { settlement } from './settlement';
import { activeConnections } from './sellers';

export async function me(ctx: Ctx, p: ChannelPrincipal) {
  if (p.kind === 'single') {
    const c = p.mode === 'test' ? (await merchantConnections(ctx, p))[0] : p.connection!;
    return {
      mode: p.mode,
      connection: {
        connectionId: c.id,
        channelName: p.connection!.name,
        merchantId: c.customerId,
        commissionRate: c.commissionRate,
        offerAllInventory: c.offerAllInventory,
        status: c.status,
        sandbox: c.sandbox,
      },
    };
  }
  const ch = p.channel!;
  if (p.mode === 'test') {
    const c = (await merchantConnections(ctx, p))[0];
    return {
      mode: p.mode,
      channel: {
        slug: ch.slug,
        name: ch.name,
        merchants: [{ merchantId: c.customerId, commissionRate: c.commissionRate, offerAllInventory: c.offerAllInventory, status: c.status, sandbox: true }],
      },
    };
  }
  const merchants = (await merchantsOf(ctx, ch.id)).map(({ merchantId, merchantName, commissionRate, offerAllInventory, status }) => ({
    merchantId,
    merchantName,
    commissionRate,
    offerAllInventory,
    status,
  }));
  return { mode: p.mode, channel: { slug: ch.slug, name: ch.name, merchants } };
}

export async function products(ctx: Ctx, p: ChannelPrincipal) {
  return { data: await catalog(ctx, await activeConnections(ctx, p)) };
}

/** A live key settles its live connections; a test key its sandbox connection's test bookings (marked `test`, in `testTotals`). */
export async function keySettlement(ctx: Ctx, p: ChannelPrincipal, month: string) {
  const test = p.mode === 'test';
  const conns = (await merchantConnections(ctx, p)).filter((c) => c.sandbox === test);
  return settlement(
    ctx,
    conns.map((c) => c.id),
    month,
    test ? 'test' : 'live',
  );
}

export async function merchantName(ctx: Ctx, customerId: string) {
  return (await ctx.db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId)).get())?.name ?? customerId;
}

// What OCTO sells with: the merchant context and the platform fee.
export { merchantCtx } from './sellers';
export { PLATFORM_FEE_CENTS } from './create-booking';

// What the operator side (channel-connections), the seed and the benchmark use of the channel.
export { keyRow, newChannelKey, type ConnectionRow, type KeyMode } from './keys';
export { settlement } from './settlement';
export { syncChannelEndpoints } from './portal';
// What the OCTO supplier API (src/modules/octo) sells with: the same keys, connections, offer sets and rate limit.
export { authenticateChannelKey, forgetChannelKeyHashes, forgetChannelKeys, readChannelKeyRecord, merchantConnections, type ChannelPrincipal } from './keys';
export { findOffered, offeredItems, modelOf, narrowedTaxes } from './catalog';
export { CHANNEL_RATE_LIMIT } from './middleware';
