import { Hono, type Context } from 'hono';
import { eq } from 'drizzle-orm';
import { ctxOf, type AppEnv } from '../lib/context';
import { nowIso, nowMs, stopwatch, todayIn } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { timingSafeEqual } from '../lib/crypto';
import { newId } from '../lib/ids';
import { addDays, datesOfMonth, localDate, wallTimeToUtc } from '../lib/time';
import { getDb, type Stmt } from '../db/client';
import { apiKeys, customers, users } from '../db/schema/accounts';
import { locations } from '../db/schema/locations';
import { inventoryAssets, inventoryItems, allocations } from '../db/schema/inventory';
import { bookings } from '../db/schema/bookings';
import { InventoryData } from '../modules/inventory/types';
import { generateKeySecret, keyRow } from '../modules/api-keys/service';
import { channelConnections, channelKeys as channelKeys_ } from '../db/schema/channel';
import { keyRow as channelKeyRow, newChannelKey } from '../modules/channel/service';
import { partnerAccounts, partnerApps } from '../db/schema/partners';
import { appInstallations, oauthGrants } from '../db/schema/oauth';

/**
 * Benchmark support for `npm run bench` (test/bench/run.mjs), not part of the API: a bulk seed of
 * a throw-away operator and the two baselines every figure is compared with (one D1 read, one raw
 * D1 insert). Mounted only by the development entry point (src/dev.ts) and guarded by the seed
 * token (`x-seed-token` must equal DEV_SEED_TOKEN); the production bundle does not contain it.
 */
export const benchRoutes = new Hono<AppEnv>();

function guard(c: Context<AppEnv>) {
  if (!c.env.DEV_SEED_TOKEN || !timingSafeEqual(c.req.header('x-seed-token') ?? '', c.env.DEV_SEED_TOKEN))
    throw new ApiError('unauthenticated', 'Invalid seed token');
}

const TZ = 'America/New_York';
const everyDay = <T>(v: T) => Object.fromEntries(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, v]));

async function runBatches(db: ReturnType<typeof getDb>, stmts: Stmt[], size = 400) {
  for (let i = 0; i < stmts.length; i += size) await db.batch(stmts.slice(i, i + size) as [Stmt, ...Stmt[]]);
}

/**
 * POST /__dev/bench/seed {keys?, denseBookings?}: a fresh operator with `keys` API keys (the
 * benchmark spreads its calls over them so the per-key rate limit never bites), items `hotA`,
 * `hotB` (10 assets each, empty, for booking runs), `raw` (target of the raw-insert baseline) and
 * `dense` (10 assets with `denseBookings` confirmed 2-hour bookings, five a day per asset from the
 * first day of next month, so that month is fully booked).
 */
