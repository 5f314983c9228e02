import type { Command } from 'commander';
import { partnerApi, type Api } from '../lib/api';
import { apiUrl, COVERAGE_FILE, envVar } from '../lib/config';
import { accountOf, updateAccount } from '../lib/credentials';
import { holdAndRestore, recordedSession, restoreNow, restoreRecorded, startDevSession, type DevTarget } from '../lib/dev-session';
import { diffFields, diffLines } from '../lib/diff';
import { CliError, EXIT, notFound, refused, usage } from '../lib/errors';
import { c, co, data, info, isJson, json, success, warn } from '../lib/output';
import { askSecret, choose, confirmOrRefuse, interactive, readStdin } from '../lib/prompt';
import { readProjectFile, requireProjectFile, writeProjectFile } from '../lib/project';
import { callUnderwriter, DEADLINE_MS, ENDPOINTS, requireSecret, sampleBind, sampleQuote, sampleWindow, type Endpoint } from '../lib/underwriter';
import { printResults, runCoverageTest } from './coverage-test';

/** The content of `berth.coverage.json`: the offering as code (no secret, ever). */
export interface OfferingFile {
  offeringId?: string;
  name: string;
  supportEmail: string;
  baseUrl: string;
  supportedCountries: string[];
  currencies: string[];
  quoteTimeoutMs: number;
  enabled?: boolean;
}

interface Offering extends OfferingFile {
  offeringId: string;
  status: 'draft' | 'in_review' | 'approved';
  enabled: boolean;
  version: number;
  secret: { present: boolean; prefix: string | null };
  review: { reasons: string[] | null; note: string | null };
}

const EDITABLE = ['name', 'supportEmail', 'baseUrl', 'supportedCountries', 'currencies', 'quoteTimeoutMs', 'enabled'] as const;
/** Changes that send an approved offering back to review. */
const REVIEWED = ['baseUrl', 'supportedCountries', 'currencies'];

const sortUniq = (l: unknown, up = false) =>
  Array.isArray(l) ? [...new Set(l.map((v) => (up ? String(v).toUpperCase() : String(v).toLowerCase())))].sort() : [];

/** The offering file as the server stores it: countries upper case, currencies lower case, lists sorted. */
function normalize(f: Partial<OfferingFile>): OfferingFile {
  return {
    name: typeof f.name === 'string' ? f.name.trim() : '',
    supportEmail: typeof f.supportEmail === 'string' ? f.supportEmail.trim() : '',
    baseUrl: typeof f.baseUrl === 'string' ? f.baseUrl.trim() : '',
    supportedCountries: sortUniq(f.supportedCountries, true),
    currencies: sortUniq(f.currencies),
    quoteTimeoutMs: typeof f.quoteTimeoutMs === 'number' ? f.quoteTimeoutMs : 2000,
    enabled: f.enabled ?? true,
  };
}

const fileOf = (o: Offering): OfferingFile => ({ offeringId: o.offeringId, ...normalize(o) });

const NOT_LINKED = 'Run `berth coverage create` (new offering) or `berth coverage link` (existing one).';
const devKey = (id: string) => `coverage:${id}`;

function linkedOffering(): { offeringId: string; file: Partial<OfferingFile> } {
  const file = requireProjectFile<Partial<OfferingFile>>(COVERAGE_FILE, `Create one with \`berth init --coverage\`. ${NOT_LINKED}`);
  if (typeof file.offeringId !== 'string' || !file.offeringId) throw notFound(`${COVERAGE_FILE} is not linked to an offering (no offeringId)`, NOT_LINKED);
  return { offeringId: file.offeringId, file };
}

const path = (id: string, rest = '') => `/partners/coverage/offerings/${encodeURIComponent(id)}${rest}`;
const getOffering = (api: Api, id: string) => api.get<Offering>(path(id));

/** The secret for calls: the environment first, then the one stored for the offering. */
function secretFor(offeringId: string | undefined): string | undefined {
  return envVar('SIGNING_SECRET') ?? (offeringId ? accountOf(apiUrl()).coverageSecrets?.[offeringId] : undefined);
}

function storeSecret(offeringId: string, secret: string) {
  updateAccount(apiUrl(), (e) => ({ ...e, coverageSecrets: { ...(e.coverageSecrets ?? {}), [offeringId]: secret } }));
}

// ---- create, link, pull, push ----

