/**
 * Structured logs: one JSON line per event, with the request id (or job name) of its context.
 * Never pass secrets, tokens or card data as fields.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger whose lines carry `base` (for example `{ requestId }`); lines under `min` are dropped. */
export function createLogger(base: Record<string, unknown>, min: LogLevel = 'info'): Logger {
  const line = (level: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < ORDER[min]) return;
    console.log(JSON.stringify({ level, msg, ...base, ...fields }));
  };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}
