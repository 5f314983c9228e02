// `berth payout-account`: the partner's payout account, where coverage premiums are transferred after each bind
// (GET and POST /partners/payout-account).
import type { Command } from 'commander';
import { partnerApi } from '../lib/api';
import { openBrowser } from '../lib/browser';
import { notFound, usage } from '../lib/errors';
import { co, data, info, isJson, json, success } from '../lib/output';

const PATH = '/partners/payout-account';

interface PayoutAccount {
  accountId: string;
  country: string;
  status: 'onboarding' | 'active';
  payoutsEnabled: boolean;
  onboardingUrl: string | null;
  onboardingExpiresAt: string | null;
  attachedOfferingIds: string[];
}

function print(a: PayoutAccount, o: { browser: boolean }) {
  const k = co();
  data(
    `${a.accountId} (${a.country}): ${a.status === 'active' ? k.green('active') : k.yellow('onboarding')}, payouts ${a.payoutsEnabled ? 'enabled' : 'not enabled yet'}`,
  );
  data(`  offerings attached: ${a.attachedOfferingIds.join(', ') || 'none'}`);
  if (a.onboardingUrl) {
    data(`  finish onboarding: ${a.onboardingUrl}${a.onboardingExpiresAt ? ` (link valid until ${a.onboardingExpiresAt})` : ''}`);
    if (o.browser && !isJson() && openBrowser(a.onboardingUrl)) info('(opened in your browser)');
  }
  json(a);
}

async function show(o: { browser: boolean }) {
  const api = partnerApi();
  const r = await api.request<PayoutAccount>('GET', PATH, { accept: [404] });
  if (r.status === 404) throw notFound('No payout account connected yet', 'Connect one: berth payout-account connect --country US');
  print(r.body, o);
}

async function connect(o: { country: string; browser: boolean }) {
  const country = o.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw usage(`--country must be a two-letter country code (US, GB, DE, CA, CH, ...), not ${o.country}`);
  const a = await partnerApi().post<PayoutAccount>(PATH, { country });
  success(a.status === 'active' ? `Payout account ${a.accountId} is active` : `Payout account ${a.accountId} created: finish the onboarding`);
  print(a, o);
}

export function registerPayout(program: Command) {
  const payout = program
    .command('payout-account')
    .description('Your payout account (coverage premiums are transferred to it after each bind): show it, or connect one');
  payout
    .command('show', { isDefault: true })
    .description('Show the payout account, its onboarding state and the offerings it is attached to (exit 5 before one is connected)')
    .option('--no-browser', 'do not open an unfinished onboarding link')
    .action((o: { browser: boolean }) => show(o));
  payout
    .command('connect')
    .description('Create the payout account in a country (US, the UK, the EEA, Canada, Switzerland) or continue its onboarding')
    .requiredOption('--country <code>', 'two-letter country code of the account')
    .option('--no-browser', 'only print the onboarding link')
    .action((o: { country: string; browser: boolean }) => connect(o));
}
