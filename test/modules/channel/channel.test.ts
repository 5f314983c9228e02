import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, post, patch, eventually, runCron } from '../../harness';
import { at, ch, connect, idem, partnerKey, platform, rentalItem, tourItem } from './factories';
import { bookings, ledgerEntries } from '../../../src/db/schema/bookings';
import { allocations } from '../../../src/db/schema/inventory';
import { channelIdempotency } from '../../../src/db/schema/channel';
import { systemCtx } from '../../../src/lib/context';
import { sha256Hex } from '../../../src/lib/crypto';
import { checkInBooking } from '../../../src/modules/bookings/lifecycle';

const TZ = 'America/New_York';

async function setup(opts: { assets?: number } = {}) {
  const op = await createOperator({ timezone: TZ });
  const item = await rentalItem(op, { assets: opts.assets ?? 1, hourly: 50, taxes: [{ name: 'Sales tax', rate: 7 }] });
  const pk = await partnerKey(op, { commissionRate: 15 });
  return { op, item, key: pk.key, connectionId: pk.connectionId };
}

const booking = (productId: string, extra: Record<string, unknown> = {}) => ({
  productId,
  startTime: at(TZ, 10, '10:00'),
  endTime: at(TZ, 10, '12:00'),
  quantity: 1,
  totalPrice: 107,
  reference: `REF-${crypto.randomUUID().slice(0, 6)}`,
  guest: { firstName: 'Gail', lastName: 'Guest', email: 'gail@example.test' },
  ...extra,
});

