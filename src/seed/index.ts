import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import { channelSeed } from './channel';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { apiKeys, customers, users } from '../db/schema/accounts';
import { locations } from '../db/schema/locations';
import { keyRow } from '../modules/api-keys/service';
import { payments } from '../adapters/payments';
import { sha256Hex } from '../lib/crypto';
import { inventorySeed } from './inventory';
import { bookingsSeed } from './bookings';
import { communicationsSeed } from './communications';
import { marinaSeed } from './marina';
import { posSeed, promoCodesSeed, protectionSeed } from './counter';
import { membershipsSeed } from './memberships';
import { partnersSeed } from './partners';
import { marina2Seed } from './marina2';
import { octoSeed } from './octo';
import { coverageSeed } from './coverage';
import { integrationsSeed } from './integrations';
import { widgetSeed } from './widget';
import { analyticsSeed } from './analytics';

export { SEED, type SeedStep } from './types';

async function ensureKey(env: Env, customerId: string, userId: string, name: string, secret: string | undefined) {
  if (!secret) return;
  const db = getDb(env.DB);
  const hash = await sha256Hex(secret);
  const existing = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.keyHash, hash)).get();
  if (!existing) await db.insert(apiKeys).values(await keyRow({ customerId, userId, name, secret }));
}

/** The two operators, their locations, users and API keys. */
async function seedAccounts(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const exists = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, SEED.demo.customerId)).get();
  if (!exists) {
    const pay = payments(env);
    const demoPay = await pay.createCustomer({ email: 'owner@demo-marina.test', name: 'Demo Marina', metadata: { berthCustomerId: SEED.demo.customerId } });
    const demoSub = await pay.createSubscription(demoPay.id, 'enterprise');
    const otherPay = await pay.createCustomer({
      email: 'owner@other-rentals.test',
      name: 'Other Rentals',
      metadata: { berthCustomerId: SEED.other.customerId },
    });
    const otherSub = await pay.createSubscription(otherPay.id, 'standard');
    const d = SEED.demo;
    const o = SEED.other;
    await db.batch([
      db.insert(customers).values({
        id: d.customerId,
        name: 'Demo Marina',
        email: 'owner@demo-marina.test',
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
      db.insert(locations).values({
        id: d.miamiId,
        customerId: d.customerId,
        name: 'Demo Marina Miami',
        address: '401 Biscayne Blvd, Miami, FL 33132, USA',
        phoneNumber: '+13055550100',
        timezone: 'America/New_York',
        currency: 'usd',
        details: { timezone: 'America/New_York' },
      }),
      db.insert(locations).values({
        id: d.hamburgId,
        customerId: d.customerId,
        name: 'Demo Marina Hamburg',
        address: 'Bei den St. Pauli-Landungsbrücken 1, 20359 Hamburg, Germany',
        phoneNumber: '+494055550100',
        timezone: 'Europe/Berlin',
        currency: 'eur',
        details: { timezone: 'Europe/Berlin' },
      }),
      db.insert(locations).values({
        id: o.locationId,
        customerId: o.customerId,
        name: 'Other Rentals Tahoe',
        address: '1 Lakeshore Dr, Tahoe City, CA 96145, USA',
        phoneNumber: '+15305550100',
        timezone: 'America/Los_Angeles',
      }),
      db.insert(users).values({
        id: d.adminId,
        customerId: d.customerId,
        email: 'admin@demo-marina.test',
        name: 'Dana Admin',
        role: 'admin',
        permissions: ['admin'],
        locations: [d.miamiId, d.hamburgId],
        idpSubject: `local|${d.adminId}`,
        isSetup: true,
      }),
      db.insert(users).values({
        id: d.captainId,
        customerId: d.customerId,
        email: 'captain@demo-marina.test',
        name: 'Carl Captain',
        role: 'staff',
        locations: [d.miamiId],
        userSkills: ['captain'],
        idpSubject: `local|${d.captainId}`,
        isSetup: true,
      }),
      db.insert(users).values({
        id: d.coachId,
        customerId: d.customerId,
        email: 'coach@demo-marina.test',
        name: 'Cora Coach',
        role: 'staff',
        locations: [d.hamburgId],
        userSkills: ['coach', 'captain'],
        idpSubject: `local|${d.coachId}`,
        isSetup: true,
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

/** Seed steps in order; later modules append theirs, one a line. Each step is idempotent and reports whether it wrote. */
// prettier-ignore
export const SEED_STEPS: SeedStep[] = [
  { name: 'accounts', run: seedAccounts },
  inventorySeed,
  bookingsSeed,
  channelSeed,
  communicationsSeed,
  marinaSeed,
  posSeed,
  promoCodesSeed,
  protectionSeed,
  membershipsSeed,
  partnersSeed,
  marina2Seed,
  octoSeed,
  coverageSeed,
  integrationsSeed,
  widgetSeed,
  analyticsSeed,
];

export async function seedSandbox(env: Env): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const step of SEED_STEPS) out[step.name] = await step.run(env);
  return out;
}