async function create() {
  const api = partnerApi();
  const file = requireProjectFile<Partial<OfferingFile>>(COVERAGE_FILE, 'Create one with `berth init --coverage` first.');
  if (file.offeringId) throw refused(`${COVERAGE_FILE} is already linked to ${file.offeringId}`, 'Use `berth coverage push` to change it.');
  const body = normalize(file);
  const created = await api.post<Offering & { signingSecret: string }>('/partners/coverage/offerings', body);
  // Shown once by the server: kept in the user credentials file only, never printed, never in the project.
  storeSecret(created.offeringId, created.signingSecret);
  writeProjectFile(COVERAGE_FILE, fileOf(created));
  success(`Created offering ${created.offeringId} (${created.name}, ${created.status}); usable in the sandbox now`);
  info(`Its signing secret is stored in ~/.berth/credentials.json (shown nowhere). Give it to your underwriter as BERTH_SIGNING_SECRET.`);
  data(created.offeringId);
  json({ offeringId: created.offeringId, status: created.status, secretStored: true });
}

async function link(idArg: string | undefined) {
  const api = partnerApi();
  let id = idArg;
  if (!id) {
    const list = await api.get<{ data: Offering[] }>('/partners/coverage/offerings?limit=100');
    if (!list.data.length) throw notFound('Your partner account has no offerings yet', 'Run `berth coverage create`.');
    id = await choose(
      'Which offering should this directory use?',
      list.data.map((o) => ({ name: `${o.name} (${o.offeringId}, ${o.status})`, value: o.offeringId })),
      `Pass the offering id: berth coverage link <offeringId>. Yours: ${list.data.map((o) => `${o.offeringId} (${o.name})`).join(', ')}`,
    );
  }
  const offering = await getOffering(api, id);
  const local = readProjectFile<Partial<OfferingFile>>(COVERAGE_FILE);
  writeProjectFile(COVERAGE_FILE, local ? { offeringId: offering.offeringId, ...local } : fileOf(offering));
  success(`Linked to ${offering.name} (${offering.offeringId})`);
  if (!secretFor(offering.offeringId)) info('No signing secret for it on this machine: `berth coverage secret` stores it.');
  data(offering.offeringId);
  json({ offeringId: offering.offeringId, name: offering.name, status: offering.status });
}

async function pull(o: { yes?: boolean }) {
  const api = partnerApi();
  const { offeringId, file } = linkedOffering();
  const remote = fileOf(await getOffering(api, offeringId));
  const dev = recordedSession(apiUrl(), devKey(offeringId));
  if (dev && remote.baseUrl === dev.url && dev.previous) {
    remote.baseUrl = dev.previous;
    warn(`baseUrl is the URL of \`berth coverage dev\` (${dev.url}); the file gets the URL it restores: ${dev.previous}`);
  }
  const changes = diffFields({ offeringId, ...normalize(file) }, remote);
  if (!changes.length) {
    info(`${COVERAGE_FILE} is up to date with ${offeringId}`);
    json({ offeringId, changes: [], written: false });
    return;
  }
  for (const line of diffLines(changes)) data(line);
  await confirmOrRefuse(`Overwrite ${COVERAGE_FILE} with these ${changes.length} change(s)?`, o.yes);
  writeProjectFile(COVERAGE_FILE, remote);
  success(`Wrote ${COVERAGE_FILE} (offering ${offeringId})`);
  json({ offeringId, changes, written: true });
}

async function push(o: { yes?: boolean }) {
  const api = partnerApi();
  const { offeringId, file } = linkedOffering();
  const dev = recordedSession(apiUrl(), devKey(offeringId));
  if (dev?.running) throw refused(`\`berth coverage dev\` (pid ${dev.pid}) has baseUrl pointed at ${dev.url}`, 'Stop it first (Ctrl-C).');
  const local = normalize(file);
  if (dev && local.baseUrl === dev.url)
    throw refused(`${COVERAGE_FILE} has the URL of \`berth coverage dev\` (${dev.url}); it is never pushed`, `Before dev it was ${dev.previous ?? '(none)'}.`);
  const offering = await getOffering(api, offeringId);
  const changes = diffFields(normalize(offering), local);
  if (!changes.length) {
    info(`Nothing to push: ${offeringId} already matches ${COVERAGE_FILE}`);
    json({ offeringId, changes: [], applied: false });
    return;
  }
  data(`${co().bold(offering.name)} (${offeringId}, ${offering.status}):`);
  for (const line of diffLines(changes)) data(`  ${line}`);
  if (offering.status === 'approved' && changes.some((ch) => REVIEWED.includes(ch.field)))
    warn('The offering is approved: a change of baseUrl, countries or currencies sends it back to review (live operators stop being offered it meanwhile).');
  await confirmOrRefuse(`Apply ${changes.length} change(s) to ${offeringId}?`, o.yes);
  const patch: Record<string, unknown> = {};
  for (const k of EDITABLE) if (changes.some((ch) => ch.field === k)) patch[k] = local[k];
  const updated = await api.patch<Offering>(path(offeringId), patch);
  success(`Pushed to ${offeringId}: status ${updated.status}`);
  json({ offeringId, status: updated.status, changes, applied: true });
}

