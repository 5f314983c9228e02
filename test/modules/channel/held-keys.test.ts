/**
 * Channel keys held by their rate-limiter object (`authenticateChannelKey`): each test warms the
 * key's object with requests, changes the key, its connection or its channel through the API, and
 * proves the very next request (channel API and OCTO, which share the object) sees the change.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, del, expectError, get, post } from '../../harness';
import { ch, connect, partnerKey, patch, platform } from './factories';

const warm = async (key: string) => {
  for (let i = 0; i < 3; i++) expect((await get('/channel/v1/me', ch(key))).status).toBe(200);
};

describe('channel keys held by their rate-limiter object', () => {
  it("a connection's new terms and status reach its key at once, on the channel API and OCTO", async () => {
    const op = await createOperator();
    const other = await createOperator();
    const { key, connectionId } = await partnerKey(op, { commissionRate: 15 });
    await warm(key);
    expect((await get('/octo/v1/supplier', ch(key))).status).toBe(200);
    // Another operator cannot touch the connection: 404, and the key is unchanged.
    expectError(await patch(`/channel-connections/${connectionId}`, { commissionRate: 30 }, { key: other.adminKey }), 404);
    expect((await get('/channel/v1/me', ch(key))).body.connection.commissionRate).toBe(15);
    expect((await patch(`/channel-connections/${connectionId}`, { commissionRate: 25 }, { key: op.adminKey })).status).toBe(200);
    expect((await get('/channel/v1/me', ch(key))).body.connection.commissionRate).toBe(25);
    expect((await patch(`/channel-connections/${connectionId}`, { status: 'paused' }, { key: op.adminKey })).status).toBe(200);
    expectError(await get('/channel/v1/me', ch(key)), 403, 'connection_paused');
    // OCTO answers in its own error format, from the same held record.
    expect((await get('/octo/v1/supplier', ch(key))).body).toMatchObject({ error: 'FORBIDDEN', errorMessage: 'The operator paused this connection' });
    expect((await patch(`/channel-connections/${connectionId}`, { status: 'active' }, { key: op.adminKey })).status).toBe(200);
    await warm(key);
    expect((await del(`/channel-connections/${connectionId}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get('/channel/v1/me', ch(key)), 401, 'invalid_api_key');
    expect((await get('/octo/v1/supplier', ch(key))).body.errorMessage).toMatch(/does not exist or was rotated/);
  });

  it('a rotated platform key and a paused channel are refused at once', async () => {
    const p = await platform();
    const op = await createOperator();
    await connect(op, p.channelId);
    await warm(p.keys.live);
    const rot = await post('/channel/v1/portal/keys/rotate', { mode: 'live' }, ch(p.portalToken));
    expect(rot.status, rot.text).toBe(200);
    expectError(await get('/channel/v1/me', ch(p.keys.live)), 401, 'invalid_api_key');
    await warm(rot.body.key);
    expect((await post('/channel/v1/portal/pause', {}, ch(p.portalToken))).status).toBe(200);
    expectError(await get('/channel/v1/me', ch(rot.body.key)), 403, 'connection_paused');
    expect((await post('/channel/v1/portal/resume', {}, ch(p.portalToken))).status).toBe(200);
    expect((await get('/channel/v1/me', ch(rot.body.key))).status).toBe(200);
  });
});
