#!/usr/bin/env node
// npm start: .dev.vars from the example if missing, local D1 migrations, wrangler dev on PORT
// (default 8787), then an idempotent sandbox seed once the server answers. Cron triggers do not
// fire under `wrangler dev`, so this script fires them on their schedule.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';

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

const wrangler = (args, opts = {}) => spawnSync('npx', ['wrangler', ...args], { stdio: 'inherit', env: { ...process.env, CI: 'true' }, ...opts });

console.log('[berth] applying D1 migrations to the local database');
const mig = wrangler(['d1', 'migrations', 'apply', 'DB', '--local']);
if (mig.status !== 0) process.exit(mig.status ?? 1);

console.log(`[berth] starting wrangler dev on ${base}`);
const dev = spawn('npx', ['wrangler', 'dev', '--port', port, '--ip', '127.0.0.1', '--show-interactive-dev-session=false'], {
  stdio: 'inherit',
  env: process.env,
});
const stop = () => dev.kill('SIGINT');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
dev.on('exit', (code) => process.exit(code ?? 0));

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

async function trigger(cron) {
  try {
    await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(cron)}`);
  } catch {}
}

if (await waitForHealth()) {
  const r = await fetch(`${base}/__dev/seed`, { method: 'POST', headers: { 'x-seed-token': vars.DEV_SEED_TOKEN ?? '' } });
  const body = await r.text();
  console.log(r.ok ? `[berth] sandbox seeded: ${body}` : `[berth] seeding failed (${r.status}): ${body}`);
  console.log(`[berth] ready: ${base}  (API reference: ${base}/docs)`);
  setInterval(() => trigger('*/5 * * * *'), 5 * 60_000).unref();
  setInterval(() => trigger('0 3 * * *'), 24 * 3600_000).unref();
} else {
  console.error('[berth] the server did not become healthy');
}
