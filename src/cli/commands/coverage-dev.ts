// `berth coverage dev`: the offering's baseUrl pointed at the underwriter while you work, restored on exit.
import { partnerApi, type Api } from '../lib/api';
import { COVERAGE_FILE } from '../lib/config';
import { holdAndRestore, restoreNow, restoreRecorded, startDevSession, type DevTarget } from '../lib/dev-session';
import { CliError, EXIT, refused, usage } from '../lib/errors';
import { c, data, info, json, success } from '../lib/output';
import { devKey, getOffering, linkedOffering, path } from './coverage-offering';

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

export async function dev(o: { url?: string; restore?: boolean }) {
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
