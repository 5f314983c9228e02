#!/usr/bin/env node
// Tests against the started service (`npm start`; .ci/run starts one): what only a running `wrangler dev`
// shows — the Worker's scheduled handler answering locally, cron work actually running, and sandbox test
// clocks driving scheduled work through the real queue. `npm run test:service`; SERVICE_BASE_URL, else
// http://127.0.0.1:$PORT (default 8787). SERVICE_ONLY=<regex> runs only the matching scenarios.
//   1. the scheduled handler answers 200 for each cron expression of wrangler.toml;
//   2. a message scheduled one minute ahead is sent when the five-minute trigger fires after that minute;
//   3. a coverage bind that fails with 500: on a test clock, the retries at their due times, then the
//      operator's flag within 30 minutes of clock time;
//   4. a client-sent `cf-connecting-ip` is not trusted under `wrangler dev`: rotating it does not lift the
//      slip portal's per-address magic-link limit (lib/ip-limit.ts);
//   5. OCTO's validator flows that depend on the seeded sandbox (SOLD_OUT, Change Product) pass on a
//      reseller's fresh private sandbox and again after its reset (octo-flows.mjs).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { devVar } from '../dev-vars.mjs';
import { validatorFlowsTwice } from './octo-flows.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const base = (process.env.SERVICE_BASE_URL || `http://127.0.0.1:${process.env.PORT || '8787'}`).replace(/\/$/, '');

const KEY = devVar('DEMO_API_KEY');
const PARTNER_PASSWORD = devVar('DEMO_PARTNER_PASSWORD');
const CRONS = [...(readFileSync(join(root, 'wrangler.toml'), 'utf8').match(/crons\s*=\s*\[([^\]]*)\]/)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);

async function call(method, path, body, headers = { 'x-api-key': KEY }) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text };
}

/**
 * Fires one cron expression through the Worker's scheduled handler, as `npm start` does: `/__scheduled`
 * is the route `wrangler dev --test-scheduled` adds in front of the Worker (wrangler 4.86 sends
 * `/cdn-cgi/handler/scheduled` to the static-assets router instead, which has no scheduled handler).
 */
