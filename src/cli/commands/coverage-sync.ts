// `berth coverage create`, `link`, `pull`, `push`: the offering as code.
import { partnerApi } from '../lib/api';
import { apiUrl, COVERAGE_FILE } from '../lib/config';
import { recordedSession } from '../lib/dev-session';
import { diffFields, diffLines } from '../lib/diff';
import { notFound, refused } from '../lib/errors';
import { co, data, info, json, success, warn } from '../lib/output';
import { choose, confirmOrRefuse } from '../lib/prompt';
import { readProjectFile, requireProjectFile, writeProjectFile } from '../lib/project';
import {
  devKey,
  EDITABLE,
  fileOf,
  getOffering,
  linkedOffering,
  normalize,
  path,
  REVIEWED,
  secretFor,
  storeSecret,
  type Offering,
  type OfferingFile,
} from './coverage-offering';

// ---- create, link, pull, push ----

export async function create() {
  const api = partnerApi();
  const file = requireProjectFile<Partial<OfferingFile>>(COVERAGE_FILE, 'Create one with `berth init --coverage` first.');
  if (file.offeringId) throw refused(`${COVERAGE_FILE} is already linked to ${file.offeringId}`, 'Use `berth coverage push` to change it.');
  const body = normalize(file);
  const created = await api.post<Offering & { signingSecret: string }>('/partners/coverage/offerings', body);
  // Shown once by the server: printed once here and kept in the user credentials file, never in the project.
  storeSecret(created.offeringId, created.signingSecret);
  writeProjectFile(COVERAGE_FILE, fileOf(created));
  success(`Created offering ${created.offeringId} (${created.name}, ${created.status}); usable in the sandbox now`);
  data(`Signing secret (shown once): ${created.signingSecret}`);
  info(
    'Give it to your underwriter as BERTH_SIGNING_SECRET; this machine keeps it in ~/.berth/credentials.json (`berth coverage secret rotate` makes a new one).',
  );
  data(created.offeringId);
  json({ offeringId: created.offeringId, status: created.status, signingSecret: created.signingSecret, secretStored: true });
}

export async function link(idArg: string | undefined) {
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

export async function pull(o: { yes?: boolean }) {
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

export async function push(o: { yes?: boolean }) {
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
