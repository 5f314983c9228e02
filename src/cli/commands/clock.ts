// `berth clock`: sandbox test clocks (POST /sandbox/test-clocks ...) with a sandbox operator's admin API key.
import type { Command } from 'commander';
import { Api } from '../lib/api';
import { apiUrl } from '../lib/config';
import { CliError, EXIT, usage } from '../lib/errors';
import { co, data, info, json, success, warn } from '../lib/output';
import { confirmOrRefuse } from '../lib/prompt';

interface TestClock {
  id: string;
  name: string | null;
  status: 'ready' | 'advancing' | 'failed';
  frozenTime: string;
  targetTime: string | null;
  customerId: string;
  failure: { job: string; at: string; error: string } | null;
  progress: { steps: number; ran: Record<string, number> } | null;
  apiKey?: string;
}

/** The sandbox operator's admin key: BERTH_API_KEY (never an argument, so it stays out of shell history). */
function operatorKey(): string {
  const key = process.env.BERTH_API_KEY?.trim();
  if (!key)
    throw usage(
      'No API key: set BERTH_API_KEY to an admin API key of a sandbox operator',
      'Against `npm start` the demo key works: export BERTH_API_KEY=$(grep DEMO_API_KEY .dev.vars | cut -d= -f2)',
    );
  return key;
}

function clockApi() {
  const api = new Api(apiUrl());
  const headers = { 'x-api-key': operatorKey() };
  return {
    get: <T>(path: string) => api.request<T>('GET', path, { headers }).then((r) => r.body),
    post: <T>(path: string, body: unknown) => api.request<T>('POST', path, { headers, body }).then((r) => r.body),
    del: <T>(path: string) => api.request<T>('DELETE', path, { headers }).then((r) => r.body),
  };
}

/** An instant from the command line: ISO 8601 (with an offset or Z), or `+<n><unit>` from a given base (m, h, d, w, mo, y). */
export function parseWhen(value: string, from: number): string {
  const rel = /^\+(\d+)(mo|m|h|d|w|y)$/.exec(value.trim());
  if (rel) {
    const n = Number(rel[1]);
    const d = new Date(from);
    if (rel[2] === 'mo') d.setUTCMonth(d.getUTCMonth() + n);
    else if (rel[2] === 'y') d.setUTCFullYear(d.getUTCFullYear() + n);
    else d.setTime(d.getTime() + n * { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as 'm' | 'h' | 'd' | 'w']);
    return d.toISOString();
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value.trim()))
    throw usage(`Not a time: ${value}`, 'Give ISO 8601 with an offset (2027-01-15T09:00:00-05:00) or a step such as +1mo, +2d, +30m');
  return value.trim();
}

function show(cl: TestClock) {
  const k = co();
  const state = cl.status === 'ready' ? k.green(cl.status) : cl.status === 'failed' ? k.red(cl.status) : k.yellow(cl.status);
  data(`${cl.id}  ${state}  ${cl.frozenTime}${cl.targetTime ? ` -> ${cl.targetTime}` : ''}  operator ${cl.customerId}${cl.name ? `  "${cl.name}"` : ''}`);
  if (cl.failure) data(`  ${k.red('failed')}: job ${cl.failure.job} at ${cl.failure.at}: ${cl.failure.error}`);
}

async function create(o: { time: string; name?: string }) {
  const api = clockApi();
  const cl = await api.post<TestClock>('/sandbox/test-clocks', { frozenTime: parseWhen(o.time, Date.now()), ...(o.name ? { name: o.name } : {}) });
  success(`Created test clock ${cl.id} at ${cl.frozenTime} with a private sandbox operator ${cl.customerId}`);
  show(cl);
  data(`  API key of its operator (shown once): ${cl.apiKey}`);
  info('Use that key to act as the operator; advance with `berth clock advance <id> --to <time>`.');
  json(cl);
}

async function list() {
  const r = await clockApi().get<{ data: TestClock[]; total: number }>('/sandbox/test-clocks?limit=100');
  if (!r.data.length) info('No test clocks yet: `berth clock create --time <ISO time>`');
  for (const cl of r.data) show(cl);
  json(r);
}

async function advance(id: string, o: { to: string; wait: boolean; timeout: string }) {
  const api = clockApi();
  const before = await api.get<TestClock>(`/sandbox/test-clocks/${encodeURIComponent(id)}`);
  let cl = await api.post<TestClock>(`/sandbox/test-clocks/${encodeURIComponent(id)}/advance`, { frozenTime: parseWhen(o.to, Date.parse(before.frozenTime)) });
  info(`Advancing ${cl.id} from ${before.frozenTime} to ${cl.targetTime}`);
  if (o.wait) {
    const deadline = Date.now() + Number(o.timeout) * 1000;
    while (cl.status === 'advancing') {
      if (Date.now() > deadline)
        throw new CliError(`Still advancing after ${o.timeout} s (at ${cl.frozenTime})`, EXIT.failure, 'timeout', 'Check it later with `berth clock list`.');
      await new Promise((r) => setTimeout(r, 500));
      cl = await api.get<TestClock>(`/sandbox/test-clocks/${encodeURIComponent(id)}`);
    }
  }
  show(cl);
  const ran = Object.entries(cl.progress?.ran ?? {});
  if (ran.length) data(`  work done: ${ran.map(([job, n]) => `${job} x${n}`).join(', ')}`);
  json(cl);
  if (cl.status === 'failed') throw new CliError(`The advance stopped at ${cl.frozenTime}: ${cl.failure?.job} failed`, EXIT.failure, 'advance_failed');
  if (cl.status === 'ready') success(`${cl.id} is at ${cl.frozenTime}`);
  else warn(`${cl.id} is still advancing; follow it with \`berth clock list\``);
}

async function remove(id: string, o: { yes?: boolean }) {
  await confirmOrRefuse(`Delete test clock ${id} and every record of its operator?`, o.yes);
  const r = await clockApi().del<{ id: string; deleted: boolean }>(`/sandbox/test-clocks/${encodeURIComponent(id)}`);
  success(`Deleted ${r.id} and its operator`);
  json(r);
}

export function registerClock(program: Command) {
  const clock = program
    .command('clock')
    .description('Sandbox test clocks: a private demo operator whose time moves only when you advance it (needs BERTH_API_KEY, a sandbox admin key)');
  clock
    .command('create')
    .description('Create a clock frozen at a time, with a private sandbox operator seeded with the demo data; prints its API key once')
    .requiredOption('--time <time>', 'ISO 8601 with an offset, or a step from now such as +30d')
    .option('--name <name>', 'a name to recognise it by')
    .action((o: { time: string; name?: string }) => create(o));
  clock
    .command('list')
    .description('Your test clocks')
    .action(() => list());
  clock
    .command('advance')
    .description("Move a clock forward; the operator's scheduled work in between runs in time order")
    .argument('<clockId>', 'the clock (clk_...)')
    .requiredOption('--to <time>', "ISO 8601 with an offset, or a step from the clock's time such as +1mo, +2d, +30m")
    .option('--no-wait', 'return while it is still advancing')
    .option('--timeout <seconds>', 'how long to wait for it to be ready', '300')
    .action((id: string, o: { to: string; wait: boolean; timeout: string }) => advance(id, o));
  clock
    .command('delete')
    .description('Delete a clock and every record of its operator')
    .argument('<clockId>', 'the clock (clk_...)')
    .option('-y, --yes', 'delete without asking')
    .action((id: string, o: { yes?: boolean }) => remove(id, o));
}
