#!/usr/bin/env node
/**
 * Berth benchmarks (`npm run bench`). Starts `wrangler dev` on a free port with a fresh local
 * state directory, applies the migrations, seeds a throw-away operator through the dev-only bench
 * routes (src/dev/bench.ts), runs autocannon scenarios and prints every figure beside a baseline
 * measured in the same run (a no-op route, one D1 read, one raw D1 insert), because absolute
 * numbers on a shared machine are noise; ratios are what the goals are about. Next to each figure
 * it prints the operation's round trips: the sequential calls to D1 and Durable Objects on the
 * request's critical path, counted by the Worker in development (`X-Round-Trips`, after
 * authentication `X-Round-Trips-Operation`; src/lib/round-trips.ts). They are what production
 * latency is made of (each can cost tens of milliseconds there), and they are deterministic.
 *
 * Environment: BENCH_DURATION (seconds per scenario, default 10), BENCH_CONNECTIONS (default 16),
 * BENCH_DENSE (bookings of the dense item, default 5000), BENCH_KEYS (API keys the booking calls
 * rotate over, default 16), BENCH_KEEP=1 keeps the state directory and wrangler-dev.log.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DENSE = Number(process.env.BENCH_DENSE ?? 5000);
// Enough keys that the per-key limit (500/min on the enterprise plan) never answers 429 below ~130 bookings/s.
const KEYS = Number(process.env.BENCH_KEYS ?? 16);
const TOKEN = `bench-${randomBytes(12).toString('hex')}`;
// Analytics history: rentals (four ledger entries each) and point-of-sale sales (two each): 100,000 entries by default.
const ANALYTICS_BOOKINGS = Number(process.env.BENCH_ANALYTICS_BOOKINGS ?? 20_000);
const ANALYTICS_POS = Number(process.env.BENCH_ANALYTICS_POS ?? 10_000);
// Booking-widget funnel events of the same location (four per visit), for the widget metrics.
const ANALYTICS_WIDGET_EVENTS = Number(process.env.BENCH_ANALYTICS_WIDGET_EVENTS ?? 50_000);
// BENCH_ONLY=analytics runs only the analytics figures (and their baseline); BENCH_ONLY=booking only the booking-create
// figures (throughput at BENCH_CONNECTIONS clients and latency at 1 client, with their D1 baselines), without the history.
const ONLY = process.env.BENCH_ONLY ?? '';
// BENCH_PROFILE=file.cpuprofile: with BENCH_ONLY=booking, a CPU profile of the Worker (over its devtools inspector) during the
// first booking-throughput run, written to the file (open it in Chrome DevTools) and summed by function on stderr.
const PROFILE = process.env.BENCH_PROFILE ?? '';
// BENCH_ONLY=cpu: the machine CPU a booking and a raw D1 insert each cost (the wrangler dev processes' CPU counters over a fixed
// number of requests at 4 clients, less their idle rate), by process, in BENCH_CPU_ROUNDS alternating rounds of
// BENCH_CPU_REQUESTS requests: the cost ratio behind the throughput goal, with less of the load's noise.
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 300);
const CPU_ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 4);
// Clients of the CPU rounds (BENCH_CPU_CONNECTIONS): 4 by default; at 16 the lock's group commit shares more D1 calls.
const CPU_CONNS = Number(process.env.BENCH_CPU_CONNECTIONS ?? 4);

const log = (...a) => console.error('[bench]', ...a);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function run(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out.slice(-2000)}`))));
  });
}

async function waitFor(url, ms = 90_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`wrangler dev did not answer ${url} within ${ms / 1000}s`);
}

/** One autocannon run; `next()` builds each request (path, method, headers, body). */
function cannon(base, { connections = CONNS, duration = DURATION, next, title }) {
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url: base,
        connections,
        duration,
        timeout: 30,
        requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    inst.on('error', reject);
    void title;
  });
}

const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const summary = (r) => ({
  rps: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  ok: r['2xx'],
  non2xx: r.non2xx,
  errors: r.errors + r.timeouts,
  total: r.requests.total,
});

