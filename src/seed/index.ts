/**
 * The sandbox seed: the demo data of an operator, written through the module services where they
 * exist, every step idempotent (it answers whether it wrote).
 *
 * - `seedSandbox(env)` seeds the local demo and the platform's shared sandbox on the wall clock:
 *   Demo Marina (`cus_demo_marina`, fixed ids the README, docs and tests use) and Other Rentals, the
 *   demo API keys from the env, and the platform-wide records that exist once: the demo partner
 *   account and its app, the demo reseller channel and its env key, OCTO (showcase items and
 *   settings), the coverage offering and the integrations (marketplace, GPS, calendar feed, voice
 *   menu). These stay with Demo Marina only.
 * - `seedDemoOperator(ctx, { customerId })` writes a fresh private sandbox operator (`isSandbox`)
 *   with Demo Marina's operator-owned data: accounts (Miami and Hamburg, staff, an admin API key
 *   returned once), inventory and assets, bookings and renters, communications, marina, counter
 *   (POS, promo codes, protection), memberships, the fleet (geofence, pool, captain's position), the
 *   second marina step, widget and analytics. Its ids are Demo Marina's with `demo` replaced by a
 *   short tag of the customer id (types.ts), so two private operators never collide.
 *
 * Time: every step reads "now" from its context's clock (`seedDemoOperator` on `ctx.clock`, which
 * may be a sandbox test clock frozen at any instant) and calendar dates from Miami's or Hamburg's
 * calendar (`todayIn`), and writes only times valid at any hour of any day: readings and history in
 * the past (up to yesterday, or minutes ago), bookings, stays, waitlist arrivals, hauls and carts
 * from tomorrow on, reminders ahead of those bookings, expiries in the future.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Env } from '../env';
import { channelSeed } from './channel';
import { DEMO_OPERATOR, SEED, demoEmail, demoOperator, type DemoOperator, type OperatorSeedStep, type SeedStep } from './types';
import { getDb, type Stmt } from '../db/client';
import { systemCtx, type Ctx } from '../lib/context';
import { isTestClockOperator, nowIso, wallClock, withClock } from '../lib/clock';
import { apiKeys, customers, users } from '../db/schema/accounts';
import { locations } from '../db/schema/locations';
import { generateKeySecret, keyRow } from '../modules/api-keys/service';
import { payments } from '../adapters/payments';
import { sha256Hex } from '../lib/crypto';
import { inventorySeed } from './inventory';
import { bookingsSeed } from './bookings';
import { bookingMoneySeed } from './booking-money';
import { communicationsSeed } from './communications';
import { messageAutomationsSeed } from './message-automations';
import { marinaSeed } from './marina';
import { posSeed, promoCodesSeed, protectionSeed } from './counter';
import { giftCardsSeed } from './gift-cards';
import { membershipsSeed } from './memberships';
import { fleetSeed, seedPartners } from './partners';
import { marina2Seed } from './marina2';
import { octoSeed } from './octo';
import { coverageSeed } from './coverage';
import { integrationsSeed } from './integrations';
import { widgetSeed } from './widget';
import { analyticsSeed } from './analytics';
import { portalsSeed } from './portals';
import { staffSeed } from './staff';

export { SEED, DEMO_OPERATOR, demoOperator, tagOf, type DemoOperator, type OperatorSeedStep, type SeedStep } from './types';

async function ensureKey(env: Env, customerId: string, userId: string, name: string, secret: string | undefined) {
  if (!secret) return;
  const db = getDb(env.DB);
  const hash = await sha256Hex(secret);
  const existing = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.keyHash, hash)).get();
  if (!existing) await db.insert(apiKeys).values(await keyRow({ customerId, userId, name, secret }));
}

/** The rows of an operator's demo locations (Miami, Hamburg) and staff (an admin, a captain, a coach). */
function demoAccountRows(db: Ctx['db'], op: DemoOperator): Stmt[] {
  return [
    db
      .insert(locations)
      .values({
        id: op.miamiId,
        customerId: op.customerId,
        name: `${op.name} Miami`,
        address: '401 Biscayne Blvd, Miami, FL 33132, USA',
        phoneNumber: '+13055550100',
        timezone: 'America/New_York',
        currency: 'usd',
        details: { timezone: 'America/New_York' },
      })
      .onConflictDoNothing(),
    db
      .insert(locations)
      .values({
        id: op.hamburgId,
        customerId: op.customerId,
        name: `${op.name} Hamburg`,
        address: 'Bei den St. Pauli-Landungsbrücken 1, 20359 Hamburg, Germany',
        phoneNumber: '+494055550100',
        timezone: 'Europe/Berlin',
        currency: 'eur',
        details: { timezone: 'Europe/Berlin' },
      })
      .onConflictDoNothing(),
    db
      .insert(users)
      .values({
        id: op.adminId,
        customerId: op.customerId,
        email: demoEmail(op, 'admin'),
        name: 'Dana Admin',
        role: 'admin',
        permissions: ['admin'],
        locations: [op.miamiId, op.hamburgId],
        idpSubject: `local|${op.adminId}`,
        isSetup: true,
      })
      .onConflictDoNothing(),
    db
      .insert(users)
      .values({
        id: op.captainId,
        customerId: op.customerId,
        email: demoEmail(op, 'captain'),
        name: 'Carl Captain',
        role: 'staff',
        locations: [op.miamiId],
        userSkills: ['captain'],
        idpSubject: `local|${op.captainId}`,
        isSetup: true,
      })
      .onConflictDoNothing(),
    db
      .insert(users)
      .values({
        id: op.coachId,
        customerId: op.customerId,
        email: demoEmail(op, 'coach'),
        name: 'Cora Coach',
        role: 'staff',
        locations: [op.hamburgId],
        userSkills: ['coach', 'captain'],
        idpSubject: `local|${op.coachId}`,
        isSetup: true,
      })
      .onConflictDoNothing(),
  ];
}

