import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { db, expectError, get } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { SEED, seedDemoOperator, seedSandbox, tagOf, type SeededOperator } from '../../../src/seed';
import { inventoryIds } from '../../../src/seed/inventory';
import { DEMO_OCTO_ITEMS } from '../../../src/seed/octo';
import { systemCtx } from '../../../src/lib/context';
import { fixedClock, TEST_CLOCK_OPERATOR_PREFIX } from '../../../src/lib/clock';
import { newId } from '../../../src/lib/ids';
import { localDate } from '../../../src/lib/time';
import { testClocks } from '../../../src/db/schema/sandbox';

const q = async <T = any>(sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .all<T>()
  ).results;

/** What an operator sees of its demo data through the API with its key. */
async function visible(key: string, customerId: string, miamiId: string) {
  const items = await get(`/inventory/customer?customer_id=${customerId}`, { key });
  expect(items.status, items.text).toBe(200);
  const count = await get('/schedule/schedules/count', { key });
  expect(count.status, count.text).toBe(200);
  const slips = await get(`/slips?locationId=${miamiId}&limit=500`, { key });
  expect(slips.status, slips.text).toBe(200);
  return { itemIds: items.body.data.map((i: any) => i.inventory_id) as string[], bookings: count.body.total as number, slips: slips.body.total as number };
}

/** The operator's upcoming bookings (from today in Miami on), through the API. */
async function upcoming(key: string, today: string) {
  const r = await get(`/schedule/schedules/paginated?limit=100&filters=${encodeURIComponent(JSON.stringify({ startDate: today }))}`, { key });
  expect(r.status, r.text).toBe(200);
  return r.body.data as any[];
}

