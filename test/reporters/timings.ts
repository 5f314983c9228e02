/**
 * vitest's JSON reporter, with what `npm run test:timings` needs besides: each file's setup, import
 * (collect), prepare and environment durations, its project, and when it started and ended in the run;
 * the run's wall time and the machine's load average (a shared machine's times mean little without it).
 * Written where `--outputFile.json` says, like the JSON reporter.
 */
import os from 'node:os';
import { JsonReporter } from 'vitest/reporters';
import type { TestModule } from 'vitest/node';

export default class TimingsReporter extends JsonReporter {
  private spans = new Map<string, { startedAt: number; endedAt?: number }>();
  private runStart = Date.now();
  private loadAtStart = os.loadavg();

  override onInit(ctx: Parameters<JsonReporter['onInit']>[0]) {
    super.onInit(ctx);
    this.runStart = Date.now();
    this.loadAtStart = os.loadavg();
  }

  onTestModuleStart(testModule: TestModule) {
    this.spans.set(testModule.moduleId, { startedAt: Date.now() - this.runStart });
  }

  onTestModuleEnd(testModule: TestModule) {
    const span = this.spans.get(testModule.moduleId);
    if (span) span.endedAt = Date.now() - this.runStart;
  }

  override async writeReport(report: string) {
    const result = JSON.parse(report);
    const files = new Map(this.ctx.state.getFiles().map((f) => [f.filepath, f]));
    for (const entry of result.testResults) {
      const file = files.get(entry.name);
      if (!file) continue;
      entry.timings = {
        project: file.projectName ?? '',
        prepare: file.prepareDuration ?? 0,
        environment: file.environmentLoad ?? 0,
        setup: file.setupDuration ?? 0,
        import: file.collectDuration ?? 0,
        tests: file.result?.duration ?? 0,
        ...this.spans.get(entry.name),
      };
    }
    result.wallTime = Date.now() - this.runStart;
    result.loadAverageAtStart = this.loadAtStart;
    result.loadAverage = os.loadavg();
    result.cpus = os.availableParallelism();
    await super.writeReport(JSON.stringify(result));
  }
}
