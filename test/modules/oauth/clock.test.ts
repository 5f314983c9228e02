/**
 * OAuth for an operator on a sandbox test clock: the installation is stamped with the operator's
 * time, while codes and tokens live on real time (clients and apps check them against their own
 * clocks): a clock years in the past or ahead neither expires a fresh token nor keeps a stale one.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, get } from '../../harness';
import { basic, bearer, createApp, installAndToken, registerPartner, tokenCall } from '../partners/helpers';

describe('OAuth on a test clock', () => {
  it.each([
    ['years before the machine', '2025-03-05T15:00:00.000Z'],
    ['years after the machine', '2031-03-05T15:00:00.000Z'],
  ])('a clock %s: the code, the token and its refresh work; the installation reads the clock', async (_label, clockAt) => {
    const partner = await registerPartner();
    const app = await createApp(partner);
    // A test clock's operator is a sandbox operator: the app installs there without review.
    const op = await createOperator({ clockAt });
    const t = await installAndToken(op, app, 'read:locations');
    expect(t.expires_in).toBe(3600);
    const call = await get('/api/v1/location', bearer(t.access_token));
    expect(call.status, call.text).toBe(200);
    const refreshed = await tokenCall({ grant_type: 'refresh_token', refresh_token: t.refresh_token }, basic(app.appId, app.clientSecret!));
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await get('/api/v1/location', bearer(refreshed.body.access_token))).status).toBe(200);
    const inst = await get(`/apps/installations/${t.installation_id}`, { key: op.adminKey });
    expect(inst.body).toMatchObject({ status: 'active', sandbox: true, installedAt: clockAt });
  });
});