describe('Channel keys and identity', () => {
  it('refuses missing and invalid keys with the channel codes', async () => {
    expectError(await get('/channel/v1/me'), 401, 'missing_api_key');
    expectError(await get('/channel/v1/me', ch('rtc_live_nope')), 401, 'invalid_api_key');
    expectError(await get('/channel/v1/me', { key: 'brk_operator_key_is_not_a_channel_key_00' }), 401, 'missing_api_key');
  });

  it('answers /me for a single-operator key, in both header forms', async () => {
    const { op, key, connectionId } = await setup();
    const r = await get('/channel/v1/me', ch(key));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      mode: 'live',
      connection: expect.objectContaining({ connectionId, merchantId: op.customerId, commissionRate: 15, channelName: 'Concierge desk' }),
    });
    expect((await get('/channel/v1/me', { headers: { 'x-channel-key': key } })).status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('answers /me for a platform key with one merchant per connected operator', async () => {
    const p = await platform();
    expect((await get('/channel/v1/me', ch(p.keys.live))).body).toEqual({ mode: 'live', channel: expect.objectContaining({ merchants: [] }) });
    expect((await get('/channel/v1/products', ch(p.keys.live))).body.data).toEqual([]);
    const a = await createOperator();
    const b = await createOperator();
    await connect(a, p.channelId, 20);
    await connect(b, p.channelId, 12.5, { offerAllInventory: true });
    const me = await get('/channel/v1/me', ch(p.keys.live));
    expect(me.body.channel.merchants.map((m: any) => [m.merchantId, m.commissionRate]).sort()).toEqual(
      [
        [a.customerId, 20],
        [b.customerId, 12.5],
      ].sort(),
    );
  });

  it('rotation stops the old key at once (single-operator and platform)', async () => {
    const { op, key, connectionId } = await setup();
    const r = await post(`/channel-connections/${connectionId}/rotate-key`, { mode: 'live' }, { key: op.adminKey });
    expect(r.status).toBe(200);
    expectError(await get('/channel/v1/me', ch(key)), 401, 'invalid_api_key');
    expect((await get('/channel/v1/me', ch(r.body.key))).status).toBe(200);
    const p = await platform();
    const rot = await post('/channel/v1/portal/keys/rotate', { mode: 'live' }, ch(p.portalToken));
    expect(rot.status).toBe(200);
    expectError(await get('/channel/v1/me', ch(p.keys.live)), 401, 'invalid_api_key');
    expect((await get('/channel/v1/me', ch(rot.body.key))).status).toBe(200);
  });

  it('pausing answers connection_paused and drops listings from the catalog', async () => {
    const { op, item, key, connectionId } = await setup();
    expect((await patch(`/channel-connections/${connectionId}`, { status: 'paused' }, { key: op.adminKey })).status).toBe(200);
    expectError(await get('/channel/v1/products', ch(key)), 403, 'connection_paused');
    await patch(`/channel-connections/${connectionId}`, { status: 'active' }, { key: op.adminKey });
    expect((await get('/channel/v1/products', ch(key))).body.data.map((x: any) => x.productId)).toEqual([item.id]);

    const p = await platform();
    const a = await createOperator();
    const b = await createOperator();
    const ia = await rentalItem(a, { hourly: 40 });
    const ib = await rentalItem(b, { hourly: 60 });
    const ca = await connect(a, p.channelId);
    await connect(b, p.channelId);
    expect((await get('/channel/v1/products', ch(p.keys.live))).body.data.map((x: any) => x.productId).sort()).toEqual([ia.id, ib.id].sort());
    await patch(`/channel-connections/${ca.connectionId}`, { status: 'paused' }, { key: a.adminKey });
    expect((await get('/channel/v1/products', ch(p.keys.live))).body.data.map((x: any) => x.productId)).toEqual([ib.id]);
    expectError(await post('/channel/v1/bookings', booking(ia.id), idem(p.keys.live, 'k1')), 403, 'connection_paused');
    expect((await post('/channel/v1/portal/pause', {}, ch(p.portalToken))).status).toBe(200);
    expectError(await get('/channel/v1/me', ch(p.keys.live)), 403, 'connection_paused');
    await post('/channel/v1/portal/resume', {}, ch(p.portalToken));
    expect((await get('/channel/v1/me', ch(p.keys.live))).status).toBe(200);
  });

  it('removing a connection stops its key', async () => {
    const { op, key, connectionId } = await setup();
    expect((await del(`/channel-connections/${connectionId}`, undefined, { key: op.adminKey })).body.status).toBe('removed');
    expectError(await get('/channel/v1/me', ch(key)), 401, 'invalid_api_key');
  });

  it('limits each key holder to 300 requests per minute', async () => {
    // A new key: its first count opens its own one-minute window (durable-objects/rate-limiter.ts), so no wait.
    const { key } = await setup();
    // The first 280 requests of this minute are counted straight in the key's rate-limiter object
    // (bucketed by the key's SHA-256, what channelAuth does for every call); 300 HTTP calls do not
    // fit a minute on a loaded test machine. Requests 281 to 301 go through HTTP in parallel.
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`chan:${await sha256Hex(key)}`));
    for (let i = 0; i < 28; i++) await Promise.all(Array.from({ length: 10 }, () => limiter.hit(300, 60_000)));
    const all = await Promise.all(Array.from({ length: 21 }, () => get('/channel/v1/me', ch(key))));
    expect(all.filter((r) => r.status === 200)).toHaveLength(20);
    const limited = all.filter((r) => r.status === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0].body.error).toBe('rate_limited');
    expect(limited[0].headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('Channel catalog', () => {
  it('exposes every catalog field: seasons, startingPrice/priceUnit, narrowed taxes, tour pricing', async () => {
    const op = await createOperator({ timezone: TZ });
    const hourly = await rentalItem(op, {
      hourly: { basePrice: 55, minimumHours: 2 },
      taxes: [
        { name: 'State', rate: 6 },
        { name: 'County', rate: 1.5 },
        { name: 'Addon levy', rate: 3, appliesTo: 'addons' },
      ],
    });
    const daily = await rentalItem(op, { daily: 300 });
    const legacy = await rentalItem(op, { hourly: 45 });
    const unpriced = await rentalItem(op, {});
    const tour = await tourItem(op, {
      tourPricing: {
        priceTiers: [
          { name: 'Child', price: 20 },
          { name: 'Adult', price: 45 },
          { name: 'Senior', price: 30 },
        ],
        minParticipants: 2,
      },
    });
    const charter = await tourItem(op, {
      tourPricing: { priceTiers: [], isPrivate: true, privatePricing: { basePrice: 600, baseHeadcount: 6, extraParticipantPrice: 50 } },
    });
    const bare = await tourItem(op, { tourPricing: null });
    const { key } = await partnerKey(op);
    const list = (await get('/channel/v1/products', ch(key))).body.data as any[];
    const byId = (id: string) => list.find((p) => p.productId === id);
    expect(byId(hourly.id)).toMatchObject({
      type: 'rental',
      merchantId: op.customerId,
      startingPrice: 55,
      priceUnit: 'hr',
      totalTaxRate: 7.5,
      taxes: [
        { name: 'State', rate: 6 },
        { name: 'County', rate: 1.5 },
      ],
    });
    expect(byId(hourly.id).seasons[0].hourlyPrices.Monday).toEqual({ basePrice: 55, minimumHours: 2 });
    expect(byId(daily.id)).toMatchObject({ startingPrice: 300, priceUnit: 'day' });
    expect(byId(legacy.id).seasons[0].hourlyPrices.Friday).toEqual({ basePrice: 45 });
    expect(byId(unpriced.id)).toMatchObject({ startingPrice: null, priceUnit: null });
    expect(byId(tour.id)).toMatchObject({ type: 'tour', startingPrice: 45, priceUnit: 'person', seasons: [] });
    expect(byId(tour.id).tourPricing.minParticipants).toBe(2);
    expect(byId(charter.id)).toMatchObject({ startingPrice: 600, priceUnit: 'charter' });
    expect(byId(bare.id).startingPrice).toBeNull();
    expect(byId(bare.id).tourPricing).toBeUndefined();
  });

  it('respects the offer set', async () => {
    const op = await createOperator();
    const a = await rentalItem(op, { hourly: 10 });
    await rentalItem(op, { hourly: 20 });
    const r = await post(
      '/channel-connections/partner-keys',
      { name: 'Hotel desk', commissionRate: 10, offerAllInventory: false, offeredItemIds: [a.id] },
      { key: op.adminKey },
    );
    expect((await get('/channel/v1/products', ch(r.body.key))).body.data.map((p: any) => p.productId)).toEqual([a.id]);
    expectError(await post('/channel-connections/partner-keys', { name: 'x', commissionRate: 10, offeredItemIds: ['inv_foreign'] }, { key: op.adminKey }), 400);
  });
});

describe('Channel availability', () => {
  it('answers one line per product in order, with unknown_product and tour lines', async () => {
    const { op, item, key } = await setup({ assets: 2 });
    const tour = await tourItem(op, { capacity: 3 });
    const foreign = await rentalItem(await createOperator(), { hourly: 5 });
    const r = await post(
      '/channel/v1/availability',
      { productIds: [tour.id, 'inv_missing', item.id, foreign.id], startTime: at(TZ, 10, '10:00'), endTime: at(TZ, 10, '12:00') },
      ch(key),
    );
    expect(r.status).toBe(200);
    expect(r.body.data.map((l: any) => l.productId)).toEqual([tour.id, 'inv_missing', item.id, foreign.id]);
    expect(r.body.data[0]).toMatchObject({ available: true, unitsFree: null });
    expect(r.body.data[1]).toMatchObject({ available: false, error: 'unknown_product' });
    expect(r.body.data[2]).toMatchObject({ available: true, unitsFree: 2 });
    expect(r.body.data[3]).toMatchObject({ error: 'unknown_product' });
  });

  it('refuses more than 25 products and windows over 366 days', async () => {
    const { item, key } = await setup();
    expectError(
      await post(
        '/channel/v1/availability',
        { productIds: Array.from({ length: 26 }, () => item.id), startTime: at(TZ, 1, '10:00'), endTime: at(TZ, 1, '12:00') },
        ch(key),
      ),
      400,
    );
    expectError(await post('/channel/v1/availability', { productIds: [item.id], startTime: at(TZ, 1, '10:00'), endTime: at(TZ, 400, '12:00') }, ch(key)), 400);
    expectError(await post('/channel/v1/availability', { productIds: [item.id], startTime: '2026-07-04 10:00', endTime: at(TZ, 1, '12:00') }, ch(key)), 400);
  });

  it('"available" means a booking moments later succeeds, and it reflects sales', async () => {
    const { item, key } = await setup({ assets: 1 });
    const q = { productIds: [item.id], startTime: at(TZ, 10, '10:00'), endTime: at(TZ, 10, '12:00') };
    expect((await post('/channel/v1/availability', q, ch(key))).body.data[0].available).toBe(true);
    expect((await post('/channel/v1/bookings', booking(item.id), idem(key, 'a1'))).status).toBe(201);
    const after = (await post('/channel/v1/availability', q, ch(key))).body.data[0];
    expect(after).toMatchObject({ available: false, unitsFree: 0 });
  });
});

describe('Channel bookings: the idempotency table', () => {
  it('requires Idempotency-Key', async () => {
    const { item, key } = await setup();
    expectError(await post('/channel/v1/bookings', booking(item.id), ch(key)), 400, 'validation_failed');
  });

  it('201 creates a fully paid booking on the calendar with commission and the platform fee', async () => {
    const { op, item, key } = await setup();
    const r = await post('/channel/v1/bookings', booking(item.id, { reference: 'OTA-1' }), idem(key, 'create-1'));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      status: 'confirmed',
      mode: 'live',
      productId: item.id,
      merchantId: op.customerId,
      totalPrice: 107,
      reference: 'OTA-1',
      commissionRate: 15,
      idempotentReplay: false,
    });
    const row = await db().select().from(bookings).where(eq(bookings.transactionId, r.body.bookingId)).get();
    expect(row).toMatchObject({
      status: 'confirmed',
      source: 'channel',
      total: 10700,
      amountPaid: 10700,
      commissionRate: 15,
      channelReference: 'OTA-1',
      testMode: false,
    });
    const fee = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.rentalId, row!.id), eq(ledgerEntries.entryType, 'platform_fee')))
      .all();
    expect(fee.map((f) => [f.amount, f.affectsBalance])).toEqual([[500, false]]);
    const cal = await get(`/schedule/schedule?inventory_id=${item.id}`, { key: op.adminKey });
    expect(JSON.stringify(cal.body)).toContain(row!.id);
  });

  it('replays with 200, the same body and idempotentReplay: true', async () => {
    const { item, key } = await setup();
    const body = booking(item.id);
    const a = await post('/channel/v1/bookings', body, idem(key, 'replay-1'));
    const b = await post('/channel/v1/bookings', body, idem(key, 'replay-1'));
    expect(a.status).toBe(201);
    expect(b.status).toBe(200);
    expect(b.body).toEqual({ ...a.body, idempotentReplay: true });
  });

  it('422 idempotency_key_reuse for the same key with another product, window, quantity or price', async () => {
    const { op, item, key } = await setup({ assets: 3 });
    const other = await rentalItem(op, { hourly: 50 });
    const body = booking(item.id);
    expect((await post('/channel/v1/bookings', body, idem(key, 'reuse-1'))).status).toBe(201);
    for (const change of [{ productId: other.id }, { startTime: at(TZ, 11, '10:00'), endTime: at(TZ, 11, '12:00') }, { quantity: 2 }, { totalPrice: 108 }]) {
      expectError(await post('/channel/v1/bookings', { ...body, ...change }, idem(key, 'reuse-1')), 422, 'idempotency_key_reuse');
    }
  });

  it('409 booking_in_progress while the same key is in flight', async () => {
    const { item, key, connectionId } = await setup();
    const body = booking(item.id);
    // Simulate a request still running with this key: claim it exactly as the service does.
    const { claim, requestHash } = await import('../../../src/modules/channel/idempotency');
    const { toCents } = await import('../../../src/lib/money');
    const hash = await requestHash({
      productId: body.productId,
      start: Date.parse(body.startTime),
      end: Date.parse(body.endTime),
      quantity: 1,
      tickets: null,
      totalPrice: toCents(body.totalPrice),
    });
    await claim(db(), `${connectionId}:live`, 'inflight-1', hash);
    expectError(await post('/channel/v1/bookings', body, idem(key, 'inflight-1')), 409, 'booking_in_progress');
  });

  it('50 parallel requests with one key make exactly one booking; the rest replay or 409', async () => {
    const { item, key } = await setup();
    const body = booking(item.id);
    const all = await Promise.all(Array.from({ length: 50 }, () => post('/channel/v1/bookings', body, idem(key, 'storm-1'))));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 409)).toBe(true);
    for (const r of all.filter((x) => x.status === 409)) expect(r.body.error).toBe('booking_in_progress');
    const created = all.find((r) => r.status === 201)!.body.bookingId;
    for (const r of all.filter((x) => x.status === 200)) expect(r.body).toMatchObject({ bookingId: created, idempotentReplay: true });
    const n = await db()
      .select({ n: sql<number>`count(*)` })
      .from(bookings)
      .where(eq(bookings.itemId, item.id))
      .get();
    expect(n!.n).toBe(1);
  });

  it('two keys racing for the last unit: one 201, one 409 unavailable; the loser key works once capacity frees', async () => {
    const { item, key } = await setup({ assets: 1 });
    const [a, b] = await Promise.all([
      post('/channel/v1/bookings', booking(item.id, { reference: 'A' }), idem(key, 'race-a')),
      post('/channel/v1/bookings', booking(item.id, { reference: 'B' }), idem(key, 'race-b')),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    const loser = a.status === 409 ? { r: a, k: 'race-a', ref: 'A' } : { r: b, k: 'race-b', ref: 'B' };
    const winner = a.status === 201 ? a : b;
    expect(loser.r.body.error).toBe('unavailable');
    const freed = await db().select().from(channelIdempotency).where(eq(channelIdempotency.key, loser.k)).get();
    expect(freed).toBeUndefined();
    expect((await del(`/channel/v1/bookings/${winner.body.bookingId}`, undefined, ch(key))).status).toBe(200);
    const retry = await post('/channel/v1/bookings', booking(item.id, { reference: loser.ref }), idem(key, loser.k));
    expect(retry.status).toBe(201);
  });

  it('a channel sale racing an operator checkout for the last unit: exactly one wins', async () => {
    const { op, item, key } = await setup({ assets: 1 });
    const start = at(TZ, 12, '10:00');
    const end = at(TZ, 12, '12:00');
    const [chan, oper] = await Promise.all([
      post('/channel/v1/bookings', booking(item.id, { startTime: start, endTime: end }), idem(key, 'mixed-1')),
      post(
        '/coreBooking/book',
        {
          rentalDetails: { inventoryId: item.id, startTime: start, endTime: end },
          rentalPricing: {},
          customerInfo: { firstName: 'Walk', lastName: 'In', email: 'walkin@example.test' },
          paymentMethodId: 'pm_card_visa',
          extendedData: {},
        },
        { key: op.adminKey },
      ),
    ]);
    expect([chan.status, oper.status].sort()).toEqual([201, 409]);
    const active = await db()
      .select()
      .from(allocations)
      .where(and(eq(allocations.itemId, item.id), eq(allocations.active, true)))
      .all();
    expect(active).toHaveLength(1);
  });

  it('sells tours by seats', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 3 });
    const { key } = await partnerKey(op);
    const start = at(TZ, 9, '10:00');
    const r = await post('/channel/v1/bookings', { productId: tour.id, startTime: start, quantity: 2, totalPrice: 96.3, reference: 'T1' }, idem(key, 't1'));
    expect(r.status, r.text).toBe(201);
    expect(r.body.quantity).toBe(2);
    const av = await post('/channel/v1/availability', { productIds: [tour.id], startTime: start, endTime: at(TZ, 9, '12:00'), quantity: 2 }, ch(key));
    expect(av.body.data[0]).toMatchObject({ available: false, unitsFree: null });
    expectError(
      await post('/channel/v1/bookings', { productId: tour.id, startTime: start, quantity: 2, totalPrice: 96.3, reference: 'T2' }, idem(key, 't2')),
      409,
      'unavailable',
    );
    expect(
      (await post('/channel/v1/bookings', { productId: tour.id, startTime: start, quantity: 1, totalPrice: 48.15, reference: 'T3' }, idem(key, 't3'))).status,
    ).toBe(201);
  });

  it('404 unknown_product for a product not offered to the key', async () => {
    const { key } = await setup();
    const foreign = await rentalItem(await createOperator(), { hourly: 5 });
    expectError(await post('/channel/v1/bookings', booking(foreign.id), idem(key, 'u1')), 404, 'unknown_product');
  });
});

