import { Argument, type Command } from 'commander';
import { APP_EVENTS } from '../../modules/partners/types';
import { partnerApi, type Api } from '../lib/api';
import { openBrowser } from '../lib/browser';
import { apiUrl, APP_FILE, SANDBOX_PATH, SANDBOX_TIMEOUT_MS } from '../lib/config';
import { updateAccount } from '../lib/credentials';
import { holdAndRestore, recordedSession, restoreNow, restoreRecorded, startDevSession, type DevTarget } from '../lib/dev-session';
import { diffFields, diffLines } from '../lib/diff';
import { CliError, EXIT, notFound, refused, usage } from '../lib/errors';
import { c, data, info, isJson, json, success, warn } from '../lib/output';
import { choose, confirmOrRefuse } from '../lib/prompt';
import { readProjectFile, requireProjectFile, writeProjectFile } from '../lib/project';

/** The content of `berth.app.json`: exactly what GET /partners/apps/{appId}/manifest answers. */
export interface AppManifest {
  $schema?: string;
  appId?: string;
  name: string;
  scopes: string[];
  urls: { embed: string | null; redirect: string[] };
  embedLocations: string[];
  webhooks: { url: string | null; events: string[] };
}

interface AppRecord {
  appId: string;
  status: 'draft' | 'in_review' | 'approved';
  reviewReason: string | null;
  version: number;
  manifest: AppManifest;
}

const sortUniq = (l: unknown) => (Array.isArray(l) ? [...new Set(l.map(String))].sort() : []);

/** The file as the server will store it after a push: lists sorted and deduplicated, keys left out emptied. */
export function normalizeManifest(f: Partial<AppManifest>, appId: string): AppManifest {
  return {
    appId,
    name: typeof f.name === 'string' ? f.name.trim() : '',
    scopes: sortUniq(f.scopes),
    urls: { embed: f.urls?.embed ?? null, redirect: sortUniq(f.urls?.redirect) },
    embedLocations: sortUniq(f.embedLocations),
    webhooks: { url: f.webhooks?.url ?? null, events: sortUniq(f.webhooks?.events) },
  };
}

/** The keys of berth.app.json in their one order (README): appId first, then the manifest's fields, nested keys in theirs. */
const APP_FILE_ORDER: [string, string[]?][] = [
  ['appId'],
  ['name'],
  ['scopes'],
  ['urls', ['embed', 'redirect']],
  ['embedLocations'],
  ['webhooks', ['url', 'events']],
];

/** `f` with its keys in the stable order of APP_FILE_ORDER; any other key (`$schema`, ...) follows in the file's own order. */
export function orderedAppFile(f: object): Record<string, unknown> {
  const src = f as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const ordered = (v: unknown, keys: string[]) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries([...keys.filter((k) => k in o), ...Object.keys(o).filter((k) => !keys.includes(k))].map((k) => [k, o[k]]));
  };
  for (const [k, nested] of APP_FILE_ORDER) if (src[k] !== undefined) out[k] = nested ? ordered(src[k], nested) : src[k];
  for (const [k, v] of Object.entries(src)) if (!(k in out)) out[k] = v;
  return out;
}

const NOT_LINKED = `Run \`berth link\` to attach this directory to one of your apps (or \`berth init\` to start one).`;

/** The linked app id of the directory (the `appId` of berth.app.json). */
function linkedAppId(): { appId: string; file: Partial<AppManifest> } {
  const file = requireProjectFile<Partial<AppManifest>>(APP_FILE, NOT_LINKED);
  if (typeof file.appId !== 'string' || !file.appId) throw notFound(`${APP_FILE} is not linked to an app (no appId)`, NOT_LINKED);
  return { appId: file.appId, file };
}

const getApp = (api: Api, appId: string) => api.get<AppRecord>(`/partners/apps/${encodeURIComponent(appId)}`);

/** The signed-in partner's private sandbox operator (created and seeded on first use). */
const partnerSandbox = (api: Api) => api.get<{ customerId: string; name: string }>(SANDBOX_PATH, { timeoutMs: SANDBOX_TIMEOUT_MS });

const devKey = (appId: string) => `app:${appId}`;

// ---- link ----