benchRoutes.post('/__dev/bench/seed', async (c) => {
  guard(c);
  const body = (await c.req.json().catch(() => ({}))) as { keys?: number; denseBookings?: number; channelKeys?: number; channelProducts?: number };
  const nKeys = Math.min(Math.max(Number(body.keys ?? 100), 1), 500);
  const nDense = Math.min(Math.max(Number(body.denseBookings ?? 5000), 0), 20_000);
  const db = getDb(c.env.DB);
  const customerId = newId('cus');
  const userId = newId('usr');
  const locationId = newId('loc');
  const stmts: Stmt[] = [
    db.insert(customers).values({ id: customerId, name: 'Bench Marina', email: `bench-${customerId.slice(-6).toLowerCase()}@bench.test`, plan: 'enterprise' }),
    db.insert(users).values({
      id: userId,
      customerId,
      email: `bench-admin-${userId.slice(-8).toLowerCase()}@bench.test`,
      name: 'Bench Admin',
      role: 'admin',
      permissions: ['admin'],
    }),
    db.insert(locations).values({ id: locationId, customerId, name: 'Bench dock', address: '1 Bench Way', phoneNumber: '+15555550100', timezone: TZ }),
  ];
  const keys: string[] = [];
  for (let i = 0; i < nKeys; i++) {
    const secret = generateKeySecret();
    keys.push(secret);
    stmts.push(db.insert(apiKeys).values(await keyRow({ customerId, userId, name: `bench ${i}`, secret })));
  }
  const items: Record<string, { id: string; assetIds: string[] }> = {};
  for (const name of ['hotA', 'hotB', 'raw', 'dense']) {
    const id = newId('inv');
    const assetIds = Array.from({ length: 10 }, () => newId('ast'));
    const data = InventoryData.parse({
      name: `Bench ${name}`,
      type: 'rental',
      locationId,
      capacity: 6,
      slotIntervalMinutes: 60,
      maxAdvanceDays: 730,
      seasons: [{ name: 'Default', dailyPrices: everyDay(400), hourlyPrices: everyDay({ basePrice: 100 }) }],
      assets: assetIds.map((a, i) => ({ assetId: a, name: `Unit ${i + 1}` })),
    });
    stmts.push(db.insert(inventoryItems).values({ id, customerId, locationId, name: data.name, kind: 'rental', data: data as Record<string, unknown> }));
    assetIds.forEach((a, i) => stmts.push(db.insert(inventoryAssets).values({ id: a, customerId, itemId: id, name: `Unit ${i + 1}`, displayOrder: i })));
    items[name] = { id, assetIds };
  }
  await runBatches(db, stmts);

  // The dense item: five 2-hour bookings a day per asset (08:00 to 18:00 local) from next month on.
  const today = todayIn(ctxOf(c), TZ);
  const nextMonth = addDays(`${today.slice(0, 7)}-01`, 32).slice(0, 7);
  const firstDay = `${nextMonth}-01`;
  const dense = items.dense;
  const rows: Stmt[] = [];
  let made = 0;
  for (let day = 0; made < nDense; day++) {
    const date = addDays(firstDay, day);
    for (const time of ['08:00', '10:00', '12:00', '14:00', '16:00']) {
      const start = wallTimeToUtc(date, time, TZ);
      const end = start + 2 * 3_600_000;
      for (const assetId of dense.assetIds) {
        if (made >= nDense) break;
        const id = newId('bk');
        rows.push(
          db.insert(bookings).values({
            id,
            customerId,
            transactionId: newId('txn'),
            locationId,
            itemId: dense.id,
            status: 'confirmed',
            start,
            end,
            localDate: date,
            assetIds: [assetId],
            subtotal: 20000,
            total: 20000,
            customerInfo: { firstName: 'Bench', lastName: `Renter ${made}`, email: `r${made}@bench.test` },
          }),
          db.insert(allocations).values({
            id: newId('alc'),
            customerId,
            itemId: dense.id,
            assetId,
            kind: 'booking',
            sourceId: id,
            start,
            end,
            blockedStart: start,
            blockedEnd: end,
          }),
        );
        made++;
      }
    }
  }
  await runBatches(db, rows);

  // Reseller channel: `channelKeys` single-operator connections (each its own 300/min bucket) and
  // `channelProducts - 1` small items (3 assets, a few bookings each) beside the dense item.
  const nChannelKeys = Math.min(Math.max(Number(body.channelKeys ?? 0), 0), 200);
  const channelKeys: string[] = [];
  const channelProducts: string[] = [];
  if (nChannelKeys) {
    const cstmts: Stmt[] = [];
    for (let i = 0; i < nChannelKeys; i++) {
      const connectionId = newId('con');
      const secret = newChannelKey('live');
      channelKeys.push(secret);
      cstmts.push(
        db
          .insert(channelConnections)
          .values({ id: connectionId, customerId, kind: 'single', name: `Bench reseller ${i}`, commissionRate: 15, offerAllInventory: true }),
      );
      cstmts.push(db.insert(channelKeys_).values(await channelKeyRow(secret, { connectionId })));
    }
    channelProducts.push(dense.id);
    const nProducts = Math.min(Math.max(Number(body.channelProducts ?? 25), 1), 25);
    for (let p = 1; p < nProducts; p++) {
      const id = newId('inv');
      const assetIds = Array.from({ length: 3 }, () => newId('ast'));
      const data = InventoryData.parse({
        name: `Bench channel ${p}`,
        type: 'rental',
        locationId,
        capacity: 4,
        slotIntervalMinutes: 60,
        maxAdvanceDays: 730,
        seasons: [{ name: 'Default', hourlyPrices: everyDay({ basePrice: 80 }) }],
        assets: assetIds.map((a, i) => ({ assetId: a, name: `Unit ${i + 1}` })),
      });
      cstmts.push(db.insert(inventoryItems).values({ id, customerId, locationId, name: data.name, kind: 'rental', data: data as Record<string, unknown> }));
      assetIds.forEach((a, i) => cstmts.push(db.insert(inventoryAssets).values({ id: a, customerId, itemId: id, name: `Unit ${i + 1}`, displayOrder: i })));
      for (let d = 0; d < 20; d++) {
        const start = wallTimeToUtc(addDays(firstDay, d), '10:00', TZ);
        const bid = newId('bk');
        cstmts.push(
          db.insert(bookings).values({
            id: bid,
            customerId,
            transactionId: newId('txn'),
            locationId,
            itemId: id,
            status: 'confirmed',
            start,
            end: start + 7_200_000,
            localDate: addDays(firstDay, d),
            assetIds: [assetIds[d % 3]],
            customerInfo: { firstName: 'Bench', lastName: 'Chan', email: `c${p}-${d}@bench.test` },
          }),
        );
        cstmts.push(
          db.insert(allocations).values({
            id: newId('alc'),
            customerId,
            itemId: id,
            assetId: assetIds[d % 3],
            kind: 'booking',
            sourceId: bid,
            start,
            end: start + 7_200_000,
            blockedStart: start,
            blockedEnd: start + 7_200_000,
          }),
        );
      }
      channelProducts.push(id);
    }
    await runBatches(db, cstmts);
  }
  const gateway = await installBenchApp(c, db, { customerId, userId });
  return c.json({
    gateway,
    channel: {
      keys: channelKeys,
      products: channelProducts,
      windowStart: wallTimeToUtc(firstDay, '00:00', TZ),
      windowEnd: wallTimeToUtc(addDays(firstDay, 31), '00:00', TZ),
    },
    customerId,
    locationId,
    timezone: TZ,
    keys,
    items: Object.fromEntries(Object.entries(items).map(([k, v]) => [k, v.id])),
    dense: { inventoryId: dense.id, bookings: made, month: nextMonth, days: datesOfMonth(nextMonth).length },
  });
});