describe('Channel booking reads and cancellation', () => {
  it('shows a connection only its own bookings; finds by reference', async () => {
    const { op, item, key } = await setup({ assets: 2 });
    const other = await partnerKey(op, { name: 'Other desk' });
    const r = await post('/channel/v1/bookings', booking(item.id, { reference: 'FIND-ME' }), idem(key, 'g1'));
    expect((await get(`/channel/v1/bookings/${r.body.bookingId}`, ch(key))).body.bookingId).toBe(r.body.bookingId);
    expectError(await get(`/channel/v1/bookings/${r.body.bookingId}`, ch(other.key)), 404);
    expect((await get('/channel/v1/bookings?reference=FIND-ME', ch(key))).body.data.map((b: any) => b.bookingId)).toEqual([r.body.bookingId]);
    expect((await get('/channel/v1/bookings?reference=FIND-ME', ch(other.key))).body.data).toEqual([]);
    expectError(await del(`/channel/v1/bookings/${r.body.bookingId}`, undefined, ch(other.key)), 404);
  });

  it('cancels once, reports alreadyCancelled, releases inventory and reverses the fee', async () => {
    const { item, key } = await setup({ assets: 1 });
    const r = await post('/channel/v1/bookings', booking(item.id), idem(key, 'c1'));
    const c1 = await del(`/channel/v1/bookings/${r.body.bookingId}`, undefined, ch(key));
    expect(c1.status).toBe(200);
    expect(c1.body).toMatchObject({ status: 'cancelled', alreadyCancelled: false });
    const c2 = await del(`/channel/v1/bookings/${r.body.bookingId}`, undefined, ch(key));
    expect(c2.body).toMatchObject({ status: 'cancelled', alreadyCancelled: true });
    const fee = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.transactionId, r.body.bookingId), eq(ledgerEntries.entryType, 'platform_fee')))
      .all();
    expect(fee.reduce((s, f) => s + f.amount, 0)).toBe(0);
    expect((await post('/channel/v1/bookings', booking(item.id), idem(key, 'c2'))).status).toBe(201);
  });

  it('409 not_cancellable once the operator checked the guest in', async () => {
    const { op, item, key } = await setup();
    const r = await post('/channel/v1/bookings', booking(item.id), idem(key, 'ci1'));
    await checkInBooking(systemCtx(env, { customerId: op.customerId }), r.body.rentalId);
    expectError(await del(`/channel/v1/bookings/${r.body.bookingId}`, undefined, ch(key)), 409, 'not_cancellable');
  });
});