async function main() {
  const port = Number(process.env.BENCH_PORT) || (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const state = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  log(`state ${state}, port ${port}, ${DURATION}s per scenario, ${CONNS} connections`);
  await run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
  const devLog = openSync(join(state, 'wrangler-dev.log'), 'w');
  const dev = spawn(
    'npx',
    [
      'wrangler',
      'dev',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      state,
      '--var',
      `DEV_SEED_TOKEN:${TOKEN}`,
      '--var',
      'ENVIRONMENT:development',
      ...(PROFILE ? ['--inspector-port', String(port + 1)] : []),
    ],
    {
      cwd: root,
      stdio: ['ignore', devLog, devLog],
      detached: true,
    },
  );
  const stop = () => {
    try {
      process.kill(-dev.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', stop);
  process.on('SIGINT', () => process.exit(130));
  try {
    await waitFor(`${base}/health`);
    log('seeding');
    const seedRes = await fetch(`${base}/__dev/bench/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-seed-token': TOKEN },
      body: JSON.stringify({ keys: KEYS, denseBookings: DENSE, channelKeys: 60, channelProducts: 25 }),
    });
    if (!seedRes.ok) throw new Error(`seed failed: ${seedRes.status} ${await seedRes.text()}`);
    const seed = await seedRes.json();
    log(`seeded ${seed.dense.bookings} bookings on the dense item for ${seed.dense.month}`);
    if (ONLY === 'booking') {
      printBooking(await bookingScenarios(base, seed));
      return;
    }
    if (ONLY === 'cpu') {
      printCpu(await cpuScenarios(base, seed, dev.pid));
      return;
    }
    const hist = await fetch(`${base}/__dev/bench/analytics-seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-seed-token': TOKEN },
      body: JSON.stringify({
        customerId: seed.customerId,
        locationId: seed.locationId,
        bookings: ANALYTICS_BOOKINGS,
        posSales: ANALYTICS_POS,
        widgetEvents: ANALYTICS_WIDGET_EVENTS,
      }),
    });
    if (!hist.ok) throw new Error(`analytics seed failed: ${hist.status} ${await hist.text()}`);
    seed.history = await hist.json();
    log(
      `seeded ${seed.history.ledgerEntries} ledger entries and ${seed.history.widgetEvents} widget events of history (${seed.history.from} to ${seed.history.to}) in ${seed.history.ms} ms`,
    );
    const results = await scenarios(base, seed);
    print(results, seed);
  } finally {
    stop();
    if (!process.env.BENCH_KEEP) rmSync(state, { recursive: true, force: true });
  }
}

/** Day-by-day free slots of an item: n → a distinct (day, hour) slot; 10 assets take the same slot. */
function slotMaker(tz, firstDayOffset) {
  let n = 0;
  const fmtParts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
  const today = fmtParts.formatToParts(new Date()).reduce((o, p) => ((o[p.type] = p.value), o), {});
  const baseDay = Date.UTC(Number(today.year), Number(today.month) - 1, Number(today.day));
  return () => {
    const i = n++;
    const perDay = 10 * 10; // 10 one-hour slots (08:00-18:00) x 10 assets
    const day = firstDayOffset + Math.floor(i / perDay);
    const hour = 8 + Math.floor((i % perDay) / 10);
    const d = new Date(baseDay + day * 86_400_000).toISOString().slice(0, 10);
    return { date: d, time: `${String(hour).padStart(2, '0')}:00`, seq: i };
  };
}

/** Offset of `tz` on a date (hours, e.g. -4), to write local wall times as ISO with offset. */
function isoLocal(date, time, tz) {
  const guess = new Date(`${date}T${time}:00Z`);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
    .formatToParts(guess)
    .reduce((o, p) => ((o[p.type] = p.value), o), {});
  const asLocal = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  const offsetMin = Math.round((asLocal - guess.getTime()) / 60000);
  return new Date(guess.getTime() - offsetMin * 60000).toISOString();
}

function bookingRequests(seed, itemKey, firstDayOffset) {
  const slot = slotMaker(seed.timezone, firstDayOffset);
  let k = 0;
  return () => {
    const s = slot();
    const start = isoLocal(s.date, s.time, seed.timezone);
    const end = new Date(Date.parse(start) + 3_600_000).toISOString();
    return {
      method: 'POST',
      path: '/coreBooking/book',
      headers: { 'content-type': 'application/json', 'x-api-key': seed.keys[k++ % seed.keys.length] },
      body: JSON.stringify({
        rentalDetails: { inventoryId: seed.items[itemKey], startTime: start, endTime: end },
        rentalPricing: {},
        customerInfo: { firstName: 'Bench', lastName: `Renter ${itemKey} ${s.seq}`, email: `bench-${itemKey.toLowerCase()}-${s.seq}@renter.test` },
        paymentPlan: { type: 'pay_later' },
        extendedData: { bench: true },
      }),
    };
  };
}

/** One request, answered with its round trips (development counts them in response headers). */
async function probe(base, req) {
  const res = await fetch(base + req.path, { method: req.method ?? 'GET', headers: req.headers, body: req.body });
  const text = await res.text();
  const total = res.headers.get('x-round-trips');
  if (!res.ok || total == null)
    throw new Error(`probe ${req.method ?? 'GET'} ${req.path} answered ${res.status} (round trips ${total}): ${text.slice(0, 300)}`);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { total: Number(total), op: Number(res.headers.get('x-round-trips-operation')), trace: res.headers.get('x-round-trip-trace') ?? '', body };
}

async function scenarios(base, seed) {
  const tokenHeaders = { 'x-seed-token': TOKEN };
  const r = {};
  const trips = {};
  r.trips = trips;
  const step = async (name, opts) => {
    log(`${name}...`);
    const res = summary(await cannon(base, opts));
    if (res.non2xx || res.errors) log(`  ${name}: ${res.non2xx} non-2xx, ${res.errors} errors/timeouts of ${res.total}`);
    r[name] = res;
    return res;
  };
  // Warm-up: wake every key's rate limiter (and stamp its last use), the lock objects, JIT the paths.
  for (const key of seed.keys) await fetch(`${base}/location`, { headers: { 'x-api-key': key } });
  if (ONLY === 'analytics') return analyticsScenarios(base, seed, tokenHeaders, r);
  await cannon(base, { duration: 2, connections: 4, next: () => ({ method: 'GET', path: '/health' }) });
  await cannon(base, { duration: 2, connections: 4, next: bookingRequests(seed, 'hotB', 300) });

  // Round trips of each operation, measured once each (they do not depend on load).
  const bookProbe = await probe(base, bookingRequests(seed, 'hotB', 600)());
  trips.book = bookProbe;
  trips.read = await probe(base, { path: `/coreBooking/${bookProbe.body.rentalId}`, headers: { 'x-api-key': seed.keys[0] } });
  // The same read by an installed app through the partner gateway (OAuth access token).
  trips.gatewayRead = await probe(base, {
    path: `/api/v1/coreBooking/${bookProbe.body.rentalId}`,
    headers: { authorization: `Bearer ${seed.gateway.accessToken}` },
  });
  const probeMonth = `/public/availability?inventoryId=${seed.dense.inventoryId}&locationId=${seed.locationId}&month=${seed.dense.month}`;
  trips.month = await probe(base, { path: probeMonth, headers: { 'cache-control': 'no-cache' } });
  trips.monthCached = await probe(base, { path: probeMonth });
  const probeDay = `/public/day-availability?inventoryId=${seed.dense.inventoryId}&locationId=${seed.locationId}&date=${seed.dense.month}-03`;
  trips.day = await probe(base, { path: probeDay, headers: { 'cache-control': 'no-cache' } });
  trips.dayCached = await probe(base, { path: probeDay });

  await step('noop', { next: () => ({ method: 'GET', path: '/health' }) });
  await step('d1read', { next: () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }) });
  await step('d1insert', {
    next: () => ({
      method: 'POST',
      path: `/__dev/bench/d1-insert?customerId=${seed.customerId}&itemId=${seed.items.raw}&locationId=${seed.locationId}`,
      headers: tokenHeaders,
    }),
  });
  await step('bookA', { next: bookingRequests(seed, 'hotA', 2) });
  const monthPath = `/public/availability?inventoryId=${seed.dense.inventoryId}&locationId=${seed.locationId}&month=${seed.dense.month}`;
  await step('availability', { next: () => ({ method: 'GET', path: monthPath }) });
  await step('preload', { next: () => ({ method: 'GET', path: `/preload-availability?inventoryId=${seed.dense.inventoryId}&month=${seed.dense.month}` }) });
  // Reseller channel: availability of 25 products over 31 days, and booking latency.
  const ch = seed.channel;
  let ck = 0;
  const chanKey = () => ch.keys[ck++ % ch.keys.length];
  const availBody = JSON.stringify({
    productIds: ch.products,
    startTime: new Date(ch.windowStart).toISOString(),
    endTime: new Date(ch.windowEnd).toISOString(),
  });
  const chanAvail = () => ({
    method: 'POST',
    path: '/channel/v1/availability',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${chanKey()}` },
    body: availBody,
  });
  trips.chanAvail = await probe(base, chanAvail());
  await step('chanAvail', { next: chanAvail });
  await step('chanAvail1', { connections: 1, next: chanAvail });
  await step('d1readC', { next: () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }) });
  await step('d1readC1', { connections: 1, next: () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }) });
  // One client: latency without queueing (what one request costs).
  await step('d1read1', { connections: 1, next: () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }) });
  await step('availability1', { connections: 1, next: () => ({ method: 'GET', path: monthPath }) });
  await step('bookA1', { connections: 1, next: bookingRequests(seed, 'hotA', 360) });
  log('bookPaired...');
  r.bookPaired = await paired(
    base,
    bookingRequests(seed, 'hotA', 540),
    () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }),
    DURATION * 1000,
  );

  // Two items at once, each with the same number of clients as the single-item run above.
  log('two items at once...');
  const [a2, b2] = await Promise.all([cannon(base, { next: bookingRequests(seed, 'hotA', 120) }), cannon(base, { next: bookingRequests(seed, 'hotB', 2) })]);
  r.bothA = summary(a2);
  r.bothB = summary(b2);
  // Same total clients on one item, to tell "two items interfere" from "the machine is saturated".
  await step('oneItem2x', { connections: CONNS * 2, next: bookingRequests(seed, 'hotA', 240) });

  await step('d1read1b', { connections: 1, next: () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders }) });
  const chanBooking = (firstDay) => {
    const slot = slotMaker(seed.timezone, firstDay);
    return () => {
      const s = slot();
      const start = isoLocal(s.date, s.time, seed.timezone);
      const end = new Date(Date.parse(start) + 3_600_000).toISOString();
      return {
        method: 'POST',
        path: '/channel/v1/bookings',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${chanKey()}`, 'idempotency-key': `bench-${s.seq}-${firstDay}` },
        body: JSON.stringify({
          productId: seed.items.hotB,
          startTime: start,
          endTime: end,
          quantity: 1,
          totalPrice: 107,
          reference: `BENCH-${firstDay}-${s.seq}`,
        }),
      };
    };
  };
  const chanProbe = chanBooking(700)();
  trips.chanBook = await probe(base, chanProbe);
  trips.chanReplay = await probe(base, chanProbe);
  await step('chanBook', { next: chanBooking(400) });
  await step('chanBook1', { connections: 1, next: chanBooking(500) });
  return analyticsScenarios(base, seed, tokenHeaders, r);
}

