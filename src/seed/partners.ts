import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import { DEMO_OPERATOR, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import { assetIds } from './inventory';
import type { Ctx } from '../lib/context';
import { fromNowIso } from '../lib/clock';
import { getDb } from '../db/client';
import { partnerAccounts, partnerApps } from '../db/schema/partners';
import { geofences, staffLocations } from '../db/schema/geofences';
import { assetPools } from '../db/schema/asset-pools';
import { sha256Hex } from '../lib/crypto';
import { hashPassword } from '../modules/partners/service';

/** The ids of an operator's fleet records: the Miami marina geofence, the pontoon pool, the captain's position. */
export const fleetIds = (op: { tag: string }) => ({
  geofenceId: demoId(op, 'gfn', 'miami_basin'),
  poolId: demoId(op, 'apl', 'pontoon_fleet'),
  captainLocationId: demoId(op, 'sloc', 'captain'),
});

/** Fixed ids of the sandbox's partner platform records (README and docs refer to them). */
export const DEMO_PARTNER = {
  partnerId: 'ptn_demo_partner',
  email: 'demo-partner@berth.local',
  /** An app id is its OAuth client id: a ULID-shaped id like every app's. */
  appId: 'app_0DEM0F1EETTRACKER000000000',
  ...fleetIds(DEMO_OPERATOR),
};

/**
 * The partner platform in the sandbox (platform-wide, Demo Marina's seed only): a demo partner
 * account (password DEMO_PARTNER_PASSWORD) and its draft app "Fleet Tracker" (client secret
 * DEMO_APP_CLIENT_SECRET) that installs in the sandbox without approval.
 */
async function seedPartnerPlatform(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  let wrote = false;
  if (!(await db.select({ id: partnerAccounts.id }).from(partnerAccounts).where(eq(partnerAccounts.id, DEMO_PARTNER.partnerId)).get())) {
    await db.insert(partnerAccounts).values({
      id: DEMO_PARTNER.partnerId,
      email: DEMO_PARTNER.email,
      name: 'Demo Partner',
      company: 'Demo Apps Inc.',
      passwordHash: env.DEMO_PARTNER_PASSWORD ? await hashPassword(env.DEMO_PARTNER_PASSWORD) : null,
    });
    wrote = true;
  }
  if (!(await db.select({ id: partnerApps.id }).from(partnerApps).where(eq(partnerApps.id, DEMO_PARTNER.appId)).get())) {
    const secret = env.DEMO_APP_CLIENT_SECRET;
    await db.insert(partnerApps).values({
      id: DEMO_PARTNER.appId,
      partnerId: DEMO_PARTNER.partnerId,
      name: 'Fleet Tracker',
      clientType: 'confidential',
      clientSecretHash: secret ? await sha256Hex(secret) : null,
      clientSecretPrefix: secret ? secret.slice(0, 10) : null,
      scopes: ['audio_calling', 'read:bookings', 'read:customers', 'read:geofence', 'read:inventory', 'read:locations', 'write:geofence'],
      redirectUris: ['http://localhost:3000/callback'],
      embedUrl: 'http://localhost:3000/embed',
      embedLocations: ['asset-tracking'],
      webhookUrl: null,
      webhookEvents: [],
      webhookSecret: 'whsec_dev_demo_fleet_tracker_0000000000000001',
      status: 'draft',
    });
    wrote = true;
  }
  return wrote;
}

/**
 * The operator's fleet for the live map: a geofence of the Miami marina, an asset pool of the
 * pontoons and the captain's last known position (ten minutes before the clock's now).
 */
async function seedFleet(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const ids = fleetIds(op);
  const miami = op.miamiId;
  if (await db.select({ id: geofences.id }).from(geofences).where(eq(geofences.id, ids.geofenceId)).get()) return false;
  await db.batch([
    db.insert(geofences).values({
      id: ids.geofenceId,
      customerId: op.customerId,
      locationId: miami,
      name: 'Miami marina basin',
      shape: 'circle',
      centerLat: 25.7781,
      centerLng: -80.1868,
      radiusMeters: 400,
    }),
    db.insert(assetPools).values({
      id: ids.poolId,
      customerId: op.customerId,
      locationId: miami,
      name: 'Pontoon fleet',
      description: 'The three pontoons, sold as one pool',
      assetIds: [...assetIds(op).pontoon],
    }),
    db.insert(staffLocations).values({
      id: ids.captainLocationId,
      customerId: op.customerId,
      userId: op.captainId,
      locationId: miami,
      lat: 25.7779,
      lng: -80.1871,
      accuracyMeters: 8,
      recordedAt: fromNowIso(ctx, -10 * 60_000),
      source: 'staff',
    }),
  ]);
  return true;
}

export const fleetSeed: OperatorSeedStep = { name: 'fleet', run: seedFleet };

/** Demo Marina's partners step: the partner platform and Demo Marina's fleet. */
export async function seedPartners(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const platform = await seedPartnerPlatform(ctx.env);
  const fleet = await seedFleet(ctx, op);
  return platform || fleet;
}
