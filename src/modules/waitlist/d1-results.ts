/** Reading D1 write results, and statements kept under D1's limit of 100 bound parameters. */

const CHUNK = 80;

/** Rows a write statement changed. */
export const changes = (r: unknown) => Number((r as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0);

/** An error's message with its cause (D1 puts the constraint that failed in the cause). */
export const errText = (err: unknown) => {
  const e = err as { message?: string; cause?: unknown };
  return `${e?.message ?? err} ${String(e?.cause ?? '')}`;
};

/** `xs` in slices small enough for one IN list each. */
export const chunks = <T>(xs: T[], n = CHUNK) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
