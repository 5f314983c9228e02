import { eq } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { DEMO_ASSETS } from './inventory';
import { getDb } from '../db/client';
import { partnerAccounts, partnerApps } from '../db/schema/partners';
import { geofences, staffLocations } from '../db/schema/geofences';
import { assetPools } from '../db/schema/asset-pools';
import { sha256Hex } from '../lib/crypto';
import { hashPassword } from '../modules/partners/service';

/** Fixed ids of the sandbox's partner platform records (README and docs refer to them). */
export const DEMO_PARTNER = {
  partnerId: 'ptn_demo_partner',
  email: 'demo-partner@berth.local',
  /** An app id is its OAuth client id: a ULID-shaped id like every app's. */
  appId: 'app_0DEM0F1EETTRACKER000000000',
  geofenceId: 'gfn_demo_miami_basin',
  poolId: 'apl_demo_pontoon_fleet',
  captainLocationId: 'sloc_demo_captain',
};

/**
 * The partner platform in the sandbox: a demo partner account (password DEMO_PARTNER_PASSWORD),
 * its draft app "Fleet Tracker" (client secret DEMO_APP_CLIENT_SECRET) that installs in the
 * sandbox without approval, a geofence of the Miami marina, an asset pool of the pontoons and the
 * last known position of the captain for the live map.
 */
async function seedPartners(env: Env): Promise<boolean> {
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
  const miami = SEED.demo.miamiId;
  if (!(await db.select({ id: geofences.id }).from(geofences).where(eq(geofences.id, DEMO_PARTNER.geofenceId)).get())) {
    await db.batch([
      db.insert(geofences).values({
        id: DEMO_PARTNER.geofenceId,
        customerId: SEED.demo.customerId,
        locationId: miami,
        name: 'Miami marina basin',
        shape: 'circle',
        centerLat: 25.7781,
        centerLng: -80.1868,
        radiusMeters: 400,
      }),
      db.insert(assetPools).values({
        id: DEMO_PARTNER.poolId,
        customerId: SEED.demo.customerId,
        locationId: miami,
        name: 'Pontoon fleet',
        description: 'The three pontoons, sold as one pool',
        assetIds: [...DEMO_ASSETS.pontoon],
      }),
      db.insert(staffLocations).values({
        id: DEMO_PARTNER.captainLocationId,
        customerId: SEED.demo.customerId,
        userId: SEED.demo.captainId,
        locationId: miami,
        lat: 25.7779,
        lng: -80.1871,
        accuracyMeters: 8,
        recordedAt: '2026-01-01T12:00:00.000Z',
        source: 'staff',
      }),
    ]);
    wrote = true;
  }
  return wrote;
}

export const partnersSeed: SeedStep = { name: 'partners', run: seedPartners };