/** The two sandbox operators (Demo Marina, Other Rentals), their locations, users and the demo API keys of the env. */
async function seedAccounts(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const exists = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, SEED.demo.customerId)).get();
  if (!exists) {
    const pay = payments(env);
    const d = DEMO_OPERATOR;
    const o = SEED.other;
    const demoPay = await pay.createCustomer({ email: d.email, name: d.name, metadata: { berthCustomerId: d.customerId } });
    const demoSub = await pay.createSubscription(demoPay.id, 'enterprise');
    const otherPay = await pay.createCustomer({
      email: 'owner@other-rentals.test',
      name: 'Other Rentals',
      metadata: { berthCustomerId: o.customerId },
    });
    const otherSub = await pay.createSubscription(otherPay.id, 'standard');
    await db.batch([
      db.insert(customers).values({
        id: d.customerId,
        name: d.name,
        email: d.email,
        businessName: 'Demo Marina LLC',
        plan: 'enterprise',
        isSandbox: true,
        paymentCustomerId: demoPay.id,
        subscriptionId: demoSub.id,
      }),
      db.insert(customers).values({
        id: o.customerId,
        name: 'Other Rentals',
        email: 'owner@other-rentals.test',
        businessName: 'Other Rentals Inc.',
        plan: 'standard',
        paymentCustomerId: otherPay.id,
        subscriptionId: otherSub.id,
      }),
      ...demoAccountRows(db, d),
      db.insert(locations).values({
        id: o.locationId,
        customerId: o.customerId,
        name: 'Other Rentals Tahoe',
        address: '1 Lakeshore Dr, Tahoe City, CA 96145, USA',
        phoneNumber: '+15305550100',
        timezone: 'America/Los_Angeles',
      }),
      db.insert(users).values({
        id: o.adminId,
        customerId: o.customerId,
        email: 'admin@other-rentals.test',
        name: 'Olly Other',
        role: 'admin',
        permissions: ['admin'],
        locations: [o.locationId],
        idpSubject: `local|${o.adminId}`,
        isSetup: true,
      }),
    ]);
  }
  await ensureKey(env, SEED.demo.customerId, SEED.demo.adminId, 'Sandbox admin key', env.DEMO_API_KEY);
  await ensureKey(env, SEED.other.customerId, SEED.other.adminId, 'Other Rentals admin key', env.OTHER_API_KEY);
  return !exists;
}

/**
 * A private sandbox operator's account: the customer (enterprise, `isSandbox`, with a customer and a
 * subscription at the payment provider), its Miami and Hamburg locations and its staff. Fills in what
 * is missing, so a customer row the caller made first (a test clock's operator) is completed; a live
 * operator is refused.
 */
async function seedOperatorAccounts(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const [cust, locs, staff] = await db.batch([
    db.select().from(customers).where(eq(customers.id, op.customerId)),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.customerId, op.customerId), inArray(locations.id, [op.miamiId, op.hamburgId]))),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.customerId, op.customerId), inArray(users.id, [op.adminId, op.captainId, op.coachId]))),
  ]);
  const existing = cust[0];
  if (existing && !existing.isSandbox && !isTestClockOperator(existing.id))
    throw new Error(`seed: ${op.customerId} is a live operator; demo data goes to sandbox operators only`);
  if (existing?.paymentCustomerId && existing.isSandbox && locs.length === 2 && staff.length === 3) return false;
  const stmts: Stmt[] = [];
  if (!existing?.paymentCustomerId) {
    const pay = payments(ctx);
    const customer = await pay.createCustomer({ email: op.email, name: op.name, metadata: { berthCustomerId: op.customerId } });
    const sub = await pay.createSubscription(customer.id, 'enterprise');
    if (existing)
      stmts.push(db.update(customers).set({ isSandbox: true, paymentCustomerId: customer.id, subscriptionId: sub.id }).where(eq(customers.id, op.customerId)));
    else
      stmts.push(
        db.insert(customers).values({
          id: op.customerId,
          name: op.name,
          email: op.email,
          businessName: `${op.name} LLC`,
          plan: 'enterprise',
          isSandbox: true,
          paymentCustomerId: customer.id,
          subscriptionId: sub.id,
        }),
      );
  } else if (!existing.isSandbox) stmts.push(db.update(customers).set({ isSandbox: true }).where(eq(customers.id, op.customerId)));
  stmts.push(...demoAccountRows(db, op));
  await db.batch(stmts as [Stmt, ...Stmt[]]);
  return true;
}