describe('Channel sandbox', () => {
  it("the demo reseller's test key sells Demo Marina without moving money; its reset wipes its own bookings only; live keys get not_sandbox", async () => {
    const { seedSandbox } = await import('../../../src/seed');
    await seedSandbox(env);
    const demo = { customerId: 'cus_demo_marina', locationId: 'loc_demo_miami' };
    const item = await rentalItem(demo, { hourly: 80, assets: 1 });
    const key = env.DEMO_CHANNEL_TEST_KEY!;
    const me = await get('/channel/v1/me', ch(key));
    expect(me.body).toMatchObject({ mode: 'test', connection: { merchantId: 'cus_demo_marina' } });
    const r = await post('/channel/v1/bookings', booking(item.id), idem(key, `sb-${crypto.randomUUID()}`));
    expect(r.status, r.text).toBe(201);
    expect(r.body.mode).toBe('test');
    const row = await db().select().from(bookings).where(eq(bookings.transactionId, r.body.bookingId)).get();
    expect(row!.testMode).toBe(true);
    const fee = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.rentalId, row!.id), eq(ledgerEntries.entryType, 'platform_fee')))
      .all();
    expect(fee).toEqual([]);
    const reset = await post('/channel/v1/sandbox/reset', {}, ch(key));
    expect(reset.status).toBe(200);
    expect(reset.body.deletedBookings).toBeGreaterThanOrEqual(1);
    expect(reset.body).toMatchObject({ merchantId: 'cus_demo_marina', reseeded: false });
    expect(await db().select().from(bookings).where(eq(bookings.transactionId, r.body.bookingId)).get()).toBeUndefined();
    expect((await post('/channel/v1/bookings', booking(item.id), idem(key, `sb-${crypto.randomUUID()}`))).status).toBe(201);

    const live = await setup();
    expectError(await post('/channel/v1/sandbox/reset', {}, ch(live.key)), 403, 'not_sandbox');
    // A registered reseller's test key sells its own private sandbox operator, not Demo Marina (test/modules/channel/sandbox.test.ts).
    const p = await platform();
    const mine = await get('/channel/v1/me', ch(p.keys.test));
    expect(mine.body).toMatchObject({ mode: 'test', channel: { merchants: [{ merchantId: expect.stringMatching(/^cus_sbx_/), sandbox: true }] } });
  }, 60_000);
});