// ---- secret, status, submit ----

async function secret(o: { rotate?: boolean; yes?: boolean }) {
  const { offeringId } = linkedOffering();
  if (o.rotate) {
    const api = partnerApi();
    await confirmOrRefuse(`Rotate the signing secret of ${offeringId}? The current one keeps working for 24 hours.`, o.yes);
    const r = await api.post<{ signingSecret: string; previousValidUntil: string }>(path(offeringId, '/secret'));
    storeSecret(offeringId, r.signingSecret);
    success(`New signing secret stored in ~/.berth/credentials.json; the previous one works until ${r.previousValidUntil}`);
    json({ offeringId, rotated: true, previousValidUntil: r.previousValidUntil });
    return;
  }
  // Never an argument: the environment, stdin, or a hidden prompt.
  let value = envVar('SIGNING_SECRET');
  let from = 'BERTH_SIGNING_SECRET';
  if (!value && !process.stdin.isTTY) {
    value = (await readStdin()).trim();
    from = 'stdin';
  }
  if (!value && interactive()) {
    value = (await askSecret(`Signing secret of ${offeringId}`)).trim();
    from = 'the prompt';
  }
  if (!value) throw usage('No secret given', 'Pipe it on stdin (berth coverage secret < file), set BERTH_SIGNING_SECRET, or run it in a terminal.');
  if (value.length < 16 || /\s/.test(value)) throw usage('That does not look like a signing secret (cvs_...)');
  storeSecret(offeringId, value);
  success(`Stored the signing secret of ${offeringId} (from ${from}) in ~/.berth/credentials.json`);
  json({ offeringId, stored: true });
}

async function status() {
  const api = partnerApi();
  const { offeringId } = linkedOffering();
  const r = await api.get<{
    status: string;
    ready: boolean;
    missing: { item: string; message: string }[];
    payoutAccount: { accountId: string; country: string; status: string } | null;
    supportedCountries: string[];
    currencies: string[];
  }>(path(offeringId, '/status'));
  const k = co();
  data(`${offeringId}: ${r.status}, ${r.ready ? k.green('ready for review') : k.yellow('not ready for review')}`);
  for (const m of r.missing) data(`  ${k.red('-')} ${m.item}: ${m.message}`);
  data(`  payout account: ${r.payoutAccount ? `${r.payoutAccount.accountId} (${r.payoutAccount.country}, ${r.payoutAccount.status})` : 'none'}`);
  data(`  countries: ${r.supportedCountries.join(', ') || 'none'}; currencies: ${r.currencies.join(', ') || 'none'}`);
  data(`  signing secret on this machine: ${secretFor(offeringId) ? 'yes' : 'no'}`);
  json({ offeringId, ...r, secretOnThisMachine: Boolean(secretFor(offeringId)) });
}

async function submit() {
  const api = partnerApi();
  const { offeringId } = linkedOffering();
  const r = await api.post<Offering>(path(offeringId, '/submit'));
  success(`Sent ${offeringId} to review (status ${r.status})`);
  json({ offeringId, status: r.status });
}

// ---- dev ----

function devTarget(api: Api, offeringId: string): DevTarget {
  return {
    apiUrl: api.base,
    key: devKey(offeringId),
    label: `baseUrl of offering ${offeringId}`,
    restoreHint: (previous) => `berth coverage dev --restore, or set baseUrl to ${previous ?? '(none)'} in ${COVERAGE_FILE} and \`berth coverage push\``,
    apply: async (url) => {
      if (url === null) throw new CliError('There is no baseUrl to restore', EXIT.failure);
      await api.patch(path(offeringId), { baseUrl: url });
    },
  };
}

