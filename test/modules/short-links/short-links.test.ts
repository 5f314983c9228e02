/** Short links: http(s) only, 302 while valid with click counts, 410 after 30 days, 404 unknown. */
import { describe, it, expect } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { BASE, createOperator, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';

const DAY = 86_400_000;
/** A short-link hop without following the redirect. */
const follow = (code: string) => SELF.fetch(`${BASE}/s/${code}`, { redirect: 'manual' });

describe('short links', () => {
  it('redirects and counts clicks for 30 days, then answers 410', async () => {
    const op = await createOperator();
    const before = Date.now();
    const r = await post(
      '/communication/generate-short-code',
      { originalUrl: 'https://book.example.com/cart?id=42', metadata: { campaign: 'spring' } },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ originalUrl: 'https://book.example.com/cart?id=42', metadata: { campaign: 'spring' }, clicks: 0, expired: false });
    expect(r.body.code).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(r.body.shortUrl).toBe(`http://berth.test/s/${r.body.code}`);
    const ttl = Date.parse(r.body.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(30 * DAY - 1000);
    expect(ttl).toBeLessThanOrEqual(30 * DAY + 5000);

    for (let i = 0; i < 3; i++) {
      const hop = await follow(r.body.code);
      expect(hop.status).toBe(302);
      expect(hop.headers.get('location')).toBe('https://book.example.com/cart?id=42');
      expect(hop.headers.get('cache-control')).toBe('no-store');
    }
    const stats = await get(`/communication/short-code/${r.body.code}`, { key: op.adminKey });
    expect(stats.body).toMatchObject({ clicks: 3, expired: false });
    expect(stats.body.lastClickedAt).not.toBeNull();

    // Past its 30 days.
    await env.DB.prepare('UPDATE short_links SET expires_at = ? WHERE code = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), r.body.code)
      .run();
    expectError(await get(`/s/${r.body.code}`), 410, 'expired');
    expect((await get(`/communication/short-code/${r.body.code}`, { key: op.adminKey })).body).toMatchObject({ clicks: 3, expired: true });
    expectError(await get('/s/NoSuchCode1'), 404, 'not_found');
  });

  it('accepts only absolute http(s) URLs', async () => {
    const op = await createOperator();
    const make = (originalUrl: unknown) => post('/communication/generate-short-code', { originalUrl }, { key: op.adminKey });
    expect((await make('http://example.com/plain')).status).toBe(200);
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://example.com/f', '/relative/path', 'https://user:pw@example.com/', 'not a url']) {
      expectError(await make(bad), 400, 'validation_failed');
    }
    expectError(await make(undefined), 400, 'validation_failed');
    expectError(await post('/communication/generate-short-code', { originalUrl: 'https://x.test', metadata: 'nope' }, { key: op.adminKey }), 400);
  });

  it('has the shared security checks', async () => {
    const op = await createOperator();
    const r = await post('/communication/generate-short-code', { originalUrl: 'https://example.com' }, { key: op.adminKey });
    await checkSecurity(op, { method: 'POST', path: '/communication/generate-short-code', body: { originalUrl: 'https://example.com' } });
    await checkSecurity(op, { method: 'GET', path: `/communication/short-code/${r.body.code}`, otherStatus: 404 });
  });
});
