/**
 * Operator public settings and the host-page integrations: what the booking widget and the page that
 * embeds it may read of an operator, with no credentials. Values are stored in the account's
 * `integrations` (PATCH /customer) and answered as data; 204 (404 for chat) when not configured.
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, patch, type Operator } from '../../harness';
import { customers } from '../../../src/db/schema/accounts';
import { locations } from '../../../src/db/schema/locations';

const configure = async (op: Operator, integrations: Record<string, unknown>) => {
  const r = await patch('/customer', { integrations }, { key: op.adminKey });
  expect(r.status, r.text).toBe(200);
};
const q = (customerId: string) => `customerId=${encodeURIComponent(customerId)}`;

describe('GET /public/customer/{customerId}/public', () => {
  it('answers names, active locations with their cancellation policy and review platforms, the look and which integrations exist', async () => {
    const op = await createOperator({ name: 'Sunny Boats' });
    await configure(op, {
      widget: { primaryColor: '#0A5FA8', accentColor: 'red', logoUrl: 'https://cdn.example.test/logo.png', termsUrl: 'http://insecure.example.test' },
      tagManager: { containerId: 'GTM-ABC1234' },
      reviewConnections: { google: { url: 'https://g.page/r/sunny' }, yelp: { url: 'not-a-url' } },
      stripeAccountId: 'acct_secret_0001',
    });
    await db()
      .update(locations)
      .set({
        details: {
          cancellationPolicy: {
            cutoffHours: 2,
            tiers: [
              { hoursBefore: 48, refundPercent: 100 },
              { hoursBefore: 12, refundPercent: 50 },
            ],
          },
        },
      })
      .where(eq(locations.id, op.locationId));
    const r = await get(`/public/customer/${op.customerId}/public`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      customerId: op.customerId,
      businessName: 'Sunny Boats',
      widget: { primaryColor: '#0a5fa8', accentColor: null, logoUrl: 'https://cdn.example.test/logo.png', termsUrl: null, privacyUrl: null },
      integrations: { customCode: false, tagManager: true, socialConversion: false, videoPixel: false, chatMessaging: false },
    });
    expect(r.body.locations).toHaveLength(1);
    expect(r.body.locations[0]).toMatchObject({
      locationId: op.locationId,
      timezone: 'America/New_York',
      reviewPlatforms: ['google'],
      cancellationPolicy: {
        source: 'location',
        allowRenterCancellation: true,
        cutoffHours: 2,
        tiers: [
          { hoursBefore: 48, refundPercent: 100 },
          { hoursBefore: 12, refundPercent: 50 },
        ],
      },
    });
    expect(r.body.locations[0].cancellationPolicy.description).toContain('50% refund when cancelled at least 12 hours before the start');
    expect(r.text).not.toContain('acct_secret_0001');
  });

  it('falls back to the account policy, then to the default (full refund up to 24 hours before), and hides locations being deleted', async () => {
    const op = await createOperator();
    const r0 = await get(`/public/customer/${op.customerId}/public`);
    expect(r0.body.locations[0].cancellationPolicy).toMatchObject({
      source: 'default',
      cutoffHours: 0,
      tiers: [
        { hoursBefore: 24, refundPercent: 100 },
        { hoursBefore: 0, refundPercent: 0 },
      ],
    });
    await db()
      .update(customers)
      .set({ settings: { cancellationPolicy: { allowRenterCancellation: false } } })
      .where(eq(customers.id, op.customerId));
    const r1 = await get(`/public/customer/${op.customerId}/public`);
    expect(r1.body.locations[0].cancellationPolicy).toMatchObject({ source: 'account', allowRenterCancellation: false });
    // A malformed location policy does not win over the account's.
    await db()
      .update(locations)
      .set({ details: { cancellationPolicy: { tiers: 'all of it' } } })
      .where(eq(locations.id, op.locationId));
    expect((await get(`/public/customer/${op.customerId}/public`)).body.locations[0].cancellationPolicy.source).toBe('account');
    await db().update(locations).set({ status: 'pending_deletion' }).where(eq(locations.id, op.locationId));
    expect((await get(`/public/customer/${op.customerId}/public`)).body.locations).toEqual([]);
  });

  it('answers 404 for an unknown operator and 400 for a malformed id', async () => {
    expectError(await get('/public/customer/cus_unknown_000000/public'), 404, 'not_found');
    expectError(await get('/public/customer/%20/public'), 400, 'validation_failed');
  });
});

describe('host-page integrations', () => {
  it('answer 204 with no body while not configured (and 404 for chat messaging)', async () => {
    const op = await createOperator();
    for (const path of ['/public/getCustomCode', '/public/getTagManager', '/public/getSocialConversion', '/public/getVideoPixel']) {
      const r = await get(`${path}?${q(op.customerId)}`);
      expect(r.status, `${path}: ${r.text}`).toBe(204);
      expect(r.text).toBe('');
    }
    expectError(await get(`/public/getChatMessaging?${q(op.customerId)}`), 404, 'not_found');
    // An unknown operator looks the same (nothing to reveal).
    expect((await get(`/public/getTagManager?${q('cus_unknown_000000')}`)).status).toBe(204);
    expectError(await get(`/public/getChatMessaging?${q('cus_unknown_000000')}`), 404, 'not_found');
  });

  it('need customerId (400)', async () => {
    for (const path of ['/public/getCustomCode', '/public/getTagManager', '/public/getSocialConversion', '/public/getVideoPixel', '/public/getChatMessaging']) {
      expectError(await get(path), 400, 'validation_failed');
    }
  });

  it('answer the configured values as data, never run them, and keep only the fields they know', async () => {
    const op = await createOperator();
    const snippet = '<script>alert("host page only")</script>';
    await configure(op, {
      customCode: { head: '<meta name="x" content="y">', body: snippet, extra: 'ignored' },
      tagManager: { containerId: 'GTM-XYZ9876' },
      socialConversion: {
        metaPixelId: '123456789',
        facebookPixelId: '999',
        tiktokPixelId: 'C4ABCDEF',
        googleAdsConversionId: 'AW-1234',
        googleAdsConversionLabel: 'abc_DEF',
      },
      videoPixel: { provider: 'youtube', pixelId: 'YT-42' },
      chatMessaging: { provider: 'crisp', websiteId: 'web-123', token: 'secret?', welcomeMessage: '  Ahoy!  ' },
    });
    const code = await get(`/public/getCustomCode?${q(op.customerId)}`);
    expect(code.status).toBe(200);
    expect(code.headers.get('content-type')).toContain('application/json');
    expect(code.body).toEqual({ customerId: op.customerId, head: '<meta name="x" content="y">', body: snippet });
    expect((await get(`/public/getTagManager?${q(op.customerId)}`)).body).toEqual({ customerId: op.customerId, containerId: 'GTM-XYZ9876' });
    expect((await get(`/public/getSocialConversion?${q(op.customerId)}`)).body).toEqual({
      customerId: op.customerId,
      pixels: [
        { platform: 'meta', id: '123456789', label: null },
        { platform: 'tiktok', id: 'C4ABCDEF', label: null },
        { platform: 'google_ads', id: 'AW-1234', label: 'abc_DEF' },
      ],
    });
    expect((await get(`/public/getVideoPixel?${q(op.customerId)}`)).body).toEqual({ customerId: op.customerId, provider: 'youtube', pixelId: 'YT-42' });
    expect((await get(`/public/getChatMessaging?${q(op.customerId)}`)).body).toEqual({
      customerId: op.customerId,
      provider: 'crisp',
      settings: { websiteId: 'web-123' },
      welcomeMessage: 'Ahoy!',
    });
    const settings = await get(`/public/customer/${op.customerId}/public`);
    expect(settings.body.integrations).toEqual({ customCode: true, tagManager: true, socialConversion: true, videoPixel: true, chatMessaging: true });
  });

  it('treat disabled or malformed values as not configured', async () => {
    const op = await createOperator();
    await configure(op, {
      customCode: { body: 'x'.repeat(51 * 1024) },
      tagManager: { containerId: 'UA-1234' },
      socialConversion: { metaPixelId: 'has spaces <script>' },
      videoPixel: { provider: 'youtube', pixelId: 'YT-1', enabled: false },
      chatMessaging: { provider: 'Intercom!', appId: 'abc' },
    });
    for (const path of ['/public/getCustomCode', '/public/getTagManager', '/public/getSocialConversion', '/public/getVideoPixel']) {
      expect((await get(`${path}?${q(op.customerId)}`)).status, path).toBe(204);
    }
    expectError(await get(`/public/getChatMessaging?${q(op.customerId)}`), 404, 'not_found');
    // Removing a key (null) makes it unconfigured again.
    await configure(op, { videoPixel: { enabled: null } });
    expect((await get(`/public/getVideoPixel?${q(op.customerId)}`)).status).toBe(200);
    await configure(op, { videoPixel: null });
    expect((await get(`/public/getVideoPixel?${q(op.customerId)}`)).status).toBe(204);
  });
});
