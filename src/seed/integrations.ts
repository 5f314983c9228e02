import { and, eq } from 'drizzle-orm';
import type { Env } from '../env';
import { SEED, type SeedStep } from './types';
import { getDb } from '../db/client';
import { sha256Hex } from '../lib/crypto';
import { seal } from '../lib/sealed';
import { locations } from '../db/schema/locations';
import { marketplaceConfigs } from '../db/schema/marketplace';
import { gpsDevices, gpsHomeAreas, gpsSettings } from '../db/schema/gps';
import { geofences } from '../db/schema/geofences';
import { DEMO_PARTNER } from './partners';
import { calendarFeeds } from '../db/schema/calendar-sync';

/** Fixed ids of the sandbox's integrations (README examples). */
export const DEMO_INTEGRATIONS = {
  marketplaceConfigId: 'mkc_demo_marina',
  /** The Miami marina basin of the partner seed: the home area of Miami. */
  homeGeofenceId: DEMO_PARTNER.geofenceId,
  bayGeofenceId: 'gfn_demo_biscayne_bay',
  trackerId: 'gpd_demo_pontoon_1',
  operatorFeedId: 'cfd_demo_operator',
};

/**
 * Demo Marina's integrations: the tour marketplace configured with DEMO_MARKETPLACE_KEY, the Miami
 * marina basin (a geofence of the partner seed) as Miami's home area and a Biscayne Bay geofence,
 * with a tracker (DEMO_GPS_DEVICE_KEY) on the first pontoon,
 * auto-return on, a voice menu on the Miami number, and an operator calendar feed
 * (DEMO_CALENDAR_FEED_TOKEN). Calendar, accounting and fleet links need an OAuth consent or
 * credentials: the README shows them against the offline simulators.
 */
async function seedIntegrations(env: Env): Promise<boolean> {
  const db = getDb(env.DB);
  const d = SEED.demo;
  let wrote = false;
  if (
    env.DEMO_MARKETPLACE_KEY &&
    !(await db.select({ id: marketplaceConfigs.id }).from(marketplaceConfigs).where(eq(marketplaceConfigs.customerId, d.customerId)).get())
  ) {
    await db.insert(marketplaceConfigs).values({
      id: DEMO_INTEGRATIONS.marketplaceConfigId,
      customerId: d.customerId,
      supplierId: 'SUP-DEMO-MARINA',
      apiKeyHash: await sha256Hex(env.DEMO_MARKETPLACE_KEY),
      apiKeyLast4: env.DEMO_MARKETPLACE_KEY.slice(-4),
      outboundApiKey: await seal(env, 'dev-outbound-key-demo-marina'),
      currency: 'usd',
      isActive: true,
    });
    wrote = true;
  }
  if (!(await db.select({ id: geofences.id }).from(geofences).where(eq(geofences.id, DEMO_INTEGRATIONS.bayGeofenceId)).get())) {
    await db.batch([
      db.insert(geofences).values({
        id: DEMO_INTEGRATIONS.bayGeofenceId,
        customerId: d.customerId,
        locationId: d.miamiId,
        name: 'Biscayne Bay (allowed waters)',
        shape: 'polygon',
        points: [
          { lat: 25.74, lng: -80.2 },
          { lat: 25.74, lng: -80.14 },
          { lat: 25.83, lng: -80.14 },
          { lat: 25.83, lng: -80.2 },
        ],
      }),
      db.insert(gpsHomeAreas).values({ customerId: d.customerId, locationId: d.miamiId, geofenceId: DEMO_INTEGRATIONS.homeGeofenceId }).onConflictDoNothing(),
      db.insert(gpsSettings).values({ customerId: d.customerId, autoReturn: true }).onConflictDoNothing(),
    ]);
    wrote = true;
  }
  if (env.DEMO_GPS_DEVICE_KEY && !(await db.select({ id: gpsDevices.id }).from(gpsDevices).where(eq(gpsDevices.id, DEMO_INTEGRATIONS.trackerId)).get())) {
    await db.insert(gpsDevices).values({
      id: DEMO_INTEGRATIONS.trackerId,
      customerId: d.customerId,
      locationId: d.miamiId,
      deviceName: 'pontoon-1',
      inventoryId: 'inv_demo_pontoon',
      assetId: 'ast_demo_pt_1',
      keyHash: await sha256Hex(env.DEMO_GPS_DEVICE_KEY),
      keyPrefix: env.DEMO_GPS_DEVICE_KEY.slice(0, 8),
    });
    wrote = true;
  }
  if (
    env.DEMO_CALENDAR_FEED_TOKEN &&
    !(await db.select({ id: calendarFeeds.id }).from(calendarFeeds).where(eq(calendarFeeds.id, DEMO_INTEGRATIONS.operatorFeedId)).get())
  ) {
    await db.insert(calendarFeeds).values({
      id: DEMO_INTEGRATIONS.operatorFeedId,
      customerId: d.customerId,
      userId: null,
      name: 'Demo Marina: all bookings',
      tokenHash: await sha256Hex(env.DEMO_CALENDAR_FEED_TOKEN),
      tokenPrefix: env.DEMO_CALENDAR_FEED_TOKEN.slice(0, 8),
      createdBy: d.adminId,
    });
    wrote = true;
  }
  const miami = await db
    .select({ ivrConfig: locations.ivrConfig })
    .from(locations)
    .where(and(eq(locations.id, d.miamiId), eq(locations.customerId, d.customerId)))
    .get();
  if (miami && !(miami.ivrConfig && Object.keys(miami.ivrConfig).length)) {
    await db
      .update(locations)
      .set({
        ivrConfig: {
          enabled: true,
          greeting: 'Thank you for calling Demo Marina Miami.',
          menu: [
            { key: '1', label: 'Bookings', action: 'ring_group' },
            { key: '2', label: 'Directions and hours', action: 'message', target: 'We are at 401 Biscayne Boulevard, open 8 AM to 6 PM.' },
            { key: '0', label: 'Leave a message', action: 'voicemail' },
          ],
          ringList: ['+13055550101', '+13055550102'],
          voicemailEmail: 'frontdesk@demo-marina.test',
        },
      })
      .where(and(eq(locations.id, d.miamiId), eq(locations.customerId, d.customerId)));
    wrote = true;
  }
  return wrote;
}

export const integrationsSeed: SeedStep = { name: 'integrations', run: seedIntegrations };