/** BENCH_ONLY=booking: the two booking goals and their baselines, each run twice (interleaved, the machine is noisy). */
async function bookingScenarios(base, seed) {
  const tokenHeaders = { 'x-seed-token': TOKEN };
  const r = { trips: {} };
  for (const key of seed.keys) await fetch(`${base}/location`, { headers: { 'x-api-key': key } });
  await cannon(base, { duration: 2, connections: 4, next: bookingRequests(seed, 'hotB', 300) });
  r.trips.book = await probe(base, bookingRequests(seed, 'hotB', 600)());
  const d1read = () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders });
  const d1insert = () => ({
    method: 'POST',
    path: `/__dev/bench/d1-insert?customerId=${seed.customerId}&itemId=${seed.items.raw}&locationId=${seed.locationId}`,
    headers: tokenHeaders,
  });
  for (const round of [1, 2]) {
    log(`round ${round}...`);
    r[`d1insert${round}`] = summary(await cannon(base, { next: d1insert }));
    const bookA = () => cannon(base, { next: bookingRequests(seed, 'hotA', 2 + 120 * (round - 1)) });
    r[`bookA${round}`] = summary(await (PROFILE && round === 1 ? profiled(base, bookA) : bookA()));
    r[`d1read1${round}`] = summary(await cannon(base, { connections: 1, next: d1read }));
    r[`bookA1${round}`] = summary(await cannon(base, { connections: 1, next: bookingRequests(seed, 'hotA', 360 + 60 * round) }));
  }
  log('interleaved...');
  r.bookPaired = await paired(base, bookingRequests(seed, 'hotA', 540), d1read, DURATION * 1000);
  return r;
}