async function link(appIdArg: string | undefined, o: { create?: boolean }) {
  const api = partnerApi();
  const local = readProjectFile<Partial<AppManifest>>(APP_FILE);
  let appId = appIdArg;
  let created: { clientSecret: string | null; webhookSecret: string } | undefined;
  if (o.create) {
    if (appId) throw usage('Give an app id or --create, not both');
    if (!local) throw notFound(`--create makes an app from ${APP_FILE}, and there is none here`, 'Run `berth init` first.');
    const m = normalizeManifest(local, '');
    const body: Record<string, unknown> = { name: m.name, scopes: m.scopes, urls: m.urls, embedLocations: m.embedLocations, webhooks: m.webhooks };
    const app = await api.post<AppRecord & { clientSecret: string | null; webhookSecret: string }>('/partners/apps', body);
    appId = app.appId;
    created = { clientSecret: app.clientSecret, webhookSecret: app.webhookSecret };
    // The secrets are shown once by the server: kept in the user credentials file only, never in the project.
    updateAccount(apiUrl(), (e) => ({ ...e, appSecrets: { ...(e.appSecrets ?? {}), [app.appId]: created! } }));
    success(`Created app ${app.appId} (${app.manifest.name}); its client and webhook secrets are kept in ~/.berth/credentials.json`);
  }
  if (!appId) {
    const list = await api.get<{ data: AppRecord[] }>('/partners/apps?limit=100');
    if (!list.data.length) throw notFound('Your partner account has no apps yet', 'Run `berth link --create` to create one from berth.app.json.');
    appId = await choose(
      'Which app should this directory use?',
      list.data.map((a) => ({ name: `${a.manifest.name} (${a.appId}, ${a.status})`, value: a.appId })),
      `Pass the app id: berth link <appId>. Your apps: ${list.data.map((a) => `${a.appId} (${a.manifest.name})`).join(', ')}`,
    );
  }
  const app = await getApp(api, appId);
  if (!local) {
    writeProjectFile(APP_FILE, orderedAppFile(app.manifest));
    success(`Linked to ${app.manifest.name} (${app.appId}); wrote ${APP_FILE} from the app record`);
  } else {
    writeProjectFile(APP_FILE, orderedAppFile({ ...local, appId: app.appId }));
    const changes = diffFields(app.manifest, normalizeManifest(local, app.appId));
    success(`Linked to ${app.manifest.name} (${app.appId})`);
    if (changes.length)
      info(`${APP_FILE} differs from the app in ${changes.length} field(s): \`berth push\` applies the file, \`berth pull\` takes the app's.`);
  }
  data(app.appId);
  json({ appId: app.appId, name: app.manifest.name, status: app.status, created: created !== undefined });
}

// ---- pull ----

async function pull(o: { yes?: boolean }) {
  const api = partnerApi();
  const { appId, file } = linkedAppId();
  const app = await getApp(api, appId);
  const remote: AppManifest = structuredClone(app.manifest);
  const dev = recordedSession(apiUrl(), devKey(appId));
  if (dev && remote.urls.embed === dev.url) {
    remote.urls.embed = dev.previous;
    warn(`urls.embed is the development URL of \`berth dev\` (${dev.url}); the file gets the URL it restores: ${dev.previous ?? '(none)'}`);
  }
  const changes = diffFields(normalizeManifest(file, appId), remote);
  if (!changes.length) {
    info(`${APP_FILE} is up to date with ${appId} (version ${app.version})`);
    json({ appId, version: app.version, changes: [], written: false });
    return;
  }
  for (const line of diffLines(changes)) data(line);
  await confirmOrRefuse(`Overwrite ${APP_FILE} with these ${changes.length} change(s) from the app?`, o.yes);
  writeProjectFile(APP_FILE, orderedAppFile({ ...(file.$schema ? { $schema: file.$schema } : {}), ...remote }));
  success(`Wrote ${APP_FILE} (app ${appId}, version ${app.version})`);
  json({ appId, version: app.version, changes, written: true });
}

// ---- push ----

