#!/usr/bin/env node
/**
 * Runs OCTO's own supplier validator (the open-source octotravel/validator, its supplier validation
 * flows: supplier, products, availability calendar, availability check, reservation, extend,
 * confirmation, update, cancellation, get, list, with their bad-request scenarios) against a running
 * Berth, and prints every flow and scenario with the validator's errors and warnings.
 *
 *   git clone https://github.com/octotravel/validator /path/to/validator       # once, with network
 *   PORT=8787 npm start                                                         # another terminal
 *   OCTO_VALIDATOR_DIR=/path/to/validator node scripts/octo-validate.mjs [--base http://127.0.0.1:8787] [--key rtc_test_...]
 *
 * The validator's web service needs Postgres; only its supplier flows are used here, bundled with
 * esbuild and run as the validator's controller runs them (minus its request log). Their npm
 * dependencies are installed on first use into node_modules/.cache/octo-validator
 * (OCTO_DEPS_DIR to put them elsewhere). The key defaults to DEMO_CHANNEL_TEST_KEY of .dev.vars (the sandbox reseller: it sells Demo Marina, whose harbor
 * cruise is listed first so every test reservation lands on a departure with room). Exit code 0 when
 * every scenario succeeds; warnings are listed. The octo/pricing capability is requested (its prices are
 * validated too) unless `--no-pricing`. A test key's sandbox is reset first (`--no-reset` keeps it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const base = (arg('base') ?? process.env.OCTO_BASE ?? 'http://127.0.0.1:8787').replace(/\/$/, '');
const devVars = existsSync(path.join(root, '.dev.vars')) ? readFileSync(path.join(root, '.dev.vars'), 'utf8') : '';
const key =
  arg('key') ??
  process.env.OCTO_KEY ??
  /^DEMO_CHANNEL_TEST_KEY=(.*)$/m
    .exec(devVars)?.[1]
    ?.trim()
    .replace(/^["']|["']$/g, '');
const validatorDir = path.resolve(arg('validator') ?? process.env.OCTO_VALIDATOR_DIR ?? '');
const flowsDir = path.join(validatorDir, 'backend/src/common/validation/supplier/services/validation');

if (!key) throw new Error('No key: pass --key rtc_test_... or set DEMO_CHANNEL_TEST_KEY in .dev.vars');
if (!existsSync(path.join(flowsDir, 'Flows'))) {
  console.error(`OCTO_VALIDATOR_DIR must point at a checkout of https://github.com/octotravel/validator (not found: ${flowsDir})`);
  process.exit(2);
}

// The supplier flows' dependencies (the versions the validator's package.json names, or the nearest published).
const deps = path.resolve(process.env.OCTO_DEPS_DIR ?? path.join(root, 'node_modules/.cache/octo-validator'));
const PACKAGES = [
  '@octocloud/core@1.0.57',
  '@octocloud/types@2.0.4',
  'yup@0.32.11',
  'ramda@0.28.0',
  'date-fns@4.1.0',
  'date-fns-tz@3.2.0',
  'uuid@9.0.0',
  '@needle-di/core@0.10.1',
];
if (!existsSync(path.join(deps, 'node_modules/@octocloud/core'))) {
  mkdirSync(deps, { recursive: true });
  writeFileSync(path.join(deps, 'package.json'), '{"name":"octo-validator-deps","private":true}\n');
  console.log('Installing the validator flows dependencies (npm)...');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', deps, ...PACKAGES], { stdio: 'inherit' });
}

const FLOWS = [
  ['Supplier/SupplierFlow', 'SupplierFlow'],
  ['Product/ProductFlow', 'ProductFlow'],
  ['Availability/AvailabilityCalendarFlow', 'AvailabilityCalendarFlow'],
  ['Availability/AvailabilityFlow', 'AvailabilityFlow'],
  ['Booking/BookingReservationFlow', 'BookingReservationFlow'],
  ['Booking/BookingExtendFlow', 'BookingExtendFlow'],
  ['Booking/BookingConfirmationFlow', 'BookingConfirmationFlow'],
  ['Booking/BookingUpdateFlow', 'BookingUpdateFlow'],
  ['Booking/BookingCancellationFlow', 'BookingCancellationFlow'],
  ['Booking/BookingGetFlow', 'BookingGetFlow'],
  ['Booking/BookingListFlow', 'BookingListFlow'],
];
const entry = path.join(deps, 'entry.ts');
writeFileSync(
  entry,
  `${FLOWS.map(([file, name]) => `import { ${name} } from ${JSON.stringify(path.join(flowsDir, 'Flows', file))};`).join('\n')}
import { Context } from ${JSON.stringify(path.join(flowsDir, 'context/Context'))};

const context = new Context();
context.setSchema({ backend: { endpoint: process.env.OCTO_ENDPOINT!, headers: { Authorization: 'Bearer ' + process.env.OCTO_KEY } } });
context.useRequestContext = false;
// The validator's capability flow is disabled upstream; ask for octo/pricing (the one it checks) unless --no-pricing.
if (process.env.OCTO_PRICING !== '0') context.setCapabilities([{ id: 'octo/pricing' }] as never);
async function main() {
  const results = [];
  for (const flow of [${FLOWS.map(([, name]) => `new ${name}()`).join(', ')}]) {
    results.push(await flow.validate(context));
    if (context.terminateValidation) break;
  }
  process.stdout.write('\\n@@RESULTS@@' + JSON.stringify(results) + '\\n');
}
main().catch((e) => { console.error(e); process.exit(1); });
`,
);
const bundle = path.join(deps, 'validator.cjs');
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: bundle,
  nodePaths: [path.join(deps, 'node_modules')],
  logLevel: 'error',
});

// A test key starts from a clean sandbox (its channel and OCTO bookings wiped): the validator books the same departure every run.
if (key.startsWith('rtc_test_') && !process.argv.includes('--no-reset')) {
  const r = await fetch(`${base}/channel/v1/sandbox/reset`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  console.log(`Sandbox reset: ${r.status} ${await r.text()}`);
}
console.log(`OCTO validator against ${base}/octo/v1 with key ${key.slice(0, 13)}...`);
const run = spawnSync(process.execPath, [bundle], {
  env: { ...process.env, OCTO_ENDPOINT: `${base}/octo/v1`, OCTO_KEY: key, OCTO_PRICING: process.argv.includes('--no-pricing') ? '0' : '1' },
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const marker = run.stdout.indexOf('@@RESULTS@@');
if (run.status !== 0 || marker < 0) {
  console.error(run.stdout.slice(-4000), run.stderr.slice(-4000));
  process.exit(1);
}
const results = JSON.parse(run.stdout.slice(marker + '@@RESULTS@@'.length));
let failed = 0;
let warnings = 0;
for (const flow of results) {
  console.log(`\n${flow.success ? 'PASS' : 'FAIL'}  ${flow.name}  (${flow.succesScenarios}/${flow.totalScenarios} scenarios, ${flow.validationResult})`);
  for (const s of flow.scenarios) {
    console.log(`  ${s.success ? 'ok  ' : 'FAIL'}  ${s.name} [${s.validationResult}]`);
    for (const e of s.errors ?? []) {
      console.log(`        ${e.type}: ${e.message}`);
      if (e.type === 'WARNING') warnings++;
    }
    if (!s.success) failed++;
  }
}
const total = results.reduce((n, f) => n + f.totalScenarios, 0);
console.log(`\n${total - failed} passed, ${failed} failed (${results.length} of ${FLOWS.length} flows ran; ${warnings} warnings)`);
process.exit(failed || results.length < FLOWS.length ? 1 : 0);