/**
 * An approved app installed on the bench operator, with one live access token (`bat_...`) of the
 * bench admin for `read:bookings`: the benchmark probes a read through the partner gateway.
 */
async function installBenchApp(c: Context<AppEnv>, db: ReturnType<typeof getDb>, op: { customerId: string; userId: string }) {
  const partnerId = newId('ptn');
  const appId = newId('app');
  const installationId = newId('ins');
  const grantId = newId('grt');
  const scopes = ['read:bookings'];
  const manifest = {
    name: 'Bench App',
    scopes,
    urls: { embed: null, redirect: ['https://bench.test/callback'] },
    embedLocations: [],
    webhooks: { url: null, events: [] },
  };
  const now = nowIso(ctxOf(c));
  await db.batch([
    db.insert(partnerAccounts).values({ id: partnerId, email: `bench-${partnerId.slice(-8).toLowerCase()}@partner.test`, name: 'Bench Partner' }),
    db.insert(partnerApps).values({
      id: appId,
      partnerId,
      name: manifest.name,
      clientType: 'public',
      scopes,
      redirectUris: manifest.urls.redirect,
      embedLocations: [],
      webhookEvents: [],
      webhookSecret: newId('whs'),
      status: 'approved',
      reviewedAt: now,
      live: manifest,
    }),
    db.insert(appInstallations).values({ id: installationId, customerId: op.customerId, appId, scopes, installedBy: op.userId, installedAt: now }),
    db.insert(oauthGrants).values({ id: grantId, customerId: op.customerId, installationId, appId, userId: op.userId, kind: 'token_exchange', scopes }),
  ]);
  const grant = c.env.OAUTH_GRANT.get(c.env.OAUTH_GRANT.idFromName(grantId));
  await grant.init({ grantId, kind: 'token_exchange', installationId, appId, customerId: op.customerId, userId: op.userId, scopes, sandbox: false });
  const issued = await grant.issueAccess({ clientId: appId, scopes });
  if (!issued.ok) throw new Error(`bench app: ${issued.reason}`);
  return { appId, installationId, accessToken: issued.accessToken };
}

/** Baseline: one D1 read by primary key. */
benchRoutes.get('/__dev/bench/d1-read', async (c) => {
  guard(c);
  const id = c.req.query('id') ?? '';
  const row = await getDb(c.env.DB).select({ id: inventoryItems.id, name: inventoryItems.name }).from(inventoryItems).where(eq(inventoryItems.id, id)).get();
  return c.json({ found: Boolean(row) });
});