async function fire(cron) {
  const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron)}`);
  return { status: res.status, text: await res.text() };
}

async function eventually(fn, timeoutMs = 30_000, stepMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${last}` : ''}`);
}

const results = [];
async function scenario(name, fn) {
  if (process.env.SERVICE_ONLY && !new RegExp(process.env.SERVICE_ONLY).test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    results.push({ name, ok: false, ms: Date.now() - t0, err });
    console.log(`FAIL ${name}\n     ${err?.stack ?? err}`);
  }
}

async function schedulerAnswers() {
  assert.ok(CRONS.length >= 2, `wrangler.toml lists the cron triggers (${CRONS})`);
  for (const cron of CRONS) {
    const r = await fire(cron);
    assert.equal(r.status, 200, `scheduled handler for "${cron}": ${r.status} ${r.text}`);
  }
}

async function scheduledMessageSent() {
  const email = `scheduled-${Date.now()}@example.test`;
  const s = await call('POST', '/communication/schedule', {
    customerId: 'cus_demo_marina',
    locationId: 'loc_demo_miami',
    templateId: 'waiver_link',
    recipientEmail: email,
    delayMinutes: 1,
  });
  assert.equal(s.status, 200, s.text);
  assert.equal(s.body.status, 'pending', s.text);
  const sendAt = Date.parse(s.body.sendAt);
  assert.ok(sendAt > Date.now() && sendAt <= Date.now() + 61_000, `sendAt one minute ahead: ${s.body.sendAt}`);
  const outboxFor = async () => (await call('GET', `/outbox/messages?to=${encodeURIComponent(email)}`)).body?.data ?? [];
  // A trigger before the send time leaves it alone.
  assert.equal((await fire('*/5 * * * *')).status, 200);
  assert.deepEqual(await outboxFor(), [], 'nothing sent before its time');
  // The first trigger after it sends it.
  await new Promise((r) => setTimeout(r, Math.max(0, sendAt - Date.now() + 1000)));
  assert.equal((await fire('*/5 * * * *')).status, 200);
  const outbox = { body: { data: await eventually(async () => ((await outboxFor()).length ? outboxFor() : undefined)) } };
  outbox.text = JSON.stringify(outbox.body);
  assert.equal(outbox.body.data[0].template, 'waiver_link', outbox.text);
}

const OFFERING = 'cov_demo_reference_cover';
const UNDERWRITER = 'https://reference-underwriter.berth.invalid';

/** Points the sandbox's coverage offering at the reference underwriter with behaviour flags, for the duration of `fn`. */
async function withUnderwriter(flags, fn) {
  const login = await call('POST', '/partners/login', { email: 'demo-partner@berth.local', password: PARTNER_PASSWORD }, {});
  assert.equal(login.status, 200, login.text);
  const auth = { authorization: `Bearer ${login.body.token}` };
  const set = async (url) => assert.equal((await call('PATCH', `/partners/coverage/offerings/${OFFERING}`, { baseUrl: url }, auth)).status, 200);
  await set(`${UNDERWRITER}/${flags}`);
  try {
    await fn();
  } finally {
    await set(UNDERWRITER);
  }
}

async function coverageRetriesOnTestClock() {
  // A test clock: a private copy of Demo Marina whose time is frozen now, moved only by advancing the clock.
  const frozen = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
  const clock = await call('POST', '/sandbox/test-clocks', { frozenTime: frozen.toISOString(), name: 'coverage retries' });
  assert.equal(clock.status, 201, clock.text);
  const op = { 'x-api-key': clock.body.apiKey };
  try {
    const miami = (await call('GET', '/location', undefined, op)).body.data.find((l) => l.timezone === 'America/New_York');
    const en = await call('POST', '/coverage/enablements', { locationId: miami.locationId, offeringId: OFFERING }, op);
    assert.ok(en.status === 201 || en.status === 200, en.text);
    const items = await call('GET', `/inventory/customer?customer_id=${clock.body.customerId}`, undefined, op);
    const pontoon = (items.body.data ?? items.body).find((i) => /pontoon/i.test(i.name ?? i.data?.name ?? ''));
    assert.ok(pontoon, items.text.slice(0, 500));
    const inventoryId = pontoon.inventoryId ?? pontoon.id;
    const day = new Date(frozen.getTime() + 5 * 86_400_000).toISOString().slice(0, 10);
    const win = { startTime: `${day}T10:00:00-04:00`, endTime: `${day}T12:00:00-04:00` };
    let rentalId;
    await withUnderwriter('error-bind', async () => {
      const quote = await call('POST', '/coverage/quotes', { inventoryId, ...win }, op);
      assert.equal(quote.status, 200, quote.text);
      const quoteId = quote.body.quotes?.[0]?.quoteId ?? quote.body.data?.[0]?.quoteId ?? quote.body.quoteId;
      assert.ok(quoteId, quote.text);
      const ans = await call('POST', `/coverage/quotes/${quoteId}/answers`, { answers: { skipper_dob: '1985-03-02', experience: 'some' } }, op);
      assert.equal(ans.status, 200, ans.text);
      const co = await call(
        'POST',
        '/coverage/checkout',
        {
          rentalDetails: { inventoryId, ...win, quantity: 1 },
          rentalPricing: {},
          customerInfo: { firstName: 'Clock', lastName: 'Cover', email: `clock-cover-${Date.now()}@example.test` },
          paymentMethodId: 'pm_card_visa',
          extendedData: {},
          coverage: { quoteId },
        },
        { ...op, 'idempotency-key': `svc-${Date.now()}` },
      );
      assert.ok(co.status === 200 || co.status === 201, co.text);
      rentalId = co.body.rentalId ?? co.body.bookingId ?? co.body.id;
      assert.ok(rentalId, co.text);
      // The first bind runs from the queue at the operator's time, and fails (the underwriter answers 500).
      const first = await eventually(async () => {
        const p = (await call('GET', `/coverage/policies?rentalId=${rentalId}`, undefined, op)).body.data?.[0];
        return p?.bindAttempts >= 1 ? p : undefined;
      });
      assert.equal(first.status, 'pending', JSON.stringify(first));
      // Thirty minutes of the clock's time: the retries at their due times, then the policy is not issued and the operator flagged.
      const adv = await call('POST', `/sandbox/test-clocks/${clock.body.id}/advance`, { frozenTime: new Date(frozen.getTime() + 30 * 60_000).toISOString() });
      assert.equal(adv.status, 200, adv.text);
      const done = await eventually(async () => {
        const c = await call('GET', `/sandbox/test-clocks/${clock.body.id}`);
        return c.body.status !== 'advancing' ? c.body : undefined;
      }, 120_000);
      assert.equal(done.status, 'ready', JSON.stringify(done));
    });
    const policy = (await call('GET', `/coverage/policies?rentalId=${rentalId}`, undefined, op)).body.data[0];
    assert.equal(policy.status, 'not_issued', JSON.stringify(policy));
    assert.ok(policy.bindAttempts > 3, `retried: ${policy.bindAttempts} attempts`);
    const flags = await call('GET', '/coverage/flags?open=true', undefined, op);
    assert.ok(
      flags.body.data.some((f) => f.policyId === policy.policyId || f.policyId === policy.id),
      `the operator is flagged: ${flags.text.slice(0, 500)}`,
    );
  } finally {
    await call('DELETE', `/sandbox/test-clocks/${clock.body.id}`);
  }
}

await scenario('the scheduled handler answers 200 for every cron trigger', schedulerAnswers);
await scenario('a message scheduled one minute ahead is sent by the next trigger', scheduledMessageSent);
async function rotatedIpStaysLimited() {
  const locationId = 'loc_demo_miami'; // the seeded marina (README)
  const statuses = [];
  // The limit is 10 a minute per address; a fresh minute may hold earlier requests of this address, so at most 11 tries.
  for (let i = 0; i < 11 && !statuses.includes(429); i++) {
    const r = await call('POST', '/slip-portal/magic-link', { email: `nobody${i}@example.com`, locationId }, { 'cf-connecting-ip': `203.0.113.${i + 1}` });
    statuses.push(r.status);
  }
  assert.ok(statuses.includes(429), `rotating cf-connecting-ip lifted the per-address limit: ${statuses.join(' ')}`);
}

await scenario('a failing coverage bind on a test clock: retries, then the flag within 30 minutes of clock time', coverageRetriesOnTestClock);
await scenario('a rotated cf-connecting-ip does not lift a per-address limit under wrangler dev', rotatedIpStaysLimited);
await scenario('OCTO validator flows (SOLD_OUT, Change Product) on a fresh private sandbox, then again after its reset', () => validatorFlowsTwice(call));

const failed = results.filter((r) => !r.ok);
console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
