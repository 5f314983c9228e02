import { Command, CommanderError } from 'commander';
import { registerApp } from './commands/app';
import { registerAuth } from './commands/auth';
import { registerClock } from './commands/clock';
import { registerCoverage } from './commands/coverage';
import { registerInit } from './commands/init';
import { registerPayout } from './commands/payout';
import { CliError, EXIT } from './lib/errors';
import { c, configureOutput, reportError } from './lib/output';

export const VERSION = '0.1.0';

const HELP_AFTER = `
Exit codes:
  0  ok                 4  refused (declined, no terminal for a prompt without --yes, server refusal)
  1  failure            5  not found (app, offering, or the directory is not linked)
  2  usage              6  conflict (changed on the server since pull)
  3  not signed in      7  network (Berth or the URL given could not be reached)
                      130  interrupted

Environment:
  BERTH_API_URL           API base URL (default https://api.berth.example); alias SERVICE_API_URL. Every link printed is on its origin
  BERTH_API_KEY           an operator's admin API key (berth clock: a sandbox operator's)
  BERTH_SIGNING_SECRET    coverage signing secret (else the one stored by \`coverage secret\`); alias SERVICE_SIGNING_SECRET
  NO_COLOR                no colour when set (also off when output is not a terminal, and with --json)
  The BERTH_ name wins when both are set. Credentials live in ~/.berth/credentials.json (0600).`;

export function buildProgram(): Command {
  const program = new Command('berth')
    .description('Berth developer tool: embedded apps and coverage underwriters against the sandbox')
    .version(VERSION, '-v, --version')
    .option('--json', 'print one JSON object on stdout (no colour, no banners)')
    .option('--no-color', 'no colour (also NO_COLOR=1)')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', HELP_AFTER)
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(c().red(s)),
    });
  program.hook('preAction', (_root, action) => configureOutput(action.optsWithGlobals()));
  registerInit(program);
  registerAuth(program);
  registerApp(program);
  registerCoverage(program);
  registerPayout(program);
  registerClock(program);
  return program;
}

/** Runs the tool and answers its exit code (documented above). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      if (err.code === 'commander.help' && err.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    if (err instanceof CliError) {
      reportError(err);
      return err.exitCode;
    }
    const e = err as Error;
    reportError(new CliError(`Unexpected error: ${e?.message ?? String(err)}`, EXIT.failure, 'internal'));
    if (process.env.BERTH_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
    return EXIT.failure;
  }
}
