/**
 * Private sandboxes of partner accounts (issue 28): each partner's sandbox installs land on its own
 * private demo operator, created and seeded on first use; no partner's app sees another's records or
 * bookings; Demo Marina is never where they land.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { expectError, get, post } from '../../harness';
import { bearer, createApp, installAsDeveloper, openAuthorize, raw, registerPartner, type Partner } from './helpers';
import { tagOf } from '../../../src/seed';
import { inventoryIds } from '../../../src/seed/inventory';
import { octoItemIds } from '../../../src/seed/octo';
import { SEED } from '../../../src/seed/types';
import { localDate } from '../../../src/lib/time';

const q = async <T = any>(sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;

const SCOPES = 'read:bookings write:bookings read:customers read:inventory read:locations';
const APP = { scopes: SCOPES.split(' ') };

async function sandboxOf(p: Partner) {
  const r = await get('/partners/sandbox', bearer(p.token));
  expect(r.status, r.text).toBe(200);
  return r.body as { customerId: string; name: string; status: string; adminUserId: string; locationIds: string[]; seededAt: string };
}

describe('A partner account has a private sandbox', () => {
  it('is created on first use (once, even for two first requests at once), seeded with the demo data, and answers the same afterwards', async () => {
    expectError(await get('/partners/sandbox'), 401);
    const p = await registerPartner('Solo Apps');
    const [a, b] = await Promise.all([get('/partners/sandbox', bearer(p.token)), get('/partners/sandbox', bearer(p.token))]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect(b.body.customerId).toBe(a.body.customerId);
    const sbx = a.body;
    expect(sbx).toMatchObject({ status: 'ready', name: 'Demo Marina (Solo Apps Ltd sandbox)' });
    expect(sbx.customerId).toMatch(/^cus_sbx_/);
    expect(sbx.customerId).not.toBe(SEED.demo.customerId);
    // Seeded once: one claim row, and the one admin key every seeding issues.
    expect(await q('SELECT owner_kind AS kind, status FROM sandbox_operators WHERE operator_id = ?', sbx.customerId)).toEqual([
      { kind: 'partner', status: 'ready' },
    ]);
    expect(await q('SELECT count(*) AS n FROM api_keys WHERE customer_id = ?', sbx.customerId)).toEqual([{ n: 1 }]);
    const tag = tagOf(sbx.customerId);
    const items = (await q<{ id: string }>('SELECT id FROM inventory_items WHERE customer_id = ? AND deleted_at IS NULL', sbx.customerId)).map((r) => r.id);
    expect(items).toEqual(expect.arrayContaining([...Object.values(inventoryIds({ tag })), ...Object.values(octoItemIds({ tag }))]));
    expect((await sandboxOf(p)).customerId).toBe(sbx.customerId);

    // An admin key of its own: the operator API as the sandbox's admin.
    const k = await post('/partners/sandbox/keys', {}, bearer(p.token));
    expect(k.status, k.text).toBe(201);
    expect(k.body).toMatchObject({ customerId: sbx.customerId, apiKey: expect.stringMatching(/^brk_/) });
    const me = await get('/customer', { key: k.body.apiKey });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ customerId: sbx.customerId, isSandbox: true });
    expect((await get(`/inventory-pricing?inventory_id=${inventoryIds({ tag }).pontoon}`, { key: k.body.apiKey })).status).toBe(200);
    expectError(await get(`/inventory-pricing?inventory_id=inv_demo_pontoon`, { key: k.body.apiKey }), 404);
  }, 120_000);

  it("two partners' sandbox installs land on their own operators: B's app never reads A's renter nor touches A's booking", async () => {
    const pa = await registerPartner('Alpha Apps');
    const pb = await registerPartner('Beta Apps');
    const appA = await createApp(pa, APP);
    const appB = await createApp(pb, APP);
    const a = await installAsDeveloper(pa, appA, SCOPES);
    const b = await installAsDeveloper(pb, appB, SCOPES);
    const [sa, sb] = [await sandboxOf(pa), await sandboxOf(pb)];
    expect(a.token.customer_id).toBe(sa.customerId);
    expect(b.token.customer_id).toBe(sb.customerId);
    expect(sa.customerId).not.toBe(sb.customerId);
    for (const id of [sa.customerId, sb.customerId]) expect(id).not.toBe(SEED.demo.customerId);
    expect(a.consentPage.text).toContain('SANDBOX');
    expect(a.consentPage.text).toContain('Alpha Apps Ltd sandbox');

    const tokA = bearer(a.token.access_token);
    const tokB = bearer(b.token.access_token);
    // A's renters and bookings, read through the gateway with A's app.
    const rentersA = await get(`/api/v1/renters?customerId=${sa.customerId}&limit=50`, tokA);
    expect(rentersA.status, rentersA.text).toBe(200);
    const renterA = rentersA.body.data[0];
    expect(renterA.customerId).toBe(sa.customerId);
    const fromToday = encodeURIComponent(JSON.stringify({ startDate: localDate(Date.now(), 'America/New_York') }));
    const upcoming = await get(`/api/v1/schedule/schedules/paginated?limit=100&filters=${fromToday}`, tokA);
    expect(upcoming.status, upcoming.text).toBe(200);
    const bookingA = (upcoming.body.data as any[]).find((x) => x.status === 'confirmed');
    expect(bookingA, JSON.stringify(upcoming.body.data.map((x: any) => x.status))).toBeTruthy();

    // B's app: A's renter and booking do not exist for it (404), and its own lists hold none of A's records.
    expectError(await get(`/api/v1/renters/${renterA.id}`, tokB), 404);
    expectError(await get(`/api/v1/coreBooking/${bookingA.rentalId}`, tokB), 404);
    expectError(await post(`/api/v1/coreBooking/${bookingA.rentalId}/cancel`, {}, tokB), 404);
    expectError(await get(`/api/v1/renters?customerId=${sa.customerId}`, tokB), 403);
    const rentersB = await get(`/api/v1/renters?customerId=${sb.customerId}&limit=50`, tokB);
    expect(rentersB.status, rentersB.text).toBe(200);
    expect((rentersB.body.data as any[]).every((r) => r.customerId === sb.customerId)).toBe(true);
    expect((rentersB.body.data as any[]).map((r) => r.id)).not.toContain(renterA.id);
    const upcomingB = await get(`/api/v1/schedule/schedules/paginated?limit=100&filters=${fromToday}`, tokB);
    expect(upcomingB.body.data.length).toBeGreaterThan(0);
    expect((upcomingB.body.data as any[]).map((x) => x.rentalId)).not.toContain(bookingA.rentalId);
    // A's booking is untouched.
    const still = await get(`/api/v1/coreBooking/${bookingA.rentalId}`, tokA);
    expect(still.status, still.text).toBe(200);
    expect(still.body.status).toBe('confirmed');

    // Demo Marina has neither install.
    const demoInstalls = await q(
      'SELECT count(*) AS n FROM app_installations WHERE customer_id = ? AND app_id IN (?, ?)',
      SEED.demo.customerId,
      appA.appId,
      appB.appId,
    );
    expect(demoInstalls).toEqual([{ n: 0 }]);
    // The installs are the partners' own (each app lists one install, on its partner's sandbox).
    const where = await get(`/partners/apps/${appA.appId}/installations`, bearer(pa.token));
    expect(where.status, where.text).toBe(200);
    expect(where.body.data.map((i: any) => i.customerId)).toEqual([sa.customerId]);
  }, 180_000);

  it('the development sign-in never offers a private sandbox user, nor accepts one', async () => {
    const p = await registerPartner('Hidden Apps');
    const sbx = await sandboxOf(p);
    const app = await createApp(await registerPartner('Other Dev'));
    const { res, request, cookie } = await openAuthorize({ client_id: app.appId, redirect_uri: 'https://app.example.test/callback', state: 's' });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(sbx.adminUserId);
    expect(res.text).not.toContain('cus_sbx_');
    const login = await raw('POST', '/oauth/authorize/login', {
      headers: { cookie: cookie! },
      form: { request: request!, method: 'development', userId: sbx.adminUserId },
    });
    expect(login.status).toBe(400);
    expect(login.text).toContain('Unknown user');
  }, 120_000);

  it('a reset brings it back to its seeded state: a fresh operator in its place; its keys and installs stop', async () => {
    const p = await registerPartner('Reset Apps');
    const other = await registerPartner('Bystander Apps');
    const app = await createApp(p, APP);
    const { token } = await installAsDeveloper(p, app, SCOPES);
    const sbx = await sandboxOf(p);
    const bystander = await sandboxOf(other);
    const key = (await post('/partners/sandbox/keys', {}, bearer(p.token))).body.apiKey as string;
    expect((await get('/customer', { key })).status).toBe(200);
    const rows = async (customerId: string) => (await q<{ n: number }>('SELECT count(*) AS n FROM bookings WHERE customer_id = ?', customerId))[0].n;
    const seeded = await rows(sbx.customerId);
    const bystanderRows = await rows(bystander.customerId);
    // The sandbox drifts: an item renamed, bookings deleted.
    const pontoon = inventoryIds({ tag: tagOf(sbx.customerId) }).pontoon;
    await env.DB.prepare("UPDATE inventory_items SET name = 'Drifted' WHERE id = ?").bind(pontoon).run();
    await env.DB.prepare('DELETE FROM bookings WHERE customer_id = ? AND transaction_id LIKE ?')
      .bind(sbx.customerId, `txn_${tagOf(sbx.customerId)}_hist_%`)
      .run();
    expect(await rows(sbx.customerId)).toBeLessThan(seeded);

    const r = await post('/partners/sandbox/reset', {}, bearer(p.token));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready' });
    expect(r.body.customerId).toMatch(/^cus_sbx_/);
    expect(r.body.customerId).not.toBe(sbx.customerId);
    expect(Date.parse(r.body.seededAt)).toBeGreaterThan(Date.parse(sbx.seededAt));
    expect((await sandboxOf(p)).customerId).toBe(r.body.customerId);
    // The old operator is gone entirely; the new one holds exactly the seeded data.
    expect(await q('SELECT count(*) AS n FROM customers WHERE id = ?', sbx.customerId)).toEqual([{ n: 0 }]);
    expect(await rows(sbx.customerId)).toBe(0);
    expect(await rows(r.body.customerId)).toBe(seeded);
    const fresh = inventoryIds({ tag: tagOf(r.body.customerId) }).pontoon;
    expect(await q('SELECT name FROM inventory_items WHERE id = ?', fresh)).toEqual([{ name: 'Pontoon 22' }]);
    // What the partner held there stops at once: its API key, its app's install and tokens. The other partner's sandbox is untouched.
    expectError(await get('/customer', { key }), 401);
    expectError(await get('/api/v1/location', bearer(token.access_token)), 401);
    expect(await rows(bystander.customerId)).toBe(bystanderRows);
    expect((await sandboxOf(other)).customerId).toBe(bystander.customerId);
    // Installs work again, on the fresh operator.
    const again = await installAsDeveloper(p, app, SCOPES);
    expect(again.token.customer_id).toBe(r.body.customerId);
    expect((await get('/api/v1/location', bearer(again.token.access_token))).status).toBe(200);
  }, 180_000);
});
