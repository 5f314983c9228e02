/**
 * Time is an input. Every "now" of the Worker, its Durable Objects, the queue consumer and the cron
 * jobs comes from a `Clock`: services read `ctx.clock` (lib/context.ts), Durable Objects and
 * adapters are handed one. This file is the only place that reads the machine's wall clock
 * (`Date.now()`, `new Date()` without arguments): a lint rule refuses them anywhere else.
 *
 * - `wallClock` is real time. Live operators, anonymous callers before an operator is known and the
 *   platform's own housekeeping run on it.
 * - A sandbox test clock (modules/sandbox) is a `frozenClock`: its operator's "now" stays at the
 *   clock's frozen time until the clock is advanced, and everything scheduled in between runs then.
 * - `fixedClock` pins time for a cron run, a queue message or a test.
 *
 * Calendar dates ("today", "this month") are the location's: `todayIn(clock, tz)`.
 *
 * What stays on real time even for a test-clock operator, and reads `wallClock` explicitly: how long
 * something took (logs), rate-limit windows, token and signature lifetimes that another party
 * checks against its own clock (JWTs, webhook and underwriter signatures), and short technical
 * leases inside the lock objects.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { localDate } from './time';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** The sandbox test clock this clock reads, when it is one. */
  readonly testClockId: string | null;
}

/** Real time: the only reader of the machine's clock. */
export const wallClock: Clock = { now: () => Date.now(), testClockId: null };

/** A clock that always reads `ms` (a cron run's scheduled time, a queue message's instant, a test). */
export function fixedClock(ms: number, testClockId: string | null = null): Clock {
  if (!Number.isFinite(ms)) throw new RangeError(`fixedClock: not an instant: ${ms}`);
  return { now: () => ms, testClockId };
}

/** A sandbox test clock frozen at `frozenMs`. */
export const frozenClock = (testClockId: string, frozenMs: number): Clock => fixedClock(frozenMs, testClockId);

/**
 * The operator of a sandbox test clock has an id with this prefix, so a request knows from the
 * operator's id alone whether it must read a test clock (live operators never pay that read), and a
 * cron job can leave those operators out with a string test.
 */
export const TEST_CLOCK_OPERATOR_PREFIX = 'cus_tclk_';
export const isTestClockOperator = (customerId: string | null | undefined): boolean => !!customerId?.startsWith(TEST_CLOCK_OPERATOR_PREFIX);

type HasClock = { clock: Clock };

/** "Now" in ms of a context (or anything carrying a clock). */
export const nowMs = (c: HasClock): number => c.clock.now();
/** "Now" as a Date. */
export const nowDate = (c: HasClock): Date => new Date(c.clock.now());
/** "Now" as an ISO-8601 UTC string (how timestamps are stored). */
export const nowIso = (c: HasClock): string => new Date(c.clock.now()).toISOString();
/** An instant `ms` from now, as ISO. */
export const fromNowIso = (c: HasClock, ms: number): string => new Date(c.clock.now() + ms).toISOString();
/** Today's calendar date (YYYY-MM-DD) in a location's zone. */
export const todayIn = (c: HasClock, tz: string): string => localDate(c.clock.now(), tz);
/** The current month (YYYY-MM) in a location's zone. */
export const thisMonthIn = (c: HasClock, tz: string): string => todayIn(c, tz).slice(0, 7);

/** Real elapsed time, for durations in logs and benchmarks (never business time). */
export const stopwatch = (): (() => number) => {
  const start = Date.now();
  return () => Date.now() - start;
};

/**
 * The clock of the code running now, for the few places that cannot be handed a context: the
 * `created_at`/`updated_at` defaults of the drizzle column sets (src/db/schema/_columns.ts). Each
 * request, queue message, cron run and clock advance runs in a scope (`withClock`); authentication
 * and `onOperatorClock` set the scope's clock to the context's (`bindAmbientClock`), so a row
 * written for a test-clock operator is stamped with that operator's time. Outside any scope it is
 * the wall clock.
 */
const ambient = new AsyncLocalStorage<{ clock: Clock }>();

/** Runs `fn` in a scope whose ambient clock is `clock` (see `ambientNowIso`). */
export const withClock = <T>(clock: Clock, fn: () => T): T => ambient.run({ clock }, fn);

/** Sets the current scope's ambient clock (the request learned its operator's clock). */
export function bindAmbientClock(clock: Clock): void {
  const cell = ambient.getStore();
  if (cell) cell.clock = clock;
}

/** The ambient clock's "now" as ISO: for drizzle's column defaults only; services read `ctx.clock`. */
export const ambientNowIso = (): string => new Date((ambient.getStore()?.clock ?? wallClock).now()).toISOString();
