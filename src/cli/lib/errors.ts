/**
 * Exit codes of `berth` (documented in the README and in `berth --help`). Scripts branch on them,
 * so a number never changes meaning.
 */
export const EXIT = {
  ok: 0,
  /** Anything that went wrong and has no code of its own (a server error, a failed check, an undelivered webhook). */
  failure: 1,
  /** Bad arguments or options, an unknown command, a malformed project file. */
  usage: 2,
  /** No partner session for this API, or the session expired or was revoked: run `berth login`. */
  notSignedIn: 3,
  /** Refused: a confirmation declined or impossible (no terminal, no --yes), a server refusal (403, a forbidding state), an unsafe credentials file. */
  refused: 4,
  /** Not found: no such app or offering, or the directory is not linked. */
  notFound: 5,
  /** The record changed on the server since it was pulled (push with a stale version). */
  conflict: 6,
  /** Berth (or the URL given) could not be reached, or did not answer in time. */
  network: 7,
  /** Interrupted by Ctrl-C before finishing. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the tool reports as one line (plus an optional hint) and turns into its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code: string = codeOf(exitCode),
    readonly hint?: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

function codeOf(exit: ExitCode): string {
  for (const [k, v] of Object.entries(EXIT)) if (v === exit) return k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return 'failure';
}

export const usage = (message: string, hint?: string) => new CliError(message, EXIT.usage, 'usage', hint);
export const refused = (message: string, hint?: string) => new CliError(message, EXIT.refused, 'refused', hint);
export const notFound = (message: string, hint?: string) => new CliError(message, EXIT.notFound, 'not_found', hint);
export const failure = (message: string, hint?: string) => new CliError(message, EXIT.failure, 'failure', hint);
export const notSignedIn = (apiUrl: string, why = 'Not signed in') =>
  new CliError(`${why} to ${apiUrl}`, EXIT.notSignedIn, 'not_signed_in', 'Run `berth login` first.');
