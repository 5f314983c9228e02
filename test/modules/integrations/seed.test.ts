/**
 * The sandbox seed of the integrations (Demo Marina only): idempotent, and the README's sandbox keys
 * work. Checked by "seeded, idempotent, the data is there", not "the first run wrote": other files in
 * this runtime may have seeded Demo Marina first, with the keys of the test env.
 */
import { describe, it, expect } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { BASE, post } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed';
import { DEMO_INTEGRATIONS } from '../../../src/seed/integrations';
import { twilioAuthToken, twilioSignature } from '../../../src/adapters/telephony-signature';
import { newId } from '../../../src/lib/ids';

/**
 * The sandbox keys: the env's when it has them (.dev.vars; every seed run of this runtime wrote
 * those), else test keys (the first seed run with them writes them; seed runs without keys leave
 * them out).
 */
const keys = {
  DEMO_MARKETPLACE_KEY: env.DEMO_MARKETPLACE_KEY ?? 'mkt_test_demo_marina_marketplace_key_0000001',
  DEMO_GPS_DEVICE_KEY: env.DEMO_GPS_DEVICE_KEY ?? 'gpd_test_demo_marina_tracker_key_00000000001',
  DEMO_CALENDAR_FEED_TOKEN: env.DEMO_CALENDAR_FEED_TOKEN ?? 'bcf_test_demo_marina_operator_feed_000000001',
};

const row = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .first<any>();

describe('integrations seed', () => {
  it('configures Demo Marina once; the marketplace key, the tracker key, the feed and the voice menu work', async () => {
    const seedEnv = { ...env, ...keys };
    for (const step of SEED_STEPS) await step.run(seedEnv);
    expect(await SEED_STEPS.find((s) => s.name === 'integrations')!.run(seedEnv)).toBe(false);
    const D = SEED.demo;
    expect(await row('SELECT customer_id AS c FROM marketplace_configs WHERE id = ?', DEMO_INTEGRATIONS.marketplaceConfigId)).toEqual({ c: D.customerId });
    expect(await row('SELECT customer_id AS c FROM geofences WHERE id = ?', DEMO_INTEGRATIONS.bayGeofenceId)).toEqual({ c: D.customerId });
    expect(await row('SELECT asset_id AS a FROM gps_devices WHERE id = ?', DEMO_INTEGRATIONS.trackerId)).toEqual({ a: 'ast_demo_pt_1' });
    expect(await row('SELECT customer_id AS c FROM calendar_feeds WHERE id = ?', DEMO_INTEGRATIONS.operatorFeedId)).toEqual({ c: D.customerId });

    const tours = await post('/ota/tourlist', {}, { headers: { 'exp-api-key': keys.DEMO_MARKETPLACE_KEY } });
    expect(tours.status, tours.text).toBe(200);
    expect(tours.body.tours.map((t: any) => t.productCode)).toContain('inv_demo_pontoon');

    const fix = await post(
      '/integrations/gps/ingest',
      { fixes: [{ lat: 25.7781, lng: -80.1868, accuracy: 5 }] },
      { headers: { authorization: `Bearer ${keys.DEMO_GPS_DEVICE_KEY}` } },
    );
    expect(fix.status, fix.text).toBe(200);
    // Miami's home area is the partner seed's marina basin; the tracker's fix is the pontoon's position.
    const home = await env.DB.prepare("SELECT geofence_id AS g FROM gps_home_areas WHERE location_id = 'loc_demo_miami'").first<{ g: string }>();
    expect(home?.g).toBe('gfn_demo_miami_basin');
    const pos = await env.DB.prepare("SELECT source FROM asset_positions WHERE asset_id = 'ast_demo_pt_1'").first<{ source: string }>();
    expect(pos?.source).toBe('gps');

    const feed = await SELF.fetch(`${BASE}/integrations/calendar/feeds/${keys.DEMO_CALENDAR_FEED_TOKEN}/calendar.ics`);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VEVENT');

    // Other files' private demo operators (seedDemoOperator) have locations with Miami's phone number
    // too, and a call finds a location by its phone number in insertion order: the number is bought
    // for Demo Marina's Miami (as a live number is), so the call reaches it whatever ran before.
    // Another file may have bought the same test number for its own location: the number moves to Miami (as a ported number would).
    await env.DB.batch([
      env.DB.prepare('DELETE FROM phone_numbers WHERE phone_number = ?').bind('+13055550100'),
      env.DB.prepare('INSERT INTO phone_numbers (id, customer_id, location_id, phone_number, created_at) VALUES (?, ?, ?, ?, ?)').bind(
        newId('phn'),
        D.customerId,
        D.miamiId,
        '+13055550100',
        new Date().toISOString(),
      ),
    ]);
    const params = { CallSid: 'CA_seed', From: '+14155550100', To: '+13055550100' };
    const res = await SELF.fetch(`${BASE}/communication/voice/incoming-call`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': await twilioSignature(twilioAuthToken(env)!, `${BASE}/communication/voice/incoming-call`, params),
      },
      body: new URLSearchParams(params),
    });
    expect(await res.text()).toContain('Thank you for calling Demo Marina Miami.');
  });
});
