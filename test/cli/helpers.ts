import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, BIN } from './env';

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface BerthOptions {
  home: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  input?: string;
}

/** The environment of the binary: its own HOME, the Berth under test, nothing of the caller's terminal settings. */
function envFor(o: BerthOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: o.home, BERTH_API_URL: BASE, LANG: 'C' };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Starts the real binary as a child process (stdin, stdout and stderr are pipes: not a terminal). */
export function spawnBerth(args: string[], o: BerthOptions): ChildProcessWithoutNullStreams & { out: () => Run; done: Promise<Run> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd ?? o.home, env: envFor(o) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  if (o.input !== undefined) child.stdin.end(o.input);
  else child.stdin.end();
  return Object.assign(child, { out: () => ({ code: child.exitCode, signal: child.signalCode, stdout, stderr }), done });
}

/** Runs the binary to the end. */
export const berth = (args: string[], o: BerthOptions) => spawnBerth(args, o).done;

/** Waits until `test` holds for the child's output so far. */
export async function waitForOutput(child: { out: () => Run }, test: (r: Run) => boolean, ms = 30_000): Promise<Run> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const r = child.out();
    if (test(r)) return r;
    if (r.code !== null) throw new Error(`the tool exited (${r.code}) first:\n${r.stdout}\n${r.stderr}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`timed out waiting for output:\n${JSON.stringify(child.out(), null, 2)}`);
}

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `berth-cli-${prefix}-`));

export async function api<T = unknown>(
  method: string,
  path: string,
  o: { token?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  let body: string | undefined;
  if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  } else if (o.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.body);
  }
  const r = await fetch(`${BASE}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, body: json as T, headers: r.headers };
}

export interface Partner {
  partnerId: string;
  email: string;
  password: string;
  token: string;
  name: string;
}

/** A new partner account (register answers a session token). */
export async function newPartner(): Promise<Partner> {
  const email = `cli-${randomBytes(6).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const r = await api<{ partner: { partnerId: string; name: string }; token: string }>('POST', '/partners/register', {
    body: { email, password, name: 'CLI Tester', company: 'CLI Test Co' },
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  return { partnerId: r.body.partner.partnerId, email, password, token: r.body.token, name: r.body.partner.name };
}

/** A HOME whose credentials file holds a session of `p` (what `berth login` writes), 0700/0600. */
export function homeWithSession(p: Partner): string {
  const home = tempDir('home');
  const dir = join(home, '.berth');
  mkdirSync(dir, { mode: 0o700 });
  const file = join(dir, 'credentials.json');
  const session = {
    token: p.token,
    expiresAt: new Date(Date.now() + 86400_000).toISOString(),
    partner: { partnerId: p.partnerId, email: p.email, name: p.name, company: 'CLI Test Co' },
    signedInAt: new Date().toISOString(),
  };
  writeFileSync(file, JSON.stringify({ version: 1, accounts: { [BASE]: { session } } }), { mode: 0o600 });
  chmodSync(file, 0o600);
  return home;
}

/** A new draft app of the partner. */
export async function newApp(p: Partner, over: Record<string, unknown> = {}) {
  const r = await api<{ appId: string; webhookSecret: string; clientSecret: string }>('POST', '/partners/apps', {
    token: p.token,
    body: {
      name: 'CLI Test App',
      scopes: ['read:bookings', 'read:locations'],
      urls: { embed: 'https://app.example.com/embed', redirect: ['http://localhost:3000/callback'] },
      embedLocations: ['dashboard'],
      ...over,
    },
  });
  if (r.status !== 201) throw new Error(`create app: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver on 127.0.0.1 (random port) that records requests and answers with `answer`. */
export async function receiver(answer: (r: Received) => { status: number; body?: unknown; delayMs?: number } = () => ({ status: 200, body: { ok: true } })) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      got.push(r);
      const a = answer(r);
      setTimeout(() => {
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}