/** Baseline: one raw D1 insert of a booking row (no lock, no checks, no audit). */
benchRoutes.post('/__dev/bench/d1-insert', async (c) => {
  guard(c);
  const q = { customerId: c.req.query('customerId') ?? '', itemId: c.req.query('itemId') ?? '', locationId: c.req.query('locationId') ?? '' };
  const start = nowMs(ctxOf(c)) + 86_400_000;
  const id = newId('bk');
  await getDb(c.env.DB)
    .insert(bookings)
    .values({
      id,
      customerId: q.customerId,
      transactionId: newId('txn'),
      locationId: q.locationId,
      itemId: q.itemId,
      status: 'confirmed',
      start,
      end: start + 3_600_000,
      localDate: localDate(start, TZ),
      assetIds: [],
      customerInfo: { firstName: 'Raw', lastName: 'Insert', email: 'raw@bench.test' },
    })
    .run();
  return c.json({ id }, 201);
});

export default benchRoutes;

/**
 * POST /__dev/bench/analytics-seed {customerId, locationId, bookings?, posSales?}: two years of
 * history for the analytics figures, written with a few set-based statements: 20 items, `bookings`
 * rentals (default 20,000; a tenth cancelled, most completed) with four ledger entries each
 * (revenue, discount, tax, payment) and `posSales` point-of-sale sales (default 10,000) with two
 * entries each: 100,000 ledger entries by default, which the analytics triggers also roll up; and
 * `widgetEvents` booking-widget funnel events (default 50,000: visits of four steps, a third of them
 * booked, from three host pages, some with an affiliate code) for the widget metrics.
 */
