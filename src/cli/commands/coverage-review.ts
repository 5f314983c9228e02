// `berth coverage secret`, `status`, `submit`: what an offering needs before review, and sending it there.
import { partnerApi } from '../lib/api';
import { envVar } from '../lib/config';
import { usage } from '../lib/errors';
import { co, data, info, json, success } from '../lib/output';
import { askSecret, confirmOrRefuse, interactive, readStdin } from '../lib/prompt';
import { linkedOffering, path, secretFor, storeSecret, type Offering } from './coverage-offering';

// ---- secret, status, submit ----

/** `berth coverage secret rotate` (or `--rotate`): a new secret from Berth, printed once and stored; the previous one works 24 more hours. */
async function rotateSecret(offeringId: string, yes?: boolean) {
  const api = partnerApi();
  await confirmOrRefuse(`Rotate the signing secret of ${offeringId}? The current one keeps working for 24 hours.`, yes);
  const r = await api.post<{ signingSecret: string; previousValidUntil: string }>(path(offeringId, '/secret'));
  storeSecret(offeringId, r.signingSecret);
  success(`Rotated; the new signing secret is stored in ~/.berth/credentials.json and the previous one works until ${r.previousValidUntil}`);
  data(`New signing secret (shown once): ${r.signingSecret}`);
  info('Give it to your underwriter as BERTH_SIGNING_SECRET (comma-separated with the previous one until then).');
  json({ offeringId, rotated: true, signingSecret: r.signingSecret, previousValidUntil: r.previousValidUntil });
}

export async function secret(action: string | undefined, o: { rotate?: boolean; yes?: boolean }) {
  const { offeringId } = linkedOffering();
  if (action !== undefined && action !== 'rotate') throw usage(`Unknown secret action ${action}`, 'berth coverage secret [rotate]');
  if (action === 'rotate' || o.rotate) return await rotateSecret(offeringId, o.yes);
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

export async function status() {
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

export async function submit() {
  const api = partnerApi();
  const { offeringId } = linkedOffering();
  const r = await api.post<Offering>(path(offeringId, '/submit'));
  success(`Sent ${offeringId} to review (status ${r.status})`);
  json({ offeringId, status: r.status });
}