/** CPU ticks (utime + stime, 10 ms each) of the processes of the process group `pgid`, by command name. */
function groupCpu(pgid) {
  const out = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) !== pgid) continue;
    out.set(comm, (out.get(comm) ?? 0) + Number(f[11]) + Number(f[12]));
  }
  return out;
}

/** Ticks per ms of each process between two readings. */
function tickRates(a, b, ms) {
  const out = {};
  for (const [comm, t] of b) out[comm] = (t - (a.get(comm) ?? 0)) / ms;
  return out;
}

/** ms of CPU per request of each wrangler dev process while `amount` requests of `next` run (CPU_CONNS clients), less the idle rate. */
async function cpuPerRequest(base, pgid, next, amount, idle) {
  const from = groupCpu(pgid);
  const start = performance.now();
  const res = await new Promise((resolve, reject) =>
    autocannon({ url: base, connections: CPU_CONNS, amount, timeout: 30, requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }] }, (err, r) =>
      err ? reject(err) : resolve(r),
    ),
  );
  // What the requests left to run after their responses (releases, queue messages) counts too.
  await new Promise((r) => setTimeout(r, 1000));
  const ms = performance.now() - start;
  const rates = tickRates(from, groupCpu(pgid), ms);
  const per = {};
  for (const [comm, rate] of Object.entries(rates)) per[comm] = (Math.max(0, rate - (idle[comm] ?? 0)) * ms * 10) / amount;
  return { per, total: Object.values(per).reduce((a, b) => a + b, 0), non2xx: res.non2xx + res.errors };
}