/** A Demo Marina step of `seedSandbox`: an operator step for Demo Marina on the wall clock. */
const forDemo = (step: OperatorSeedStep): SeedStep => ({
  name: step.name,
  run: (env) => step.run(systemCtx(env, { customerId: SEED.demo.customerId, requestId: `seed_${step.name}`, clock: wallClock }), DEMO_OPERATOR),
});

/**
 * Demo Marina's seed steps in order (`seedSandbox`); later modules append theirs, one a line.
 * Each step is idempotent and reports whether it wrote.
 */
// prettier-ignore
export const SEED_STEPS: SeedStep[] = [
  { name: 'accounts', run: seedAccounts },
  forDemo(inventorySeed),
  forDemo(bookingsSeed),
  forDemo(bookingMoneySeed),
  channelSeed,
  forDemo(communicationsSeed),
  forDemo(messageAutomationsSeed),
  forDemo(marinaSeed),
  forDemo(posSeed),
  forDemo(promoCodesSeed),
  forDemo(giftCardsSeed),
  forDemo(protectionSeed),
  forDemo(membershipsSeed),
  forDemo({ name: 'partners', run: seedPartners }),
  forDemo(marina2Seed),
  forDemo(portalsSeed),
  octoSeed,
  coverageSeed,
  integrationsSeed,
  forDemo(widgetSeed),
  forDemo(analyticsSeed),
  forDemo(staffSeed),
];

/**
 * A private operator's seed steps in order (`seedDemoOperator`): Demo Marina's operator-owned steps,
 * without the platform-wide records (partner platform, reseller channel, OCTO, coverage, integrations).
 */
// prettier-ignore
export const OPERATOR_SEED_STEPS: OperatorSeedStep[] = [
  { name: 'accounts', run: seedOperatorAccounts },
  inventorySeed,
  bookingsSeed,
  bookingMoneySeed,
  communicationsSeed,
  messageAutomationsSeed,
  marinaSeed,
  posSeed,
  promoCodesSeed,
  giftCardsSeed,
  protectionSeed,
  membershipsSeed,
  fleetSeed,
  marina2Seed,
  portalsSeed,
  widgetSeed,
  analyticsSeed,
  staffSeed,
];

/** Seeds Demo Marina, Other Rentals and the platform's sandbox records on the wall clock; answers which steps wrote. */
export async function seedSandbox(env: Env): Promise<Record<string, boolean>> {
  return withClock(wallClock, async () => {
    const out: Record<string, boolean> = {};
    for (const step of SEED_STEPS) out[step.name] = await step.run(env);
    return out;
  });
}

export interface SeededOperator {
  customerId: string;
  adminUserId: string;
  /** A new admin API key of the operator, shown once (each call issues one). */
  adminKey: string;
  /** Miami, Hamburg. */
  locationIds: string[];
  /** Which steps wrote (false: the step's data was there already). */
  seeded: Record<string, boolean>;
}

/**
 * Writes a private sandbox operator `customerId` (created when missing, marked `isSandbox`) with
 * Demo Marina's operator-owned demo data, on `ctx.clock` (the operator's time: a sandbox test
 * clock's operator is seeded at its frozen time), and issues it a new admin API key. The steps run
 * as the system acting for that operator, with `ctx`'s request id, waitUntil, hooks and clock.
 * Idempotent: a second call writes nothing but a new key. The caller makes the id (a `cus_tclk_` id
 * for a test clock's operator) and runs one call per operator at a time; a live operator's id is
 * refused.
 */
export async function seedDemoOperator(ctx: Ctx, opts: { customerId: string; name?: string; email?: string }): Promise<SeededOperator> {
  const op = demoOperator(opts.customerId, { name: opts.name, email: opts.email });
  const sys = systemCtx(ctx.env, { customerId: op.customerId, requestId: ctx.requestId, waitUntil: ctx.waitUntil, hooks: ctx.hooks, clock: ctx.clock });
  return withClock(ctx.clock, async () => {
    const seeded: Record<string, boolean> = {};
    for (const step of OPERATOR_SEED_STEPS) seeded[step.name] = await step.run(sys, op);
    const adminKey = generateKeySecret();
    await sys.db
      .insert(apiKeys)
      .values({ ...(await keyRow({ customerId: op.customerId, userId: op.adminId, name: 'Sandbox admin key', secret: adminKey })), createdAt: nowIso(sys) });
    return { customerId: op.customerId, adminUserId: op.adminId, adminKey, locationIds: [op.miamiId, op.hamburgId], seeded };
  });
}