async function dev(o: { url?: string; restore?: boolean }) {
  const api = partnerApi();
  const { offeringId } = linkedOffering();
  const target = devTarget(api, offeringId);
  if (o.restore) {
    const r = await restoreRecorded(target);
    if (r.restored) success(`Restored baseUrl of ${offeringId} to ${r.url ?? '(none)'}`);
    else info(`No dev session to restore for ${offeringId}`);
    json({ offeringId, ...r });
    return;
  }
  if (!o.url) throw usage('coverage dev needs --url https://... (where your underwriter answers now)');
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw usage(`--url is not a URL: ${o.url}`);
  }
  if (url.protocol !== 'https:') throw usage('--url must be https (Berth calls underwriters over https only); use a tunnel to your local server');
  const offering = await getOffering(api, offeringId);
  if (offering.status !== 'draft')
    throw refused(
      `${offering.name} (${offeringId}) is ${offering.status === 'approved' ? 'approved' : 'in review'}: coverage dev would change its baseUrl${offering.status === 'approved' ? ' and send it back to review' : ''}`,
      'Develop against a separate draft offering.',
    );
  const previous = await startDevSession(target, offering.baseUrl, url.toString().replace(/\/$/, ''));
  try {
    success(`baseUrl of ${offering.name} (${offeringId}) now points at ${c().bold(url.toString())} (the sandbox calls it at once)`);
    data(`Call log:  ${api.base}${path(offeringId, '/calls')}`);
    data(`Check it:  berth coverage test --url ${url.toString().replace(/\/$/, '')}`);
    json({ offeringId, url: url.toString().replace(/\/$/, ''), previous });
    info(`Press Ctrl-C to stop; baseUrl goes back to ${previous ?? '(none)'}.`);
  } catch (err) {
    await restoreNow(target, previous);
    throw err;
  }
  await holdAndRestore(target, previous);
}

// ---- call, test ----

/** Where calls go and with which secret: --url or the offering file's baseUrl; the environment or the stored secret. */
function callTarget(urlOpt: string | undefined) {
  const file = readProjectFile<Partial<OfferingFile>>(COVERAGE_FILE);
  const baseUrl = urlOpt ?? file?.baseUrl;
  if (!baseUrl) throw usage(`No URL: pass --url or run it where ${COVERAGE_FILE} names baseUrl`);
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error();
  } catch {
    throw usage(`Not an http(s) URL: ${baseUrl}`);
  }
  const offeringId = typeof file?.offeringId === 'string' ? file.offeringId : undefined;
  const f = normalize(file ?? {});
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    offeringId,
    secret: requireSecret(secretFor(offeringId), offeringId),
    currency: f.currencies[0] ?? 'usd',
    country: f.supportedCountries[0] ?? 'US',
  };
}

function sampleBody(endpoint: Endpoint, t: { offeringId?: string; currency: string; country: string }) {
  const window = sampleWindow();
  switch (endpoint) {
    case 'quote':
      return sampleQuote({ offeringId: t.offeringId, currency: t.currency, country: t.country, window });
    case 'schema':
      return { version: 'v1' };
    case 'requote':
      return { quoteId: 'QUOTE_ID', requestId: 'cq_cli_call', currency: t.currency, answers: {}, window };
    case 'bind':
      return sampleBind({ quoteId: 'QUOTE_ID', premium: 12.5, currency: t.currency, answers: {}, window, reference: 'cvp_cli_call' });
    case 'reschedule':
      return { policyNumber: 'POLICY_NUMBER', quoteId: 'QUOTE_ID', reference: 'cvp_cli_call', idempotencyKey: 'cvp_cli_call', window, previousWindow: window };
    case 'cancel':
      return { quoteId: 'QUOTE_ID', policyNumber: 'POLICY_NUMBER', reference: 'cvp_cli_call', reason: 'booking_cancelled' };
  }
}