describe('Channel settlement and isolation between operators', () => {
  it('operator and reseller read the same monthly figures; cancelled bookings are excluded', async () => {
    const p = await platform();
    const a = await createOperator({ timezone: TZ });
    const b = await createOperator({ timezone: TZ });
    const ia = await rentalItem(a, { hourly: 50, assets: 3, taxes: [{ name: 'Sales tax', rate: 7 }] });
    const ib = await rentalItem(b, { hourly: 50, assets: 3 });
    const ca = await connect(a, p.channelId, 20);
    const cb = await connect(b, p.channelId, 10);
    const k = p.keys.live;
    const x = await post('/channel/v1/bookings', booking(ia.id, { totalPrice: 107 }), idem(k, 's1'));
    await post('/channel/v1/bookings', booking(ia.id, { totalPrice: 214, quantity: 2 }), idem(k, 's2'));
    await post('/channel/v1/bookings', booking(ib.id, { totalPrice: 50 }), idem(k, 's3'));
    const gone = await post(
      '/channel/v1/bookings',
      booking(ia.id, { totalPrice: 999, startTime: at(TZ, 10, '14:00'), endTime: at(TZ, 10, '16:00') }),
      idem(k, 's4'),
    );
    await del(`/channel/v1/bookings/${gone.body.bookingId}`, undefined, ch(k));
    expect(x.body.merchantId).toBe(a.customerId);
    const month = at(TZ, 10, '10:00').slice(0, 7);
    const local = (await db().select({ d: bookings.localDate }).from(bookings).where(eq(bookings.transactionId, x.body.bookingId)).get())!.d.slice(0, 7);
    const reseller = await get(`/channel/v1/portal/settlement?month=${local}`, ch(p.portalToken));
    const opA = await get(`/channel-connections/${ca.connectionId}/settlement?month=${local}`, { key: a.adminKey });
    const rowA = reseller.body.operators.find((o: any) => o.merchantId === a.customerId);
    expect(rowA).toEqual(opA.body.operators[0]);
    expect(rowA).toMatchObject({ bookings: 2, grossSales: 321, commission: 60, amountOwed: 261 });
    const viaKey = await get(`/channel/v1/settlement?month=${local}`, ch(k));
    expect(viaKey.body.totals).toEqual(reseller.body.totals);
    expectError(await get(`/channel-connections/${ca.connectionId}/settlement?month=${local}`, { key: b.adminKey }), 404);
    const rowB = reseller.body.operators.find((o: any) => o.merchantId === b.customerId);
    expect(rowB).toMatchObject({ bookings: 1, grossSales: 50, commission: 5, amountOwed: 45, connectionId: cb.connectionId });
    expect(reseller.body.totals).toEqual({ bookings: 3, grossSales: 371, commission: 65, amountOwed: 306 });
    expect(local).toBe(month);
  });

  it("operators cannot read or change other operators' connections", async () => {
    const { connectionId } = await setup();
    const intruder = await createOperator();
    expectError(await get(`/channel-connections/${connectionId}`, { key: intruder.adminKey }), 404);
    expectError(await patch(`/channel-connections/${connectionId}`, { commissionRate: 1 }, { key: intruder.adminKey }), 404);
    expectError(await get('/channel-connections'), 401);
    const staff = await (await createOperator()).addUser({ role: 'staff' });
    expectError(await post('/channel-connections/partner-keys', { name: 'x', commissionRate: 10 }, { key: staff.key }), 403);
  });
});

