#!/usr/bin/env node
// npm run test:timings [-- REPORT.json] [-- --top N] [-- --out FILE] [-- vitest arguments...]
//
// Without a report: runs `vitest run` (with any vitest arguments given, e.g. a file filter) with the
// default reporter and test/reporters/timings.ts (vitest's JSON reporter plus each file's setup and
// import times), writes the report to FILE (node_modules/.cache/berth/test-timings.json unless
// --out says otherwise), then prints it.
// With a report (written by that reporter, or by vitest's plain `--reporter=json`): only prints it.
//
// Prints the slowest files, each with its setup (the setup file, which loads the Worker), import
// (the test file's own modules), test and total times, and the run's totals. A plain JSON report
// has no setup or import times: its files show their test time and their span (first test start to
// last test end) only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
let top = 20;
const topAt = args.indexOf('--top');
if (topAt !== -1) {
  top = Number(args[topAt + 1]);
  args.splice(topAt, 2);
  if (!Number.isInteger(top) || top < 1) {
    console.error('test:timings: --top takes a positive whole number');
    process.exit(2);
  }
}

let out = path.join(root, 'node_modules/.cache/berth/test-timings.json');
const outAt = args.indexOf('--out');
if (outAt !== -1) {
  out = path.resolve(args[outAt + 1] ?? '');
  args.splice(outAt, 2);
}

let reportPath;
let exitCode = 0;
if (args.length === 1 && args[0].endsWith('.json') && existsSync(args[0])) {
  reportPath = path.resolve(args[0]);
} else {
  reportPath = out;
  mkdirSync(path.dirname(reportPath), { recursive: true });
  const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(
    process.execPath,
    [
      vitest,
      'run',
      '--reporter=default',
      '--reporter=./test/reporters/timings.ts',
      '--reporter=./test/reporters/watchdog.ts',
      `--outputFile.json=${reportPath}`,
      ...args,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  exitCode = run.status ?? 1;
  if (!existsSync(reportPath)) {
    console.error(`test:timings: vitest wrote no report (${reportPath})`);
    process.exit(exitCode || 1);
  }
}

const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const seconds = (ms) => (ms / 1000).toFixed(1);
const rel = (file) => path.relative(root, file);
const files = report.testResults.map((r) => {
  const testSum = r.assertionResults.reduce((s, a) => s + (a.duration ?? 0), 0);
  const t = r.timings;
  const failed = r.assertionResults.filter((a) => a.status === 'failed').length;
  return {
    name: rel(r.name),
    project: t?.project ?? '',
    tests: r.assertionResults.length,
    failed,
    status: r.status,
    setup: t ? t.setup : undefined,
    import: t ? t.import : undefined,
    test: t ? t.tests : testSum,
    total: t ? t.setup + t.import + t.tests : Math.max(r.endTime - r.startTime, testSum),
    span: t?.startedAt !== undefined && t?.endedAt !== undefined ? t.endedAt - t.startedAt : undefined,
  };
});
const timed = files.some((f) => f.setup !== undefined);
files.sort((a, b) => b.total - a.total);

const width = Math.max(4, ...files.slice(0, top).map((f) => f.name.length));
const col = (v, w = 8) => String(v).padStart(w);
const ms = (v) => (v === undefined ? '-' : seconds(v));
console.log('');
console.log(`Slowest ${Math.min(top, files.length)} of ${files.length} test files (seconds):`);
console.log(`${'file'.padEnd(width)} ${col('tests', 6)} ${col('setup')} ${col('import')} ${col('test')} ${col('total')} ${col('elapsed')}  state`);
for (const f of files.slice(0, top)) {
  const state = f.status === 'failed' ? `FAILED${f.failed ? ` (${f.failed})` : ''}` : '';
  console.log(
    `${f.name.padEnd(width)} ${col(f.tests, 6)} ${col(ms(f.setup))} ${col(ms(f.import))} ${col(seconds(f.test))} ${col(seconds(f.total))} ${col(ms(f.span))}  ${state}`,
  );
}

const sum = (key) => files.reduce((s, f) => s + (f[key] ?? 0), 0);
const failedFiles = files.filter((f) => f.status === 'failed');
console.log('');
console.log(
  `Files ${files.length} (${failedFiles.length} failed); tests ${report.numTotalTests} (${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped)`,
);
console.log(
  timed
    ? `Summed over files: setup ${seconds(sum('setup'))} s, import ${seconds(sum('import'))} s, tests ${seconds(sum('test'))} s`
    : `Summed over files: tests ${seconds(sum('test'))} s (a plain JSON report has no setup or import times)`,
);
if (report.wallTime !== undefined) {
  const avg = (l) => l.map((x) => x.toFixed(2)).join(' ');
  const start = report.loadAverageAtStart ? ` at the start ${avg(report.loadAverageAtStart)},` : '';
  const load = report.loadAverage ? `; load average (1, 5, 15 min)${start} at the end ${avg(report.loadAverage)}, on ${report.cpus} CPUs` : '';
  console.log(`Wall time ${seconds(report.wallTime)} s${load}`);
}
const projects = [...new Set(files.map((f) => f.project).filter(Boolean))];
if (projects.length > 1) {
  for (const p of projects.sort()) {
    const of = files.filter((f) => f.project === p);
    const s = (key) => seconds(of.reduce((t, f) => t + (f[key] ?? 0), 0));
    console.log(`  project ${p}: ${of.length} files, setup ${s('setup')} s, import ${s('import')} s, tests ${s('test')} s`);
  }
}
if (failedFiles.length) {
  console.log('');
  console.log('Failed files:');
  for (const f of failedFiles) console.log(`  ${f.name}${f.failed ? ` (${f.failed} of ${f.tests} tests)` : ' (the file itself failed)'}`);
}
process.exit(exitCode);
