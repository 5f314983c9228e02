/**
 * A stalled test run fails, naming the files it waits for, instead of holding CI until its limit.
 *
 * A test's own timeout (`testTimeout`) runs inside the Worker runtime: when the runtime stops
 * answering (a blocked isolate, a lost runner connection), that timer never fires and vitest waits
 * for the file forever (CI once waited 85 minutes). This reporter runs in vitest's own process. When
 * files are still unfinished and nothing at all has been reported for `TEST_STALL_SECONDS` (default
 * 180: six times the test timeout, while the other runtimes' files report every second or so; longer
 * while a running test sets a longer timeout of its own, by that timeout and a minute), it
 * prints each unfinished file with the last thing it reported (the runtime buffers its reports, so a
 * blocked one may not even have reported its start), cancels the run and exits with an error.
 */
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

interface Unfinished {
  /** The last stage reported: queued, collected, started. */
  stage: string;
  /** The tests and hooks it is in: when each began, and a test's own timeout when it sets a longer one. */
  inside: Map<string, { since: number; timeoutMs?: number }>;
}

const STALL_MS = Number(process.env.TEST_STALL_SECONDS ?? 180) * 1000;
const CHECK_EVERY_MS = 5_000;
/** After cancelling, how long the run may take to wind down before the process exits. */
const EXIT_GRACE_MS = 15_000;

type Hook = Parameters<NonNullable<Reporter['onHookStart']>>[0];

export default class WatchdogReporter implements Reporter {
  private unfinished = new Map<string, Unfinished>();
  private lastReport = Date.now();
  private timer?: NodeJS.Timeout;
  private vitest?: Vitest;
  private fired = false;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  onTestModuleQueued(module: TestModule) {
    this.unfinished.set(module.moduleId, { stage: 'queued', inside: new Map() });
    this.seen();
  }

  onTestModuleCollected(module: TestModule) {
    this.stage(module.moduleId, 'collected');
  }

  onTestModuleStart(module: TestModule) {
    this.stage(module.moduleId, 'started');
  }

  onTestModuleEnd(module: TestModule) {
    this.unfinished.delete(module.moduleId);
    this.seen();
  }

  onTestCaseReady(test: TestCase) {
    this.unfinished.get(test.module.moduleId)?.inside.set(test.fullName, { since: this.seen(), timeoutMs: test.options.timeout });
  }

  onTestCaseResult(test: TestCase) {
    this.unfinished.get(test.module.moduleId)?.inside.delete(test.fullName);
    this.seen();
  }

  onHookStart(hook: Hook) {
    this.unfinished.get(moduleOf(hook))?.inside.set(hookName(hook), { since: this.seen() });
  }

  onHookEnd(hook: Hook) {
    this.unfinished.get(moduleOf(hook))?.inside.delete(hookName(hook));
    this.seen();
  }

  onTestRunEnd() {
    clearInterval(this.timer);
  }

  private seen() {
    return (this.lastReport = Date.now());
  }

  private stage(moduleId: string, stage: string) {
    const u = this.unfinished.get(moduleId);
    if (u) u.stage = stage;
    this.seen();
  }

  /** Silence allowed: the stall limit, or longer while a running test may take longer by its own timeout. */
  private allowedMs() {
    const timeouts = [...this.unfinished.values()].flatMap((u) => [...u.inside.values()].map((i) => (i.timeoutMs ?? 0) + 60_000));
    return Math.max(STALL_MS, ...timeouts);
  }

  private check() {
    const now = Date.now();
    if (this.fired || !this.unfinished.size || now - this.lastReport <= this.allowedMs()) return;
    this.fired = true;
    const lines = [...this.unfinished].flatMap(([file, u]) => [
      `  ${file} (last reported: ${u.stage})`,
      ...[...u.inside].map(([what, { since }]) => `    in ${what}, for ${Math.round((now - since) / 1000)} s`),
    ]);
    process.stderr.write(
      `\n[watchdog] nothing reported for ${Math.round((now - this.lastReport) / 1000)} s (TEST_STALL_SECONDS=${STALL_MS / 1000}); ` +
        `unfinished test files, whose runtime no longer answers:\n${lines.join('\n')}\n`,
    );
    process.exitCode = 1;
    setTimeout(() => process.exit(1), EXIT_GRACE_MS).unref();
    void this.vitest?.cancelCurrentRun('test-failure').finally(() => process.exit(1));
  }
}

const moduleOf = (hook: Hook) => (hook.entity.type === 'module' ? hook.entity.moduleId : hook.entity.module.moduleId);

const hookName = (hook: Hook) => `${hook.name} of ${hook.entity.type === 'module' ? 'the file' : hook.entity.fullName}`;