describe('Channel events', () => {
  it('channel bookings fire the operator booking.* webhooks, and resellers can subscribe to direct sales', async () => {
    const { outbound } = await import('../../../src/adapters/http');
    const seen: { url: string; body: any }[] = [];
    const real = outbound.fetch;
    outbound.fetch = async (input: any, init?: RequestInit) => {
      const req = new Request(input, init);
      seen.push({ url: req.url, body: JSON.parse(await req.text()) });
      return new Response('ok');
    };
    try {
      const p = await platform();
      const op = await createOperator({ timezone: TZ });
      const item = await rentalItem(op, { hourly: 50, assets: 2 });
      await connect(op, p.channelId, 20);
      expect((await api('PUT', '/channel/v1/portal/webhook', { ...ch(p.portalToken), body: { url: 'https://ota.example/hooks' } })).status).toBe(200);
      await post('/webhooks', { url: 'https://operator.example/hooks', events: ['booking.created', 'booking.cancelled'] }, { key: op.adminKey });
      const r = await post('/channel/v1/bookings', booking(item.id), idem(p.keys.live, 'ev1'));
      await del(`/channel/v1/bookings/${r.body.bookingId}`, undefined, ch(p.keys.live));
      await post(
        '/coreBooking/book',
        {
          rentalDetails: { inventoryId: item.id, startTime: at(TZ, 20, '10:00'), endTime: at(TZ, 20, '12:00') },
          rentalPricing: {},
          customerInfo: { firstName: 'Di', lastName: 'Rect', email: 'direct@example.test' },
          paymentMethodId: 'pm_card_visa',
          extendedData: {},
        },
        { key: op.adminKey },
      );
      await eventually(
        async () => seen.filter((s) => s.url.includes('operator.example')).length >= 3 && seen.filter((s) => s.url.includes('ota.example')).length >= 3,
      );
      const opTypes = seen
        .filter((s) => s.url.includes('operator.example'))
        .map((s) => s.body.type)
        .sort();
      expect(opTypes).toEqual(['booking.cancelled', 'booking.created', 'booking.created']);
      const resellerSeen = seen.filter((s) => s.url.includes('ota.example'));
      expect(resellerSeen.map((s) => s.body.type).sort()).toEqual(['booking.cancelled', 'booking.created', 'booking.created']);
      for (const s of resellerSeen) {
        expect(JSON.stringify(s.body)).not.toContain('direct@example.test');
        expect(JSON.stringify(s.body)).not.toContain('gail@example.test');
      }
    } finally {
      outbound.fetch = real;
    }
  });
});

