/**
 * Starts the Berth under test for the CLI tests: local D1 migrations on a fresh state directory,
 * `wrangler dev` on 127.0.0.1:8809 (the development entry point, with the values of
 * .dev.vars.example passed as --var, so a clean clone needs no .dev.vars), then the sandbox seed.
 * Teardown stops wrangler by killing its process group and removes the state directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, PORT, ROOT, devVars } from './env';

function run(cmd: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}\n${out.slice(-3000)}`))));
  });
}

async function waitForHealth(dev: ChildProcess, logPath: string) {
  const end = Date.now() + 150_000;
  while (Date.now() < end) {
    if (dev.exitCode !== null) throw new Error(`wrangler dev exited (${dev.exitCode}):\n${readFileSync(logPath, 'utf8').slice(-3000)}`);
    try {
      if ((await fetch(`${BASE}/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 400));
  }
  throw new Error(`wrangler dev did not answer ${BASE}/health:\n${readFileSync(logPath, 'utf8').slice(-3000)}`);
}

export default async function setup() {
  try {
    await fetch(`${BASE}/health`, { signal: AbortSignal.timeout(1000) });
    throw new Error(`port ${PORT} is already in use; the CLI tests start their own Berth there`);
  } catch (err) {
    if ((err as Error).message.includes('already in use')) throw err;
  }
  const state = mkdtempSync(join(tmpdir(), 'berth-cli-e2e-'));
  await run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
  const logPath = join(state, 'wrangler-dev.log');
  const log = openSync(logPath, 'w');
  // The partner CLI's local loops (a local webhook receiver, `berth coverage dev`) need partners' loopback URLs: the owner's opt-in.
  const vars = Object.entries({ ...devVars(), DEV_PARTNER_LOOPBACK: 'on' }).flatMap(([k, v]) => ['--var', `${k}:${v}`]);
  const dev = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(PORT), '--ip', '127.0.0.1', '--persist-to', state, '--show-interactive-dev-session=false', ...vars],
    { cwd: ROOT, stdio: ['ignore', log, log], detached: true, env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' } },
  );
  const stop = () => {
    try {
      process.kill(-dev.pid!, 'SIGTERM');
    } catch {}
  };
  try {
    await waitForHealth(dev, logPath);
    const r = await fetch(`${BASE}/__dev/seed`, { method: 'POST', headers: { 'x-seed-token': devVars().DEV_SEED_TOKEN ?? '' } });
    if (!r.ok) throw new Error(`seeding failed: ${r.status} ${await r.text()}`);
  } catch (err) {
    stop();
    throw err;
  }
  return async () => {
    stop();
    await new Promise((r) => setTimeout(r, 500));
    try {
      process.kill(-dev.pid!, 'SIGKILL');
    } catch {}
    if (!process.env.BERTH_CLI_KEEP) rmSync(state, { recursive: true, force: true });
  };
}