async function push(o: { yes?: boolean }) {
  const api = partnerApi();
  const { appId, file } = linkedAppId();
  const dev = recordedSession(apiUrl(), devKey(appId));
  if (dev?.running)
    throw refused(`\`berth dev\` (pid ${dev.pid}) has urls.embed pointed at ${dev.url}; push would race it`, 'Stop `berth dev` first (Ctrl-C).');
  const local = normalizeManifest(file, appId);
  if (dev && local.urls.embed === dev.url)
    throw refused(
      `${APP_FILE} has the development URL of \`berth dev\` in urls.embed (${dev.url}); it is never pushed`,
      `Set urls.embed to the real URL (before dev it was ${dev.previous ?? '(none)'}), or run \`berth dev --restore\`.`,
    );
  const app = await getApp(api, appId);
  const changes = diffFields(app.manifest, local);
  if (!changes.length) {
    info(`Nothing to push: ${appId} already matches ${APP_FILE} (version ${app.version})`);
    json({ appId, version: app.version, changes: [], applied: false });
    return;
  }
  data(`${c().bold(app.manifest.name)} (${appId}, ${app.status}, version ${app.version}):`);
  for (const line of diffLines(changes)) data(`  ${line}`);
  if (app.status === 'approved') warn('The app is approved: these changes send it back to review (live installs keep the approved version meanwhile).');
  await confirmOrRefuse(`Apply ${changes.length} change(s) to ${appId}?`, o.yes);
  const body = { ...local, ...(file.$schema ? { $schema: file.$schema } : {}) };
  const res = await api.request<AppRecord>('PUT', `/partners/apps/${encodeURIComponent(appId)}/manifest`, {
    body,
    headers: { 'if-match': `"${app.version}"` },
  });
  success(`Pushed to ${appId}: version ${res.body.version}, status ${res.body.status}`);
  json({ appId, version: res.body.version, status: res.body.status, changes, applied: true });
}

// ---- dev ----

function appDevTarget(api: Api, appId: string): DevTarget {
  return {
    apiUrl: api.base,
    key: devKey(appId),
    label: `urls.embed of app ${appId}`,
    restoreHint: (previous) =>
      `berth dev --restore, or PATCH ${api.base}/partners/apps/${appId} with {"urls":{"embed":${JSON.stringify(previous)}}}, or set it in ${APP_FILE} and \`berth push\``,
    apply: async (url) => {
      await api.patch(`/partners/apps/${encodeURIComponent(appId)}`, { urls: { embed: url } });
    },
  };
}

async function dev(o: { url: string; restore?: boolean }) {
  const api = partnerApi();
  const { appId } = linkedAppId();
  const target = appDevTarget(api, appId);
  if (o.restore) {
    const r = await restoreRecorded(target);
    if (r.restored) success(`Restored urls.embed of ${appId} to ${r.url ?? '(none)'}`);
    else info(`No dev session to restore for ${appId}`);
    json({ appId, ...r });
    return;
  }
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw usage(`--url is not a URL: ${o.url}`);
  }
  const app = await getApp(api, appId);
  if (app.status !== 'draft')
    throw refused(
      `${app.manifest.name} (${appId}) is ${app.status === 'approved' ? 'approved' : 'in review'}: dev would change the manifest ${app.status === 'approved' ? 'and send it back to review' : 'under review'}`,
      'Develop against a separate draft app: `berth link --create` in a copy of the project.',
    );
  // The partner's own sandbox (before the embed URL changes: nothing to restore if it cannot be reached).
  const sandbox = await partnerSandbox(api);
  const previous = await startDevSession(target, app.manifest.urls.embed, url.toString());
  try {
    const k = c();
    const links = devLinks(api.base, appId, sandbox.customerId, app.manifest.embedLocations);
    success(`urls.embed of ${app.manifest.name} (${appId}) now points at ${k.bold(url.toString())} (sandbox installs use it at once)`);
    data(`Your sandbox:    ${sandbox.name} (${sandbox.customerId})`);
    data(`Booking page:    ${links.booking}`);
    data(`Installations:   ${links.installations}`);
    for (const p of links.places) data(`Embedded (${p.place}): ${p.url}`);
    if (!links.places.length) data('Embedded:        (no embedLocations in the app; add one to see it in the dashboard)');
    data(`Host SDK:        ${links.hostSdk}`);
    data(`API reference:   ${links.docs}`);
    json({ appId, url: url.toString(), previous, links: { embed: url.toString(), sandbox: { customerId: sandbox.customerId, name: sandbox.name }, ...links } });
    info(`Press Ctrl-C to stop; urls.embed goes back to ${previous ?? '(none)'}.`);
  } catch (err) {
    await restoreNow(target, previous);
    throw err;
  }
  await holdAndRestore(target, previous);
}

/**
 * The links `dev` prints, every one on the configured API's own origin (BERTH_API_URL), so each answers there: the
 * sandbox's booking page, the app's sandbox installations (partner API), what each dashboard place loads (operator API),
 * the host SDK and the API reference.
 */