describe('Channel idempotency retention', () => {
  it('keeps keys at least 24 hours and the daily job purges them after 48', async () => {
    const { item, key } = await setup();
    const body = booking(item.id);
    const a = await post('/channel/v1/bookings', body, idem(key, 'keep-1'));
    await runCron('0 3 * * *', new Date(Date.now() + 25 * 3600_000));
    const replay = await post('/channel/v1/bookings', body, idem(key, 'keep-1'));
    expect(replay.status).toBe(200);
    expect(replay.body.bookingId).toBe(a.body.bookingId);
    await runCron('0 3 * * *', new Date(Date.now() + 49 * 3600_000));
    expect(await db().select().from(channelIdempotency).where(eq(channelIdempotency.key, 'keep-1')).get()).toBeUndefined();
  });
});

describe('Channel availability cache', () => {
  it('never answers from a cached check after any write to the product', async () => {
    const { op, item, key } = await setup({ assets: 1 });
    const q = { productIds: [item.id], startTime: at(TZ, 15, '10:00'), endTime: at(TZ, 15, '12:00') };
    const line = async () => (await post('/channel/v1/availability', q, ch(key))).body.data[0];
    expect(await line()).toMatchObject({ available: true, unitsFree: 1 });
    expect(await line()).toMatchObject({ available: true, unitsFree: 1 });
    const b = await post(
      '/coreBooking/book',
      {
        rentalDetails: { inventoryId: item.id, startTime: q.startTime, endTime: q.endTime },
        rentalPricing: {},
        customerInfo: { firstName: 'A', lastName: 'B', email: 'ab@example.test' },
        paymentMethodId: 'pm_card_visa',
        extendedData: {},
      },
      { key: op.adminKey },
    );
    expect(b.status).toBe(201);
    expect(await line()).toMatchObject({ available: false, unitsFree: 0 });
    await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey });
    expect(await line()).toMatchObject({ available: true, unitsFree: 1 });
  });
});
