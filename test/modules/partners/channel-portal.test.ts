import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { api, db, expectError, get, post } from '../../harness';
import { channels } from '../../../src/db/schema/channel';
import { messageOutbox } from '../../../src/db/schema/events';
import { partnerAccounts } from '../../../src/db/schema/partners';
import { sha256Hex } from '../../../src/lib/crypto';
import { newId } from '../../../src/lib/ids';
import { bearer, registerPartner } from './helpers';

const slug = () => `ota-${crypto.randomUUID().slice(0, 8)}`;

describe('The reseller portal on partner accounts', () => {
  it('a registration without a partner token creates the partner account; the portal takes either token', async () => {
    const s = slug();
    const r = await post('/channel/v1/portal/register', { name: `OTA ${s}`, slug: s, contactEmail: `${s}@ota.example`, password: 'ota password 123' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.portalToken).toMatch(/^rtp_/);
    expect(r.body.partnerToken).toMatch(/^bpt_/);
    expect(r.body.partnerAccountId).toMatch(/^ptn_/);
    const me = await get('/partners/me', bearer(r.body.partnerToken));
    expect(me.body).toMatchObject({ partnerId: r.body.partnerAccountId, email: `${s}@ota.example`, hasPassword: true });
    // Existing portal token still works; the partner token reaches the same channel.
    expect((await get('/channel/v1/portal/channel', { token: r.body.portalToken })).body.channelId).toBe(r.body.channelId);
    const viaPartner = await get('/channel/v1/portal/channel', bearer(r.body.partnerToken));
    expect(viaPartner.status, viaPartner.text).toBe(200);
    expect(viaPartner.body).toMatchObject({ channelId: r.body.channelId, partnerAccountId: r.body.partnerAccountId });
    const login = await post('/partners/login', { email: `${s}@ota.example`, password: 'ota password 123' });
    expect((await post('/channel/v1/portal/pause', {}, bearer(login.body.token))).body.status).toBe('paused');
    // The e-mail has an account now: registering again without its token is refused.
    const again = slug();
    expectError(await post('/channel/v1/portal/register', { name: 'Again', slug: again, contactEmail: `${s}@ota.example` }), 409, 'already_exists');
  });

  it('a partner token on the registration attaches the channel to that account; several channels need X-Channel-Id', async () => {
    const p = await registerPartner('Travel Desk');
    const a = slug();
    const first = await post('/channel/v1/portal/register', { name: 'Desk A', slug: a, contactEmail: `${a}@desk.example` }, bearer(p.token));
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ partnerAccountId: p.partnerId, partnerToken: null });
    expect((await get('/channel/v1/portal/channel', bearer(p.token))).body.channelId).toBe(first.body.channelId);
    const b = slug();
    const second = await post('/channel/v1/portal/register', { name: 'Desk B', slug: b, contactEmail: `${b}@desk.example` }, bearer(p.token));
    expect(second.status).toBe(201);
    expectError(await get('/channel/v1/portal/channel', bearer(p.token)), 401, 'invalid_api_key');
    const picked = await api('GET', '/channel/v1/portal/channel', { ...bearer(p.token), headers: { 'x-channel-id': second.body.channelId } });
    expect(picked.body.channelId).toBe(second.body.channelId);
    const stranger = await registerPartner('Stranger');
    expectError(await get('/channel/v1/portal/channel', bearer(stranger.token)), 401, 'invalid_api_key');
    expectError(
      await api('GET', '/channel/v1/portal/channel', { ...bearer(stranger.token), headers: { 'x-channel-id': second.body.channelId } }),
      401,
      'invalid_api_key',
    );
  });

  it('the data migration gives every existing channel the partner account of its contact e-mail', async () => {
    const s = slug();
    const portalToken = `rtp_${'L'.repeat(40)}${s.slice(-4)}`;
    const channelId = newId('chn');
    await db()
      .insert(channels)
      .values({
        id: channelId,
        slug: s,
        name: 'Legacy OTA',
        contactEmail: `Legacy-${s}@OTA.example`,
        portalTokenHash: await sha256Hex(portalToken),
        status: 'active',
      });
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes('partners_channel_accounts'));
    expect(migration).toBeDefined();
    for (const q of migration!.queries) await env.DB.prepare(q).run();
    for (const q of migration!.queries) await env.DB.prepare(q).run(); // idempotent
    const row = await db().select().from(channels).where(eq(channels.id, channelId)).get();
    const account = await db().select().from(partnerAccounts).where(eq(partnerAccounts.id, row!.partnerAccountId!)).get();
    expect(account).toMatchObject({ email: `legacy-${s}@ota.example`, status: 'active', passwordHash: null });
    expect(account!.id).toMatch(/^ptn_[0-9A-F]{26}$/);
    expect(
      (
        await db()
          .select()
          .from(partnerAccounts)
          .where(eq(partnerAccounts.email, `legacy-${s}@ota.example`))
          .all()
      ).length,
    ).toBe(1);

    // The old portal token keeps working; the reseller claims the account by password reset and uses the partner token.
    expect((await get('/channel/v1/portal/channel', { token: portalToken })).body.channelId).toBe(channelId);
    await post('/partners/password/forgot', { email: `legacy-${s}@ota.example` });
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.to, `legacy-${s}@ota.example`), eq(messageOutbox.template, 'partner_password_reset')))
      .get();
    const token = /(bpr_[A-Za-z0-9]{40})/.exec(mail!.body)![1];
    expect((await post('/partners/password/reset', { token, newPassword: 'claimed password 1' })).status).toBe(200);
    const login = await post('/partners/login', { email: `legacy-${s}@ota.example`, password: 'claimed password 1' });
    expect((await get('/channel/v1/portal/channel', bearer(login.body.token))).body.channelId).toBe(channelId);
  });
});