describe('Sandbox seed', () => {
  it('is idempotent and makes the demo keys work', async () => {
    await seedSandbox(env);
    await seedSandbox(env);
    const demo = await get('/customer', { key: env.DEMO_API_KEY });
    expect(demo.body).toMatchObject({ customerId: 'cus_demo_marina', name: 'Demo Marina', plan: 'enterprise', isSandbox: true });
    const locs = await get('/location', { key: env.DEMO_API_KEY });
    expect(locs.body.data.map((l: any) => l.timezone).sort()).toEqual(['America/New_York', 'Europe/Berlin']);
    const other = await get('/customer', { key: env.OTHER_API_KEY });
    expect(other.body.customerId).toBe('cus_other_rentals');
    expectError(await get('/location?inventoryId=x', { key: env.OTHER_API_KEY }), 404);
    const users = await get('/userManagement', { key: env.DEMO_API_KEY });
    expect(users.body.data.flatMap((u: any) => u.userSkills)).toEqual(expect.arrayContaining(['captain', 'coach']));
  });

  it("seedDemoOperator gives each private operator its own copy of Demo Marina's data, invisible to the other", async () => {
    await seedSandbox(env);
    const ctx = systemCtx(env);
    const a = await seedDemoOperator(ctx, { customerId: newId('cus'), name: 'Alpha Marina', email: 'alpha@example.test' });
    const b = await seedDemoOperator(ctx, { customerId: newId('cus') });
    for (const op of [a, b]) {
      expect(Object.values(op.seeded).every(Boolean), JSON.stringify(op.seeded)).toBe(true);
      expect(op.locationIds).toHaveLength(2);
    }

    // Demo Marina's own seeded records (the shared test database also holds other tests' bookings), without the platform-wide OCTO items.
    const octo = new Set<string>(Object.values(DEMO_OCTO_ITEMS));
    const demo = await visible(env.DEMO_API_KEY!, SEED.demo.customerId, SEED.demo.miamiId);
    const demoItems = demo.itemIds.filter((id) => !octo.has(id) && id.startsWith('inv_demo_'));
    const [{ n: demoBookings }] = await q<{ n: number }>(
      "SELECT count(*) AS n FROM bookings WHERE customer_id = 'cus_demo_marina' AND transaction_id LIKE 'txn_demo_%'",
    );
    const [{ n: demoSlips }] = await q<{ n: number }>("SELECT count(*) AS n FROM slips WHERE location_id = 'loc_demo_miami'");

    const seen: Record<string, Awaited<ReturnType<typeof visible>>> = {};
    for (const op of [a, b]) {
      const me = await get('/customer', { key: op.adminKey });
      expect(me.status, me.text).toBe(200);
      expect(me.body).toMatchObject({ customerId: op.customerId, isSandbox: true, plan: 'enterprise' });
      seen[op.customerId] = await visible(op.adminKey, op.customerId, op.locationIds[0]);
      expect(seen[op.customerId].itemIds).toHaveLength(demoItems.length);
      expect(seen[op.customerId].itemIds.sort()).toEqual(Object.values(inventoryIds({ tag: tagOf(op.customerId) })).sort());
      expect(seen[op.customerId].bookings).toBe(demoBookings);
      expect(seen[op.customerId].slips).toBe(demoSlips);
    }
    expect(a.customerId === b.customerId).toBe(false);
    expect((await get('/customer', { key: a.adminKey })).body.name).toBe('Alpha Marina');

    // Neither sees the other's records (nor Demo Marina's), and Demo Marina sees neither.
    const pairs: [SeededOperator, SeededOperator][] = [
      [a, b],
      [b, a],
    ];
    for (const [me, other] of pairs) {
      const mine = seen[me.customerId].itemIds;
      expect(mine.filter((id) => seen[other.customerId].itemIds.includes(id))).toEqual([]);
      const theirs = inventoryIds({ tag: tagOf(other.customerId) });
      expectError(await get(`/inventory-pricing?inventory_id=${theirs.pontoon}`, { key: me.adminKey }), 404);
      expectError(await get(`/inventory-pricing?inventory_id=inv_demo_pontoon`, { key: me.adminKey }), 404);
      expectError(await get(`/inventory-pricing?inventory_id=${theirs.pontoon}`, { key: env.DEMO_API_KEY }), 404);
      expectError(await get(`/slips?locationId=${other.locationIds[0]}`, { key: me.adminKey }), 404);
      const today = localDate(ctx.clock.now(), 'America/New_York');
      const theirBookings = await upcoming(other.adminKey, today);
      expect(theirBookings.length).toBeGreaterThanOrEqual(7);
      for (const bk of theirBookings.slice(0, 3)) expectError(await get(`/coreBooking/${bk.rentalId}`, { key: me.adminKey }), 404);
      expect((await get(`/coreBooking/${theirBookings[0].rentalId}`, { key: other.adminKey })).status).toBe(200);
    }

    // Idempotent: a second call writes nothing but a new key.
    const again = await seedDemoOperator(ctx, { customerId: a.customerId });
    expect(Object.values(again.seeded).some(Boolean), JSON.stringify(again.seeded)).toBe(false);
    expect(again.adminKey).not.toBe(a.adminKey);
    expect((await get('/customer', { key: again.adminKey })).body.customerId).toBe(a.customerId);
    expect((await visible(again.adminKey, a.customerId, a.locationIds[0])).bookings).toBe(demoBookings);
  }, 180_000);

  // Each pinned instant seeds an operator of its own on a clock of its own: they run concurrently.
  // New York's instants only: the demo operator's locations are Miami (New York's zone) and Hamburg,
  // and the other zones' pinned instants fall between 04:55 and 06:05 in Miami on the plain day
  // (11:00 to 17:00 in Hamburg), on the same dates and sides of midnight as New York's 00:05 there.
  describe.concurrent.each(pinnedClocks().filter((c) => c.timezone === 'America/New_York'))('on a clock pinned at $label', ({ at }) => {
    it('seeds a test clock operator: readings and history in the past, bookings ahead, its key works', async () => {
      const now = Date.parse(at);
      const customerId = newId(TEST_CLOCK_OPERATOR_PREFIX.slice(0, -1));
      const clockId = newId('clk');
      // The test clock's operator, as the sandbox's test-clock path makes it: its requests run at the pinned instant.
      await db().insert(testClocks).values({ id: clockId, customerId, operatorId: customerId, name: 'seed', frozenTime: at });
      const op = await seedDemoOperator(systemCtx(env, { clock: fixedClock(now, clockId) }), { customerId });
      expect(Object.values(op.seeded).every(Boolean), JSON.stringify(op.seeded)).toBe(true);

      const me = await get('/customer', { key: op.adminKey });
      expect(me.status, me.text).toBe(200);
      expect(me.body).toMatchObject({ customerId, isSandbox: true });
      const today = localDate(now, 'America/New_York');
      const next = await upcoming(op.adminKey, today);
      const tag = tagOf(customerId);
      // `goodwill` and `credit`: the money actions' demo bookings (seed/booking-money.ts).
      const names = ['checked_in', 'pontoon', 'tour', 'installments', 'bundle', 'pay_later', 'cancelled', 'goodwill', 'credit'];
      expect([...new Set(next.map((b) => b.transactionId))].sort()).toEqual(names.map((n) => `txn_${tag}_${n}`).sort());
      expect(next.find((b) => b.transactionId === `txn_${tag}_checked_in`)).toMatchObject({ status: 'checked_in' });
      for (const b of next) expect(Date.parse(b.startTime), b.transactionId).toBeGreaterThan(now);

      // Everything the seed wrote is where it belongs relative to the clock.
      const [r] = await q('SELECT count(*) AS n, max(read_at) AS last FROM meter_readings WHERE customer_id = ?', customerId);
      expect(r.n).toBe(50);
      expect(Date.parse(r.last)).toBeLessThan(now);
      const [h] = await q('SELECT count(*) AS n, max("end") AS last FROM bookings WHERE customer_id = ? AND transaction_id LIKE \'%_hist_%\'', customerId);
      expect(h.n).toBeGreaterThan(100);
      expect(h.last).toBeLessThan(now);
      const [s] = await q("SELECT min(arrival_date) AS first FROM slip_reservations WHERE customer_id = ? AND status <> 'cancelled'", customerId);
      expect(s.first > today).toBe(true);
      const [c] = await q('SELECT contact_on AS contactOn, booking_info AS info FROM cart_recovery_items WHERE customer_id = ?', customerId);
      expect(Date.parse(c.contactOn)).toBeGreaterThan(now);
      expect(Date.parse(JSON.parse(c.info).startTime)).toBeGreaterThan(now);
      const [m] = await q("SELECT min(send_at) AS first FROM scheduled_communications WHERE customer_id = ? AND status = 'pending'", customerId);
      expect(Date.parse(m.first)).toBeGreaterThan(now);
    }, 120_000);
  });
});