async function call(endpoint: Endpoint, o: { data?: string; url?: string }) {
  const t = callTarget(o.url);
  let rawBody: string | undefined;
  if (o.data !== undefined) {
    try {
      JSON.parse(o.data);
    } catch (err) {
      throw usage(`--data is not JSON: ${(err as Error).message}`);
    }
    rawBody = o.data;
  }
  const r = await callUnderwriter(t.baseUrl, endpoint, sampleBody(endpoint, t), {
    secret: t.secret,
    offeringId: t.offeringId,
    timeoutMs: DEADLINE_MS[endpoint],
    rawBody,
  });
  const k = co();
  const shown = { ...r.headers, 'x-service-signature': `${r.headers['x-service-signature'].slice(0, 12)}...` };
  data(k.bold(`POST ${r.url}`));
  for (const [h, v] of Object.entries(shown)) data(`${h}: ${v}`);
  data('');
  data(r.body);
  data('');
  data(k.bold(`${r.status === null ? `no answer: ${r.error}` : `HTTP ${r.status}`}  ${r.ms} ms`));
  if (r.text) data(r.json !== undefined ? JSON.stringify(r.json, null, 2) : r.text);
  json({
    request: { method: 'POST', url: r.url, headers: shown, body: JSON.parse(r.body) as unknown },
    status: r.status,
    ms: r.ms,
    error: r.error,
    body: r.json ?? (r.text || null),
  });
  if (r.status === null)
    throw new CliError(`No answer from ${r.url}: ${r.error}`, r.error?.startsWith('no answer within') ? EXIT.failure : EXIT.network, 'no_answer');
  if (r.status !== 200) throw new CliError(`${r.url} answered HTTP ${r.status}, not 200`, EXIT.failure, 'not_200');
}

async function test(o: { url?: string }) {
  const t = callTarget(o.url);
  if (!isJson()) info(`Running the six checks against ${t.baseUrl} (signed as Berth signs; /quote within 800 ms)`);
  const results = await runCoverageTest(t);
  printResults(t.baseUrl, results);
}

export function registerCoverage(program: Command) {
  const cov = program.command('coverage').description(`Coverage underwriters: the offering as code (${COVERAGE_FILE}) and checks of the six endpoints`);
  cov
    .command('create')
    .description(`Register the offering of ${COVERAGE_FILE}; its signing secret is saved to ~/.berth/credentials.json only`)
    .action(() => create());
  cov
    .command('link')
    .description(`Attach this directory to one of your offerings (writes offeringId into ${COVERAGE_FILE})`)
    .argument('[offeringId]', 'the offering (asked for on a terminal when left out)')
    .action((id: string | undefined) => link(id));
  cov
    .command('pull')
    .description(`Write the offering into ${COVERAGE_FILE} (shows what changes and asks first)`)
    .option('-y, --yes', 'overwrite without asking')
    .action((o: { yes?: boolean }) => pull(o));
  cov
    .command('push')
    .description(`Apply ${COVERAGE_FILE} to the offering after a field-by-field diff and a confirmation`)
    .option('-y, --yes', 'apply without asking (needed when not on a terminal)')
    .action((o: { yes?: boolean }) => push(o));
  cov
    .command('secret')
    .description('Store the signing secret for this machine (read from stdin, BERTH_SIGNING_SECRET or a hidden prompt; never an argument)')
    .option('--rotate', 'ask Berth for a new secret (the previous one works 24 more hours) and store it')
    .option('-y, --yes', 'rotate without asking')
    .action((o: { rotate?: boolean; yes?: boolean }) => secret(o));
  cov
    .command('status')
    .description('What must still be true before review')
    .action(() => status());
  cov
    .command('submit')
    .description('Send the offering for review')
    .action(() => submit());
  cov
    .command('dev')
    .description("Point the offering's baseUrl at your underwriter while you work; restore it on exit (Ctrl-C)")
    .option('--url <url>', 'https URL where your underwriter answers now')
    .option('--restore', 'restore what an interrupted dev session left behind, then exit')
    .action((o: { url?: string; restore?: boolean }) => dev(o));
  cov
    .command('call')
    .description('Send one signed request to one endpoint; prints request, status, timing and body; exits non-zero on anything but 200')
    .argument('<endpoint>', `one of ${ENDPOINTS.join(', ')}`)
    .option('--data <json>', 'the request body (replaces the sample body)')
    .option('--url <url>', `send to this base URL instead of the baseUrl of ${COVERAGE_FILE}`)
    .action((endpoint: string, o: { data?: string; url?: string }) => {
      if (!(ENDPOINTS as readonly string[]).includes(endpoint)) throw usage(`Unknown endpoint ${endpoint}`, `One of ${ENDPOINTS.join(', ')}`);
      return call(endpoint as Endpoint, o);
    });
  cov
    .command('test')
    .description('Run the six checks against the underwriter (signed as Berth signs, Berth deadlines); exits non-zero on any failure')
    .option('--url <url>', `check this base URL instead of the baseUrl of ${COVERAGE_FILE}`)
    .action((o: { url?: string }) => test(o));
}
