import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { get, post } from '../../harness';
import { seedSandbox } from '../../../src/seed';
import { DEMO_PARTNER } from '../../../src/seed/partners';
import { basic, bearer, consent, pkce, tokenCall } from './helpers';

describe('Sandbox seed: the partner platform', () => {
  it('seeds a partner, a draft app that installs in the sandbox, a geofence, a pool and a staff position (idempotently)', async () => {
    // Files share a runtime: another may have seeded Demo Marina already. Its fleet rows go first, so this run of the
    // step has work to do (the partner and app are kept: other records may refer to them).
    await env.DB.batch(
      [
        ['geofences', DEMO_PARTNER.geofenceId],
        ['asset_pools', DEMO_PARTNER.poolId],
        ['staff_locations', DEMO_PARTNER.captainLocationId],
      ].map(([table, id]) => env.DB.prepare(`DELETE FROM ${table} WHERE id = ?`).bind(id)),
    );
    const first = await seedSandbox(env);
    expect(first.partners).toBe(true);
    expect((await seedSandbox(env)).partners).toBe(false);

    const login = await post('/partners/login', { email: DEMO_PARTNER.email, password: env.DEMO_PARTNER_PASSWORD });
    expect(login.status, login.text).toBe(200);
    const apps = await get('/partners/apps', bearer(login.body.token));
    expect(apps.body.data).toEqual([expect.objectContaining({ appId: DEMO_PARTNER.appId, status: 'draft' })]);

    const redirect = 'http://localhost:3000/callback';
    const { verifier, challenge } = await pkce();
    const c = await consent(
      {
        client_id: DEMO_PARTNER.appId,
        redirect_uri: redirect,
        scope: 'read:geofence read:inventory',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      'usr_demo_admin',
    );
    expect(c.redirect.status, c.redirect.text).toBe(302);
    const t = await tokenCall(
      { grant_type: 'authorization_code', code: c.location!.searchParams.get('code')!, redirect_uri: redirect, code_verifier: verifier },
      basic(DEMO_PARTNER.appId, env.DEMO_APP_CLIENT_SECRET!),
    );
    expect(t.status, t.text).toBe(200);
    const map = await get('/api/v1/asset-tracking?locationId=loc_demo_miami', bearer(t.body.access_token));
    expect(map.status, map.text).toBe(200);
    expect(map.body.geofences.map((g: any) => g.geofenceId)).toContain(DEMO_PARTNER.geofenceId);
    expect(map.body.staff.map((s: any) => s.userId)).toContain('usr_demo_captain');
    const pools = await get('/api/v1/asset-pools', bearer(t.body.access_token));
    expect(pools.body.data.map((p: any) => p.poolId)).toContain(DEMO_PARTNER.poolId);
  });
});
