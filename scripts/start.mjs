#!/usr/bin/env node
// npm start: .dev.vars from the example if missing, local D1 migrations, wrangler dev on PORT
// (default 8787), then an idempotent sandbox seed once the server answers. If seeding fails the
// script stops the server and exits non-zero with the reason (it never prints "ready" then).
//
// Cron triggers do not fire by themselves under `wrangler dev`, so this script fires each schedule of
// wrangler.toml [triggers] at its times through the Worker's own scheduled handler and prints one
// line per run saying what ran (read from the Worker's `cron` log line). It fires them at
// `/__scheduled?cron=...`, the route `--test-scheduled` adds to the Worker: wrangler 4.86 sends
// `/cdn-cgi/handler/scheduled` to the static-assets router in front of the Worker, which has no
// scheduled handler and answers 500 `exception` (a wrangler limitation with [assets]; not Berth's code).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const port = process.env.PORT || '8787';
const base = `http://127.0.0.1:${port}`;

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars');
  console.log('[berth] created .dev.vars from .dev.vars.example');
}
const vars = Object.fromEntries(
  readFileSync('.dev.vars', 'utf8')
    .split('\n')
    .map((l) => l.match(/^\s*([A-Z0-9_]+)\s*=\s*"?([^"\n]*)"?/))
    .filter(Boolean)
    .map((m) => [m[1], m[2]]),
);

/** The cron expressions of wrangler.toml `[triggers] crons = [...]`. */
export function cronsOf(toml) {
  const m = toml.match(/^\[triggers\][^[]*?crons\s*=\s*\[([^\]]*)\]/m);
  return m ? [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]) : [];
}

/**
 * The next instant (ms, UTC) after `after` at which a cron expression fires. Supports what Berth
 * schedules: minute and hour fields as `*`, `*\/n` or a number, and `*` for day, month and weekday.
 */
export function nextFire(expr, after) {
  const [min, hour, ...rest] = expr.trim().split(/\s+/);
  if (rest.length !== 3 || rest.some((f) => f !== '*')) throw new Error(`unsupported cron expression: ${expr}`);
  const matches = (field, v) => field === '*' || (field.startsWith('*/') ? v % Number(field.slice(2)) === 0 : v === Number(field));
  let t = Math.floor(after / 60_000) * 60_000 + 60_000;
  for (let i = 0; i < 2 * 24 * 60; i++, t += 60_000) {
    const d = new Date(t);
    if (matches(min, d.getUTCMinutes()) && matches(hour, d.getUTCHours())) return t;
  }
  throw new Error(`cron expression never fires: ${expr}`);
}

/** One line for a run of the Worker's `cron` log record: the jobs that did work, the ones that failed. */
export function describeRun(rec) {
  const parts = [];
  for (const [job, result] of Object.entries(rec.results ?? {})) {
    if (result && typeof result === 'object' && 'error' in result) parts.push(`${job} FAILED: ${result.error}`);
    else if (didWork(result)) parts.push(`${job} ${JSON.stringify(result)}`);
  }
  return `[berth] cron "${rec.cron}" ran at ${rec.at}: ${parts.length ? parts.join('; ') : `${Object.keys(rec.results ?? {}).length} jobs, nothing due`}`;
}

function didWork(v) {
  if (v == null || v === false) return false;
  if (typeof v === 'number') return v > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.values(v).some(didWork);
  return v === true;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) await main();

async function main() {
  const wrangler = (args, opts = {}) => spawnSync('npx', ['wrangler', ...args], { stdio: 'inherit', env: { ...process.env, CI: 'true' }, ...opts });

  console.log('[berth] applying D1 migrations to the local database');
  const mig = wrangler(['d1', 'migrations', 'apply', 'DB', '--local']);
  if (mig.status !== 0) process.exit(mig.status ?? 1);

  console.log(`[berth] starting wrangler dev on ${base}`);
  const dev = spawn('npx', ['wrangler', 'dev', '--port', port, '--ip', '127.0.0.1', '--test-scheduled', '--show-interactive-dev-session=false'], {
    stdio: ['inherit', 'pipe', 'pipe'],
    env: process.env,
    detached: false,
  });
  // The Worker's output, passed through; its `cron` records become one readable line each.
  for (const [from, to] of [
    [dev.stdout, process.stdout],
    [dev.stderr, process.stderr],
  ]) {
    createInterface({ input: from }).on('line', (line) => {
      const json = line.indexOf('{"level"');
      if (json >= 0) {
        try {
          const rec = JSON.parse(line.slice(json));
          if (rec.msg === 'cron') return void console.log(describeRun(rec));
        } catch {}
      }
      to.write(`${line}\n`);
    });
  }
  let stopping = false;
  const stop = (code) => {
    stopping = true;
    dev.kill('SIGINT');
    if (code !== undefined) setTimeout(() => process.exit(code), 3000).unref();
  };
  process.on('SIGINT', () => stop());
  process.on('SIGTERM', () => stop());
  dev.on('exit', (code) => process.exit(stopping && code === 0 ? 0 : (code ?? 0)));

  if (!(await waitForHealth())) {
    console.error('[berth] the server did not become healthy');
    stop(1);
    return;
  }
  const r = await fetch(`${base}/__dev/seed`, { method: 'POST', headers: { 'x-seed-token': vars.DEV_SEED_TOKEN ?? '' } }).catch((err) => err);
  const body = r instanceof Error ? String(r) : await r.text();
  if (r instanceof Error || !r.ok) {
    console.error(`[berth] seeding failed${r instanceof Error ? '' : ` (${r.status})`}: ${body}`);
    console.error('[berth] stopping: the sandbox is incomplete');
    stopping = true;
    dev.kill('SIGINT');
    setTimeout(() => process.exit(1), 3000).unref();
    dev.on('exit', () => process.exit(1));
    return;
  }
  console.log(`[berth] sandbox seeded: ${body}`);
  const crons = cronsOf(readFileSync('wrangler.toml', 'utf8'));
  for (const cron of crons) schedule(cron);
  console.log(`[berth] ready: ${base}  (API reference: ${base}/docs; cron schedules fired by this script: ${crons.join(', ')})`);
}

async function waitForHealth() {
  for (let i = 0; i < 240; i++) {
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** Fires `cron` at each of its times through the Worker's scheduled handler. */
function schedule(cron) {
  const at = nextFire(cron, Date.now());
  setTimeout(async () => {
    schedule(cron);
    try {
      const r = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(cron)}`);
      if (!r.ok) console.error(`[berth] cron "${cron}": the scheduled handler answered ${r.status}`);
    } catch (err) {
      console.error(`[berth] cron "${cron}" could not be fired: ${err}`);
    }
  }, at - Date.now()).unref();
}