benchRoutes.post('/__dev/bench/analytics-seed', async (c) => {
  guard(c);
  const body = (await c.req.json().catch(() => ({}))) as {
    customerId?: string;
    locationId?: string;
    bookings?: number;
    posSales?: number;
    widgetEvents?: number;
  };
  const customerId = String(body.customerId ?? '');
  const locationId = String(body.locationId ?? '');
  if (!/^[\w-]+$/.test(customerId) || !/^[\w-]+$/.test(locationId)) throw new ApiError('bad_request', 'customerId and locationId are required');
  const nBookings = Math.min(Math.max(Number(body.bookings ?? 20_000), 0), 100_000);
  const nPos = Math.min(Math.max(Number(body.posSales ?? 10_000), 0), 100_000);
  const nEvents = Math.min(Math.max(Number(body.widgetEvents ?? 50_000), 0), 200_000);
  const db = getDb(c.env.DB);
  const DAYS = 730;
  const today = todayIn(ctxOf(c), TZ);
  const fromMs = wallTimeToUtc(addDays(today, -DAYS), '00:00', TZ);
  const items: Stmt[] = [];
  for (let i = 0; i < 20; i++) {
    const data = InventoryData.parse({
      name: `History boat ${i + 1}`,
      type: 'rental',
      locationId,
      capacity: 6,
      seasons: [{ name: 'Default', hourlyPrices: everyDay({ basePrice: 100 }) }],
      assets: [{ assetId: `ast_hist_${i}`, name: `Hull ${i + 1}` }],
    });
    items.push(
      db.insert(inventoryItems).values({ id: `inv_hist_${i}`, customerId, locationId, name: data.name, kind: 'rental', data: data as Record<string, unknown> }),
    );
    items.push(db.insert(inventoryAssets).values({ id: `ast_hist_${i}`, customerId, itemId: `inv_hist_${i}`, name: `Hull ${i + 1}`, displayOrder: 0 }));
  }
  await runBatches(db, items);
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const startOf = (i: string) => `(${fromMs} + (${i} % ${DAYS}) * 86400000 + (8 + (${i} / ${DAYS}) % 10) * 3600000)`;
  const iso = (ms: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`;
  const seq = (n: number) => `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < ${n})`;
  const elapsed = stopwatch();
  await c.env.DB.prepare(
    `${seq(nBookings)}
     INSERT INTO bookings (id, customer_id, transaction_id, location_id, item_id, status, source, start, "end", local_date, quantity, asset_ids, currency,
       subtotal, discount_total, tax_total, total, amount_paid, test_mode, version, created_at, updated_at)
     SELECT 'bk_hist_' || i, ${q(customerId)}, 'txn_hist_' || i, ${q(locationId)}, 'inv_hist_' || (i % 20),
       CASE WHEN i % 10 = 0 THEN 'cancelled' WHEN i % 10 <= 7 THEN 'completed' ELSE 'confirmed' END, 'operator',
       ${startOf('i')}, ${startOf('i')} + 7200000, date((${startOf('i')} - 18000000) / 1000, 'unixepoch'), 1 + i % 4, json_array('ast_hist_' || (i % 20)), 'usd',
       20000, 2000, 1260, 19260, 19260, 0, 1, ${iso(startOf('i'))}, ${iso(startOf('i'))}
     FROM seq`,
  ).run();
  await c.env.DB.prepare(
    `${seq(nBookings * 4)}
     INSERT INTO ledger_entries (id, customer_id, location_id, transaction_id, rental_id, item_id, asset_id, entry_type, amount, currency, affects_balance,
       occurred_at, description, source, created_at)
     SELECT 'led_hist_' || i, ${q(customerId)}, ${q(locationId)}, 'txn_hist_' || (i / 4), 'bk_hist_' || (i / 4), 'inv_hist_' || ((i / 4) % 20),
       'ast_hist_' || ((i / 4) % 20),
       CASE i % 4 WHEN 0 THEN 'revenue' WHEN 1 THEN 'discount' WHEN 2 THEN 'tax' ELSE 'payment' END,
       CASE i % 4 WHEN 0 THEN 20000 + ((i / 4) % 7) * 1000 WHEN 1 THEN -2000 WHEN 2 THEN 1260 ELSE -19260 END, 'usd', 1,
       ${iso(startOf('(i / 4)'))}, 'Bench history', 'operator', ${iso(startOf('(i / 4)'))}
     FROM seq`,
  ).run();
  await c.env.DB.prepare(
    `${seq(nPos * 2)}
     INSERT INTO ledger_entries (id, customer_id, location_id, transaction_id, entry_type, amount, currency, affects_balance, occurred_at, description,
       source, metadata, created_at)
     SELECT 'led_hpos_' || i, ${q(customerId)}, ${q(locationId)}, 'ptx_hist_' || (i / 2), CASE i % 2 WHEN 0 THEN 'revenue' ELSE 'tax' END,
       CASE i % 2 WHEN 0 THEN 500 + ((i / 2) % 13) * 100 ELSE 40 END, 'usd', 1,
       ${iso(`${fromMs} + (i / 2) * ${Math.floor((DAYS * 86_400_000) / Math.max(nPos, 1))}`)}, 'Bench POS', 'pos',
       json_object('posItemId', 'pitm_hist_' || ((i / 2) % 8), 'quantity', 1), ${iso(`${fromMs} + (i / 2) * 1000`)}
     FROM seq`,
  ).run();
  const visitGap = Math.floor((DAYS * 86_400_000) / Math.max(Math.ceil(nEvents / 4), 1));
  await c.env.DB.prepare(
    `${seq(nEvents)}
     INSERT INTO widget_events (id, customer_id, location_id, inventory_id, session_id, event, ref, source, created_at)
     SELECT 'wev_hist_' || i, ${q(customerId)}, ${q(locationId)}, 'inv_hist_' || ((i / 4) % 20), 'visit_hist_' || (i / 4),
       CASE i % 4 WHEN 0 THEN 'view' WHEN 1 THEN 'date_chosen' WHEN 2 THEN 'slot_chosen' ELSE CASE WHEN (i / 4) % 3 = 0 THEN 'booked' ELSE 'checkout' END END,
       CASE WHEN (i / 4) % 7 = 0 THEN 'PARTNER' || ((i / 4) % 3) END,
       CASE (i / 4) % 3 WHEN 0 THEN 'www.bench-marina.test' WHEN 1 THEN 'blog.bench.test' ELSE NULL END,
       ${iso(`${fromMs} + (i / 4) * ${visitGap} + (i % 4) * 60000`)}
     FROM seq`,
  ).run();
  return c.json({
    bookings: nBookings,
    ledgerEntries: nBookings * 4 + nPos * 2,
    widgetEvents: nEvents,
    from: addDays(today, -DAYS),
    to: addDays(today, -1),
    ms: elapsed(),
  });
});
