// `berth coverage`: the command group and its options; the commands live in coverage-sync.ts, coverage-review.ts, coverage-dev.ts and coverage-call.ts.
import { Argument, type Command } from 'commander';
import { COVERAGE_FILE } from '../lib/config';
import { usage } from '../lib/errors';
import { ENDPOINTS, type Endpoint } from '../lib/underwriter';
import { call, test } from './coverage-call';
import { dev } from './coverage-dev';
import { secret, status, submit } from './coverage-review';
import { create, link, pull, push } from './coverage-sync';

export type { OfferingFile } from './coverage-offering';

export function registerCoverage(program: Command) {
  const cov = program.command('coverage').description(`Coverage underwriters: the offering as code (${COVERAGE_FILE}) and checks of the six endpoints`);
  cov
    .command('create')
    .description(`Register the offering of ${COVERAGE_FILE}; its signing secret is printed once and saved to ~/.berth/credentials.json`)
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
    .description(
      'Store the signing secret for this machine (read from stdin, BERTH_SIGNING_SECRET or a hidden prompt; never an argument); ' +
        '`secret rotate`: ask Berth for a new one, print it once and store it',
    )
    .addArgument(new Argument('[action]', 'rotate: a new secret (the previous one works 24 more hours)').choices(['rotate']))
    .option('--rotate', 'same as `secret rotate`')
    .option('-y, --yes', 'rotate without asking')
    .action((action: string | undefined, o: { rotate?: boolean; yes?: boolean }) => secret(action, o));
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