/** BENCH_ONLY=cpu: a booking's and a raw insert's CPU, alternating (A B B A ...). */
async function cpuScenarios(base, seed, pgid) {
  const tokenHeaders = { 'x-seed-token': TOKEN };
  for (const key of seed.keys) await fetch(`${base}/location`, { headers: { 'x-api-key': key } });
  await cannon(base, { duration: 2, connections: 4, next: bookingRequests(seed, 'hotB', 300) });
  const d1insert = () => ({
    method: 'POST',
    path: `/__dev/bench/d1-insert?customerId=${seed.customerId}&itemId=${seed.items.raw}&locationId=${seed.locationId}`,
    headers: tokenHeaders,
  });
  const idleFrom = groupCpu(pgid);
  const idleStart = performance.now();
  await new Promise((r) => setTimeout(r, 3000));
  const idle = tickRates(idleFrom, groupCpu(pgid), performance.now() - idleStart);
  const bookings = bookingRequests(seed, 'hotA', 2);
  const rounds = [];
  for (let i = 0; i < CPU_ROUNDS; i++) {
    log(`cpu round ${i + 1}...`);
    const pair = {};
    for (const what of i % 2 ? ['book', 'insert'] : ['insert', 'book'])
      pair[what] = await cpuPerRequest(base, pgid, what === 'book' ? bookings : d1insert, CPU_REQUESTS, idle);
    rounds.push(pair);
  }
  return rounds;
}

function printCpu(rounds) {
  const row = (name, x) =>
    `${name} ${fmt(x.total, 2)} ms (${Object.entries(x.per)
      .filter(([, v]) => v >= 0.05)
      .map(([k, v]) => `${k} ${fmt(v, 2)}`)
      .join(', ')})${x.non2xx ? `, ${x.non2xx} non-2xx` : ''}`;
  const ratios = rounds.map(({ insert, book }) => insert.total / book.total);
  rounds.forEach(({ insert, book }, i) => console.log(`cpu round ${i + 1}: ${row('booking', book)}; ${row('raw insert', insert)}; ${fmt(ratios[i], 2)}x`));
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(`machine CPU per request, raw insert / booking: median ${fmt(median, 2)}x of ${rounds.length} rounds`);
}