function devLinks(base: string, appId: string, customerId: string, places: string[]) {
  return {
    booking: `${base}/widget?customer=${encodeURIComponent(customerId)}`,
    installations: `${base}/partners/apps/${encodeURIComponent(appId)}/installations`,
    places: places.map((place) => ({ place, url: `${base}/apps/embeds?embedLocation=${encodeURIComponent(place)}` })),
    hostSdk: `${base}/sdk/host.js`,
    docs: `${base}/docs`,
  };
}

// ---- webhook trigger ----

const EVENTS_HELP = `Accepted events: ${APP_EVENTS.join(', ')}`;

async function webhookTrigger(event: string) {
  if (!(APP_EVENTS as readonly string[]).includes(event)) throw usage(`Unknown event ${event}`, EVENTS_HELP);
  const api = partnerApi();
  const { appId } = linkedAppId();
  const r = await api.post<{
    eventId: string;
    event: string;
    url: string;
    delivered: boolean;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
  }>(`/partners/apps/${encodeURIComponent(appId)}/webhooks/test`, { event });
  data(`${r.event} ${r.eventId} -> ${r.url}: ${r.delivered ? 'delivered' : 'not delivered'} (${r.statusCode ?? r.error ?? 'no answer'}, ${r.durationMs} ms)`);
  json(r);
  if (!r.delivered) throw new CliError(`The receiver did not accept the event: ${r.error ?? `HTTP ${r.statusCode}`}`, EXIT.failure, 'not_delivered');
}

// ---- open ----

const OPEN_TARGETS = ['booking', 'portal', 'docs'] as const;

async function openTarget(target: (typeof OPEN_TARGETS)[number], o: { browser: boolean }) {
  const urls = {
    // The booking page of the partner's own sandbox operator (needs the session: exit 3 when not signed in).
    booking: async () => `${apiUrl()}/widget?customer=${encodeURIComponent((await partnerSandbox(partnerApi())).customerId)}`,
    // The partner API's reference: the partner account, apps, offerings and payout account.
    portal: async () => `${apiUrl()}/docs#tag/partner-accounts`,
    docs: async () => `${apiUrl()}/docs`,
  };
  const url = await urls[target]();
  data(url);
  json({ target, url });
  if (o.browser && !isJson() && openBrowser(url)) info('(opened in your browser)');
}

export function registerApp(program: Command) {
  program
    .command('link')
    .description(`Attach this directory to one of your apps (writes appId into ${APP_FILE})`)
    .argument('[appId]', 'the app to link (asked for on a terminal when left out)')
    .option('--create', `create a new app from ${APP_FILE} and link it (its secrets go to ~/.berth/credentials.json only)`)
    .action((appId: string | undefined, o: { create?: boolean }) => link(appId, o));
  program
    .command('pull')
    .description(`Write the app record into ${APP_FILE} (shows what changes and asks first)`)
    .option('-y, --yes', 'overwrite without asking')
    .action((o: { yes?: boolean }) => pull(o));
  program
    .command('push')
    .description(`Apply ${APP_FILE} to the app after showing a field-by-field diff and asking to confirm`)
    .option('-y, --yes', 'apply without asking (needed when not on a terminal)')
    .action((o: { yes?: boolean }) => push(o));
  program
    .command('dev')
    .description("Point the app's sandbox embed URL at a local app until Ctrl-C, then restore the previous URL")
    .option('--url <url>', 'the local page to embed (http only on localhost)', 'http://localhost:3000/embed')
    .option('--restore', 'restore what an interrupted dev session left behind, then exit')
    .action((o: { url: string; restore?: boolean }) => dev(o));
  const webhook = program.command('webhook').description('Webhook tools');
  webhook
    .command('trigger')
    .description(`Send one signed test event to the app's webhook URL. ${EVENTS_HELP}`)
    .addArgument(new Argument('<event>', 'the event to send').choices(APP_EVENTS as unknown as string[]))
    .action((event: string) => webhookTrigger(event));
  webhook
    .command('events')
    .description('List the events `webhook trigger` accepts')
    .action(() => {
      for (const e of APP_EVENTS) data(e);
      json({ events: APP_EVENTS });
    });
  program
    .command('open')
    .description("Open a sandbox surface on the API's origin: your sandbox's booking page (signed in), the partner API or the API reference (prints the URL)")
    .addArgument(new Argument('[target]', 'what to open').choices(OPEN_TARGETS as unknown as string[]).default('portal'))
    .option('--no-browser', 'only print the URL')
    .action((target: (typeof OPEN_TARGETS)[number], o: { browser: boolean }) => openTarget(target, o));
}
