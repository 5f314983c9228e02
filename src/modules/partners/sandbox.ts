/**
 * Private sandboxes: every partner account, every reseller channel and every single-operator
 * connection's test key gets a private demo operator of its own (a `cus_sbx_` id), seeded with the
 * demo data on first use (src/seed: `seedDemoOperator`, plus the OCTO showcase), seen only by its
 * owner: the partner's sandbox installs land there (the OAuth consent page), and the reseller's test
 * key sells it (modules/channel/keys.ts). Demo Marina stays the shared local demo of the README.
 *
 * Created on first use, safely under concurrency: the `sandbox_operators` row (unique per owner) is
 * inserted as a claim before anything is seeded; the request that inserted it seeds, the others
 * wait until it is `ready`. A claim whose lease lapsed (its request died half way) is taken over:
 * the half-written operator is purged and a fresh one seeded. A reset takes the same claim on a ready
 * sandbox, purges its operator and seeds a fresh one in its place, so it is back to its seeded state.
 */
import type { z } from '@hono/zod-openapi';
import { and, eq, sql } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import { systemCtx, systemCtxFor, type Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { forgetApiKeys } from '../../lib/credentials';
import { newId } from '../../lib/ids';
import { sandboxOperators } from '../../db/schema/sandbox-operators';
import { purgeTenant } from '../../db/tenant-purge';
import { demoOperator, seedDemoOperator } from '../../seed';
import { octoOperatorSeed } from '../../seed/octo';
import { createKey } from '../api-keys/service';
import { getPartner, requirePartner } from './accounts';
import type * as s from './schemas';

export type SandboxOwnerKind = 'partner' | 'channel' | 'connection';

/** Whose private sandbox: a partner account, a reseller channel (platform keys) or a single-operator connection (its test key). */
export interface SandboxOwner {
  kind: SandboxOwnerKind;
  id: string;
  /** Who it is, in the operator's name ("Demo Marina (Acme Apps sandbox)"). */
  label: string;
}

export type SandboxRow = typeof sandboxOperators.$inferSelect;

/** A private sandbox operator has an id with this prefix (a test clock's has `cus_tclk_`). */
export const PRIVATE_SANDBOX_PREFIX = 'cus_sbx_';
export const isPrivateSandboxOperator = (customerId: string | null | undefined): boolean => !!customerId?.startsWith(PRIVATE_SANDBOX_PREFIX);

/** How long a seeding request holds its claim (real time); seeding takes seconds, so a lapsed lease means the request died. */
const LEASE_MS = 120_000;
/** How long a request waits for another one's seeding before answering 503 (retry). */
const WAIT_POLLS = 120;
const POLL_MS = 250;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function read(ctx: Ctx, owner: SandboxOwner) {
  return ctx.db
    .select()
    .from(sandboxOperators)
    .where(and(eq(sandboxOperators.ownerKind, owner.kind), eq(sandboxOperators.ownerId, owner.id)))
    .get();
}

const newOperatorId = () => newId(PRIVATE_SANDBOX_PREFIX.slice(0, -1));

/**
 * Seeds the claimed sandbox, then marks it ready if the claim is still ours. With `replace` (a reset,
 * or a lapsed claim taken over) the operator there is purged first and a fresh operator id seeded in
 * its place: the demo data's ids derive from the operator's, and seeding the same ids again would meet
 * the payment provider's idempotency keys of the first seeding (a cancelled deposit stays cancelled).
 */
async function seedClaimed(ctx: Ctx, claimed: SandboxRow, lease: number, replace: boolean): Promise<void> {
  const work = (async () => {
    let row = claimed;
    if (replace) {
      const old = row.operatorId;
      // Its API keys stop at once (their rate-limiter objects hold the rows), then every row of the operator goes.
      await forgetApiKeys(ctx, { customerId: old });
      await purgeTenant(ctx.db, old);
      const moved = await ctx.db
        .update(sandboxOperators)
        .set({ operatorId: newOperatorId(), updatedAt: nowIso(ctx) })
        .where(and(eq(sandboxOperators.id, row.id), eq(sandboxOperators.leaseUntil, lease)))
        .returning()
        .get();
      if (!moved) return; // Another request took the claim over: it seeds.
      row = moved;
    }
    const customerId = row.operatorId;
    const sys = systemCtx(ctx.env, { customerId, requestId: ctx.requestId, waitUntil: ctx.waitUntil, hooks: ctx.hooks, clock: ctx.clock });
    // The seed issues an admin key that is never shown: nobody holds it (a partner asks for its own, POST /partners/sandbox/keys).
    await seedDemoOperator(sys, { customerId, name: row.name });
    await octoOperatorSeed.run(sys, demoOperator(customerId, { name: row.name }));
    const now = nowIso(ctx);
    await ctx.db
      .update(sandboxOperators)
      .set({ status: 'ready', leaseUntil: null, seededAt: now, updatedAt: now })
      .where(and(eq(sandboxOperators.id, row.id), eq(sandboxOperators.leaseUntil, lease)));
  })();
  // Seeding outlives a caller that hangs up (the next request would otherwise wait for a lapsed lease).
  ctx.waitUntil(work.catch(() => undefined));
  try {
    await work;
  } catch (err) {
    // Let the next request take over at once (it purges what was written and seeds a fresh operator).
    await ctx.db
      .update(sandboxOperators)
      .set({ leaseUntil: 0 })
      .where(and(eq(sandboxOperators.id, claimed.id), eq(sandboxOperators.leaseUntil, lease)))
      .catch(() => undefined);
    throw err;
  }
}

/** Takes over a lapsed claim (conditional on the lease it saw, so only one request wins). */
async function takeOver(ctx: Ctx, row: SandboxRow): Promise<SandboxRow | undefined> {
  const lease = wallClock.now() + LEASE_MS;
  return ctx.db
    .update(sandboxOperators)
    .set({ leaseUntil: lease, updatedAt: nowIso(ctx) })
    .where(
      and(
        eq(sandboxOperators.id, row.id),
        eq(sandboxOperators.status, 'seeding'),
        row.leaseUntil === null ? sql`${sandboxOperators.leaseUntil} is null` : eq(sandboxOperators.leaseUntil, row.leaseUntil),
      ),
    )
    .returning()
    .get();
}

const busy = () =>
  new ApiError('service_unavailable', 'The sandbox is still being prepared (seeding the demo data takes a few seconds); retry shortly', {
    headers: { 'Retry-After': '5' },
  });

/**
 * The owner's private sandbox operator, created and seeded on first use (see the file's comment);
 * answers once it is ready. 503 `service_unavailable` (with Retry-After) when another request's
 * seeding is still running after about half a minute.
 */
export async function privateSandbox(ctx: Ctx, owner: SandboxOwner): Promise<SandboxRow> {
  for (let polls = 0; ;) {
    const row = await read(ctx, owner);
    if (row?.status === 'ready') return row;
    if (!row) {
      const lease = wallClock.now() + LEASE_MS;
      const now = nowIso(ctx);
      const claimed = await ctx.db
        .insert(sandboxOperators)
        .values({
          id: newId('sbo'),
          ownerKind: owner.kind,
          ownerId: owner.id,
          operatorId: newOperatorId(),
          name: `Demo Marina (${owner.label.slice(0, 80)} sandbox)`,
          status: 'seeding',
          leaseUntil: lease,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning()
        .get();
      // The insert is the claim: only the request that made the row seeds; the others loop and wait.
      if (claimed) await seedClaimed(ctx, claimed, lease, false);
      continue;
    }
    if ((row.leaseUntil ?? 0) < wallClock.now()) {
      const mine = await takeOver(ctx, row);
      if (mine) await seedClaimed(ctx, mine, mine.leaseUntil!, true);
      continue;
    }
    if (++polls > WAIT_POLLS) throw busy();
    await sleep(POLL_MS);
  }
}

/**
 * Brings the owner's private sandbox back to its seeded state: its operator is purged (every record,
 * its API keys, installs and tokens) and a fresh one seeded in its place as of now (a new operator id,
 * so new record ids: see `seedClaimed`). Created first when it does not exist yet. A reset while
 * another one (or the first seeding) runs waits for it and answers that one.
 */
export async function resetPrivateSandbox(ctx: Ctx, owner: SandboxOwner): Promise<SandboxRow> {
  const row = await privateSandbox(ctx, owner);
  const lease = wallClock.now() + LEASE_MS;
  const claimed = await ctx.db
    .update(sandboxOperators)
    .set({ status: 'seeding', leaseUntil: lease, resets: sql`${sandboxOperators.resets} + 1`, updatedAt: nowIso(ctx) })
    .where(and(eq(sandboxOperators.id, row.id), eq(sandboxOperators.status, 'ready')))
    .returning()
    .get();
  if (claimed) await seedClaimed(ctx, claimed, lease, true);
  return privateSandbox(ctx, owner);
}

/** The owner's private sandbox when it exists (ready or not), without creating it. */
export async function findPrivateSandbox(ctx: Ctx, owner: Pick<SandboxOwner, 'kind' | 'id'>): Promise<SandboxRow | undefined> {
  return read(ctx, { ...owner, label: '' });
}

/** The ids a private sandbox's demo data was seeded with (its admin, its Miami and Hamburg locations). */
export function sandboxIds(row: Pick<SandboxRow, 'operatorId'>) {
  const op = demoOperator(row.operatorId);
  return { adminUserId: op.adminId, locationIds: [op.miamiId, op.hamburgId] };
}

// ---- the partner account's sandbox (/partners/sandbox) ----

/** The partner account of `partnerId` as a sandbox owner. */
export async function partnerOwner(ctx: Ctx, partnerId: string): Promise<SandboxOwner> {
  const p = await getPartner(ctx, partnerId);
  if (!p) throw new ApiError('unauthenticated', 'Unknown partner account');
  return { kind: 'partner', id: p.id, label: p.company || p.name };
}

export function sandboxOut(row: SandboxRow): z.output<typeof s.PartnerSandbox> {
  const ids = sandboxIds(row);
  return {
    customerId: row.operatorId,
    name: row.name,
    status: row.status,
    adminUserId: ids.adminUserId,
    locationIds: ids.locationIds,
    createdAt: row.createdAt,
    seededAt: row.seededAt,
  };
}

/** GET /partners/sandbox: the signed-in partner's private sandbox operator (created and seeded on first use). */
export async function getPartnerSandbox(ctx: Ctx) {
  return sandboxOut(await privateSandbox(ctx, await partnerOwner(ctx, requirePartner(ctx))));
}

/** POST /partners/sandbox/keys: a new admin API key of the partner's sandbox operator, shown once. */
export async function issuePartnerSandboxKey(ctx: Ctx) {
  const row = await privateSandbox(ctx, await partnerOwner(ctx, requirePartner(ctx)));
  const admin = systemCtxFor(ctx, row.operatorId);
  const key = await createKey({ ...admin, principal: { ...admin.principal, userId: sandboxIds(row).adminUserId } }, 'Partner sandbox key');
  return { ...sandboxOut(row), apiKey: key.key };
}

/** POST /partners/sandbox/reset: the partner's sandbox back to its seeded state (its API keys stop; installs of its apps go with it). */
export async function resetPartnerSandbox(ctx: Ctx) {
  return sandboxOut(await resetPrivateSandbox(ctx, await partnerOwner(ctx, requirePartner(ctx))));
}

/**
 * Where the partner's own app installs land when the developer signs in with the partner account on
 * the consent page: its private sandbox's admin user (created and seeded on first use).
 */
export async function partnerSandboxAdmin(ctx: Ctx, partnerId: string): Promise<{ customerId: string; userId: string }> {
  const row = await privateSandbox(ctx, await partnerOwner(ctx, partnerId));
  return { customerId: row.operatorId, userId: sandboxIds(row).adminUserId };
}