/** Runs `fn` under the Worker's CPU profiler (BENCH_PROFILE): writes the profile and logs the top functions by self time. */
async function profiled(base, fn) {
  const { default: WebSocket } = await import('ws');
  const inspector = `http://127.0.0.1:${Number(new URL(base).port) + 1}`;
  const targets = await (await fetch(`${inspector}/json`)).json();
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  let id = 0;
  const pending = new Map();
  ws.on('message', (m) => {
    const msg = JSON.parse(String(m));
    if (msg.id && pending.has(msg.id)) pending.get(msg.id)(msg.result);
  });
  const send = (method, params = {}) => new Promise((resolve) => (pending.set(++id, resolve), ws.send(JSON.stringify({ id, method, params }))));
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  await send('Profiler.start');
  const result = await fn();
  const { profile } = await send('Profiler.stop');
  ws.close();
  const { writeFileSync } = await import('node:fs');
  writeFileSync(PROFILE, JSON.stringify(profile));
  const self = new Map();
  const dt = profile.timeDeltas;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((sid, i) => {
    const f = byId.get(sid).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  log(`profile written to ${PROFILE}; top functions by self time:`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) log(`${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  return result;
}

function printBooking(r) {
  for (const round of [1, 2]) {
    const ins = r[`d1insert${round}`];
    const b = r[`bookA${round}`];
    const d1 = r[`d1read1${round}`];
    const b1 = r[`bookA1${round}`];
    console.log(
      `round ${round}: throughput ${fmt(b.rps)} / insert ${fmt(ins.rps)} req/s = ${fmt(b.rps / ins.rps, 2)}x (goal >= 0.5x, ${b.non2xx} non-2xx); ` +
        `1 client p50 ${fmt(b1.p50)} / read ${fmt(d1.p50)} ms = ${fmt(b1.p50 / d1.p50, 2)}x (goal <= 3x)`,
    );
  }
  const p = r.bookPaired;
  console.log(`1 client, interleaved with the read (A B B A): p50 ${fmt(p.p50)} / ${fmt(p.base)} ms = ${fmt(p.p50 / p.base, 2)}x (goal <= 3x)`);
  console.log(
    `booking round trips: ${r.trips.book.total} (${r.trips.book.op} after auth); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

/**
 * One client alternating two requests for `ms` (after a short warm-up): each figure of `a` is
 * taken next to figures of `b` under the same moment's load, so the ratio of their medians does
 * not depend on when each was measured (this machine's load drifts by 2x within a minute).
 */
async function paired(base, a, b, ms) {
  const la = [];
  const lb = [];
  const once = async (req, out) => {
    const t = performance.now();
    const res = await fetch(base + req.path, { method: req.method ?? 'GET', headers: req.headers, body: req.body });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${req.method ?? 'GET'} ${req.path} answered ${res.status}`);
    if (out) out.push(performance.now() - t);
  };
  for (let i = 0; i < 5; i++) await Promise.all([once(a()), once(b())]);
  const end = Date.now() + ms;
  // A B B A: whatever a request leaves behind (work after its response) falls as often on the next
  // `a` as on the next `b`.
  while (Date.now() < end) {
    await once(a(), la);
    await once(b(), lb);
    await once(b(), lb);
    await once(a(), la);
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { p50: median(la), base: median(lb), n: la.length };
}

/**
 * Analytics over the location with the history, one client (what one answer costs), each report
 * interleaved with the one-D1-read baseline; keys rotated so no rate limit bites.
 */
async function analyticsScenarios(base, seed, tokenHeaders, r) {
  const h = seed.history;
  const lastMonthFrom = addDaysIso(h.to, -29);
  let k = 0;
  const key = () => seed.keys[k++ % seed.keys.length];
  const analyticsGet = (path) => () => ({ method: 'GET', path, headers: { 'x-api-key': key() } });
  const A = Math.min(DURATION, 5) * 1000;
  // Realize the history once (the steady state: later runs find only what completed since).
  await fetch(`${base}/analytics/realize-completed-bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key() },
    body: '{}',
  });
  const read = () => ({ method: 'GET', path: `/__dev/bench/d1-read?id=${seed.items.raw}`, headers: tokenHeaders });
  const range = `locationIds=${seed.locationId}&startDate=${lastMonthFrom}&endDate=${h.to}`;
  let target = 0;
  const reports = {
    metrics1: analyticsGet(`/analytics/metrics?${range}`),
    perf1: analyticsGet(`/analytics/inventory-performance?${range}`),
    yoy1: analyticsGet(`/analytics/year-over-year?locationIds=${seed.locationId}`),
    forecast1: analyticsGet(`/forecast?locationId=${seed.locationId}&days=14`),
    widget1: analyticsGet(`/analytics/widget-metrics?${range}`),
    target1: () => ({
      method: 'PATCH',
      path: '/analytics/revenue-target',
      headers: { 'content-type': 'application/json', 'x-api-key': key() },
      body: JSON.stringify({ locationId: seed.locationId, revenueTarget: 250_000 + (target++ % 1000) }),
    }),
    realize1: () => ({
      method: 'POST',
      path: '/analytics/realize-completed-bookings',
      headers: { 'content-type': 'application/json', 'x-api-key': key() },
      body: '{"dryRun":true}',
    }),
    location1: analyticsGet('/location'),
  };
  for (const [name, next] of Object.entries(reports)) {
    log(`${name}...`);
    r[name] = await paired(base, next, read, A);
  }
  return r;
}

const addDaysIso = (date, n) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The analytics figures: each against one D1 read measured beside it, and the authenticated control that shows what authentication alone costs. */
function analyticsRows(r, seed, row) {
  for (const [name, label] of [
    ['metrics1', 'analytics metrics, last 30 days with daily breakdown'],
    ['perf1', 'inventory performance, last 30 days'],
    ['yoy1', 'year over year (two years of history)'],
    ['forecast1', 'forecast, 14 days from 16 weeks of history'],
    ['widget1', 'widget metrics, last 30 days (funnel, heatmap, daily, sources, products)'],
    ['target1', 'revenue target (PATCH)'],
    ['realize1', 'realize completed bookings (dry run)'],
  ]) {
    const ratio = r[name].p50 / r[name].base;
    row(
      `${label}, 1 client (${seed.history.ledgerEntries} ledger entries)`,
      `p50 ${fmt(r[name].p50)} ms (${r[name].n} requests)`,
      'one D1 read, interleaved',
      `p50 ${fmt(r[name].base)} ms`,
      `${fmt(ratio, 2)}x`,
      '<= 3x',
      ratio <= 3,
    );
  }
  row(
    '  control: GET /location (authenticated one-read list), 1 client',
    `p50 ${fmt(r.location1.p50)} ms`,
    'one D1 read, interleaved',
    `p50 ${fmt(r.location1.base)} ms`,
    `${fmt(r.location1.p50 / r.location1.base, 2)}x`,
    '(the cost of authentication)',
    null,
  );
}

/** BENCH_ONLY=analytics: the analytics rows alone. */
function printAnalytics(r, seed) {
  const rows = [];
  analyticsRows(r, seed, (figure, value, baselineName, baseline, ratio, goal, pass) =>
    rows.push([figure, value, baselineName, baseline, ratio, goal, pass === null ? '' : pass ? 'PASS' : 'MISS']),
  );
  const width = rows[0].map((_, i) => Math.max(...rows.map((x) => String(x[i]).length)));
  for (const x of rows) console.log(x.map((c, i) => String(c).padEnd(width[i])).join(' | '));
  console.log(
    `\n${Math.min(DURATION, 5)}s per scenario, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}.`,
  );
}

function print(r, seed) {
  if (ONLY === 'analytics') return printAnalytics(r, seed);
  const rows = [];
  let trips = '';
  const row = (figure, value, baselineName, baseline, ratio, goal, pass) =>
    rows.push({ figure, value, trips, baselineName, baseline, ratio, goal, verdict: pass === null ? '' : pass ? 'PASS' : 'MISS' });
  /** Round trips of a probe: `request (after authentication)` when authentication took some. */
  const rt = (t) => (t ? (t.total === t.op ? `${t.total}` : `${t.total} (${t.op} after auth)`) : '');
  const T = r.trips;
  trips = rt(T.book);
  const tput = r.bookA.rps / r.d1insert.rps;
  row(
    `booking create throughput (1 item, ${CONNS} clients)`,
    `${fmt(r.bookA.rps)} req/s`,
    'raw D1 insert',
    `${fmt(r.d1insert.rps)} req/s`,
    `${fmt(tput, 2)}x`,
    '>= 0.5x (issue 30; issue 10: 0.3x)',
    tput >= 0.5,
  );
  const spread = r.bookA.p99 / r.bookA.p50;
  row(
    `booking create p50 / p99 (${CONNS} clients, 1 item)`,
    `${fmt(r.bookA.p50)} / ${fmt(r.bookA.p99)} ms`,
    'own p50',
    `${fmt(r.bookA.p50)} ms`,
    `p99 = ${fmt(spread, 2)}x p50`,
    'p99 <= 5x p50',
    spread <= 5,
  );
  const b1 = r.bookPaired.p50 / r.bookPaired.base;
  row(
    '  booking create, 1 client (interleaved with the read)',
    `p50 ${fmt(r.bookPaired.p50)} ms (alone: p50 ${fmt(r.bookA1.p50)} ms, ${fmt(r.bookA1.rps)} req/s)`,
    'one D1 read, interleaved',
    `p50 ${fmt(r.bookPaired.base)} ms`,
    `${fmt(b1, 2)}x`,
    '<= 3x',
    b1 <= 3,
  );
  trips = `${rt(T.month)}, cached ${rt(T.monthCached)}`;
  const av1 = r.availability1.p50 / r.d1read1.p50;
  row(
    `month availability, 1 client (10 assets, ${seed.dense.bookings} bookings)`,
    `p50 ${fmt(r.availability1.p50)} ms`,
    'one D1 read, 1 client',
    `p50 ${fmt(r.d1read1.p50)} ms`,
    `${fmt(av1, 2)}x`,
    '<= 2x',
    av1 <= 2,
  );
  const av = r.availability.p50 / r.d1read.p50;
  row(
    `  same, ${CONNS} clients`,
    `p50 ${fmt(r.availability.p50)} ms, ${fmt(r.availability.rps)} req/s`,
    `one D1 read, ${CONNS} clients`,
    `p50 ${fmt(r.d1read.p50)} ms, ${fmt(r.d1read.rps)} req/s`,
    `${fmt(av, 2)}x`,
    '<= 2x',
    av <= 2,
  );
  row(
    `  month preload with every slot, ${CONNS} clients`,
    `p50 ${fmt(r.preload.p50)} ms`,
    'one D1 read',
    `p50 ${fmt(r.d1read.p50)} ms`,
    `${fmt(r.preload.p50 / r.d1read.p50, 2)}x`,
    '(info)',
    null,
  );
  trips = rt(T.book);
  const both = r.bothA.rps + r.bothB.rps;
  const par = both / r.bookA.rps;
  row(
    `two items booked at once (${CONNS} clients each)`,
    `${fmt(r.bothA.rps)} + ${fmt(r.bothB.rps)} = ${fmt(both)} req/s`,
    `one item, ${CONNS} clients`,
    `${fmt(r.bookA.rps)} req/s`,
    `${fmt(par, 2)}x`,
    '2x = independent and machine not saturated',
    null,
  );
  const sat = both / r.oneItem2x.rps;
  row(
    `  control: one item, ${CONNS * 2} clients`,
    `${fmt(r.oneItem2x.rps)} req/s, p50 ${fmt(r.oneItem2x.p50)} ms`,
    'two items at once',
    `${fmt(both)} req/s`,
    `two/one = ${fmt(sat, 2)}x`,
    '>= 0.9x (items do not slow each other)',
    sat >= 0.9,
  );
  trips = rt(T.chanAvail);
  const ca1 = r.chanAvail1.p50 / r.d1readC1.p50;
  row(
    'channel availability, 25 products x 31 days, 1 client',
    `p50 ${fmt(r.chanAvail1.p50)} ms`,
    'one D1 read, 1 client',
    `p50 ${fmt(r.d1readC1.p50)} ms`,
    `${fmt(ca1, 2)}x`,
    '<= 2x',
    ca1 <= 2,
  );
  const ca = r.chanAvail.p50 / r.d1readC.p50;
  row(
    `  same, ${CONNS} clients`,
    `p50 ${fmt(r.chanAvail.p50)} ms, ${fmt(r.chanAvail.rps)} req/s`,
    `one D1 read, ${CONNS} clients`,
    `p50 ${fmt(r.d1readC.p50)} ms`,
    `${fmt(ca, 2)}x`,
    '<= 2x',
    ca <= 2,
  );
  trips = `${rt(T.chanBook)}, replay ${rt(T.chanReplay)}`;
  row(
    `channel booking p50 / p99 (${CONNS} clients, 1 item)`,
    `${fmt(r.chanBook.p50)} / ${fmt(r.chanBook.p99)} ms, ${fmt(r.chanBook.rps)} req/s`,
    'operator booking, same load',
    `${fmt(r.bookA.p50)} / ${fmt(r.bookA.p99)} ms`,
    `p99 = ${fmt(r.chanBook.p99 / r.chanBook.p50, 2)}x p50`,
    '(figures)',
    null,
  );
  row(
    '  channel booking, 1 client',
    `p50 ${fmt(r.chanBook1.p50)} / p99 ${fmt(r.chanBook1.p99)} ms`,
    'one D1 read, 1 client',
    `p50 ${fmt(r.d1read1b.p50)} ms`,
    `${fmt(r.chanBook1.p50 / r.d1read1b.p50, 2)}x`,
    '(figures)',
    null,
  );
  trips = '0';
  row(`no-op route (${CONNS} clients)`, `${fmt(r.noop.rps)} req/s, p50 ${fmt(r.noop.p50)} ms`, '', '', '', '(baseline)', null);
  trips = '';
  analyticsRows(r, seed, row);

  const cols = ['figure', 'value', 'trips', 'baselineName', 'baseline', 'ratio', 'goal', 'verdict'];
  const head = {
    figure: 'figure',
    value: 'measured',
    trips: 'round trips',
    baselineName: 'baseline',
    baseline: 'baseline value',
    ratio: 'ratio',
    goal: 'goal',
    verdict: '',
  };
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(...[head, ...rows].map((x) => String(x[c]).length))]));
  const line = (x) => cols.map((c) => String(x[c]).padEnd(width[c])).join(' | ');
  console.log(line(head));
  console.log(cols.map((c) => '-'.repeat(width[c])).join('-|-'));
  for (const x of rows) console.log(line(x));
  console.log('\nRound trips per operation (sequential D1 and Durable Object calls on the critical path; budgets in test/bench/round-trips.test.ts):');
  const budget = [
    ['booking create, operator (API key)', T.book, '<= 3 after authentication'],
    ['authenticated read of one booking (API key)', T.read, '<= 2'],
    ['same read through the partner gateway (OAuth token)', T.gatewayRead, '<= 2'],
    ['month availability (checked / cached)', T.month, '<= 1', T.monthCached, '0'],
    ['day availability (checked / cached)', T.day, '<= 1', T.dayCached, '0'],
    ['channel availability, 25 products', T.chanAvail, '<= 1 after authentication'],
    ['channel booking', T.chanBook, '<= 3 after authentication'],
    ['channel booking replay', T.chanReplay, '<= 1 after authentication'],
  ];
  const w = Math.max(...budget.map((b) => b[0].length));
  for (const [name, t, goal, cached, cachedGoal] of budget) {
    console.log(`  ${name.padEnd(w)}  ${rt(t).padEnd(22)} budget ${goal}${cached ? `; cached ${rt(cached)} (budget ${cachedGoal})` : ''}`);
  }
  if (process.env.BENCH_TRACE) for (const [name, t] of budget) console.log(`  ${name}: ${t.trace}`);
  const bad = Object.entries(r).filter(([k, v]) => k !== 'trips' && (v.non2xx || v.errors));
  if (bad.length) console.log(`\nnon-2xx answers: ${bad.map(([k, v]) => `${k} ${v.non2xx}/${v.total}${v.errors ? ` (${v.errors} errors)` : ''}`).join(', ')}`);
  console.log(
    `\n${DURATION}s per scenario, wrangler dev (one workerd process, local D1 = one SQLite file), ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, node ${process.version}. Bookings are pay-later (no payment provider call).`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
