/**
 * Round trips: in production every sequential call from a Worker to D1 or to a Durable Object can
 * cost tens of milliseconds, so the number of SEQUENTIAL calls on a request's critical path decides
 * its latency far more than CPU does. In development and in the test pool the Worker counts them:
 * `instrumentEnv` wraps the D1 binding and every Durable Object namespace of a request's `env`,
 * and the Worker answers the count in response headers (never in staging or production):
 *
 *   X-Round-Trips            sequential round trips of the whole request
 *   X-Round-Trips-Operation  those after authentication (the operation itself)
 *   X-Round-Trip-Trace       `depth:call` for each call, in completion order (diagnostics)
 *
 * Counting rule (deterministic for code that starts its parallel calls together): a call that starts
 * when `depth` round trips have completed ends at depth `depth + 1`; the request's count is the
 * deepest end. A D1 batch is one call; calls awaited together (`Promise.all`) end at the same depth
 * and count once; a call made after another completed counts again. Work handed to `afterResponse`
 * runs after the response is complete and is not counted (it is not on the critical path).
 */

export interface RoundTripCounter {
  /** Sequential round trips completed on the critical path so far. */
  depth: number;
  /** `depth` when the caller was authenticated (0 for anonymous routes). */
  operationStart: number;
  /** Every call (parallel ones each count here). */
  calls: number;
  trace: string[];
  /** True once the response is complete: later calls are not counted. */
  sealed: boolean;
  /** Resolves when the response is complete. */
  done: Promise<void>;
  seal(): void;
}

const COUNTER = Symbol.for('berth.roundTrips');

function newCounter(): RoundTripCounter {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const counter: RoundTripCounter = {
    depth: 0,
    operationStart: 0,
    calls: 0,
    trace: [],
    sealed: false,
    done,
    seal() {
      if (counter.sealed) return;
      counter.sealed = true;
      resolve();
    },
  };
  return counter;
}

function track<T>(counter: RoundTripCounter, label: string, call: () => Promise<T>): Promise<T> {
  if (counter.sealed) return call();
  const start = counter.depth;
  counter.calls++;
  const settle = () => {
    if (counter.sealed) return;
    counter.depth = Math.max(counter.depth, start + 1);
    if (counter.trace.length < 64) counter.trace.push(`${start + 1}:${label}`);
  };
  return call().then(
    (v) => {
      settle();
      return v;
    },
    (err: unknown) => {
      settle();
      throw err;
    },
  );
}

const sqlLabel = (query: string) => `d1 ${query.replace(/\s+/g, ' ').slice(0, 60)}`;

class CountedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly counter: RoundTripCounter,
    private readonly query: string,
  ) {}
  bind(...values: unknown[]) {
    return new CountedStatement(this.inner.bind(...values), this.counter, this.query);
  }
  first(column?: string) {
    return track(this.counter, sqlLabel(this.query), () => (column === undefined ? this.inner.first() : this.inner.first(column)));
  }
  all() {
    return track(this.counter, sqlLabel(this.query), () => this.inner.all());
  }
  raw(options?: { columnNames?: boolean }) {
    return track(this.counter, sqlLabel(this.query), () => this.inner.raw(options as { columnNames: true }));
  }
  run() {
    return track(this.counter, sqlLabel(this.query), () => this.inner.run());
  }
}

const unwrap = (s: unknown) => (s instanceof CountedStatement ? s.inner : s) as D1PreparedStatement;

function countedD1(d1: D1Database, counter: RoundTripCounter): D1Database {
  const wrapped = {
    prepare: (query: string) => new CountedStatement(d1.prepare(query), counter, query),
    batch: (statements: unknown[]) => track(counter, `d1 batch(${statements.length})`, () => d1.batch(statements.map(unwrap))),
    exec: (query: string) => track(counter, sqlLabel(query), () => d1.exec(query)),
    dump: () => track(counter, 'd1 dump', () => d1.dump()),
    // A session's queries count like the binding's (the widget's public reads run in sessions).
    withSession: (...args: Parameters<D1Database['withSession']>) => {
      const session = d1.withSession(...args);
      return Object.assign(countedD1(session as unknown as D1Database, counter), { getBookmark: () => session.getBookmark() });
    },
  };
  return wrapped as unknown as D1Database;
}

function countedStub<T extends object>(stub: T, counter: RoundTripCounter, label: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof prop === 'symbol' || prop === 'then' || typeof value !== 'function') return value;
      return (...args: unknown[]) => track(counter, `${label}.${prop}`, () => (target as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop](...args));
    },
  });
}

function countedNamespace<T extends object>(ns: T, counter: RoundTripCounter, label: string): T {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'get' || prop === 'getByName')
        return (...args: unknown[]) => countedStub((value as (...a: unknown[]) => object).apply(target, args), counter, label);
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/** A service binding (ASSETS) answers every property name with an RPC method, so it would pass the two checks below: left as it is. */
const isFetcher = (v: unknown) => Object.prototype.toString.call(v) === '[object Fetcher]';
const isD1 = (v: unknown): v is D1Database => !!v && typeof (v as D1Database).prepare === 'function' && typeof (v as D1Database).batch === 'function';
const isNamespace = (v: unknown): v is object => !!v && typeof (v as DurableObjectNamespace).idFromName === 'function';

/** A request's view of `env` whose D1 binding and Durable Object namespaces count their round trips. */
export function instrumentEnv<E extends object>(env: E): E {
  const counter = newCounter();
  const memo = new Map<PropertyKey, unknown>();
  return new Proxy(env, {
    get(target, prop) {
      if (prop === COUNTER) return counter;
      if (memo.has(prop)) return memo.get(prop);
      const value = Reflect.get(target, prop) as unknown;
      let out = value;
      if (isFetcher(value)) out = value;
      else if (isD1(value)) out = countedD1(value, counter);
      else if (isNamespace(value)) out = countedNamespace(value, counter, `do ${String(prop)}`);
      memo.set(prop, out);
      return out;
    },
  });
}

/** The counter of an instrumented `env` (undefined in staging and production). */
export const roundTripsOf = (env: object): RoundTripCounter | undefined => (env as { [COUNTER]?: RoundTripCounter })[COUNTER];

/** Called by authentication when the caller is known: later round trips belong to the operation. */
export function markAuthenticated(env: object): void {
  const c = roundTripsOf(env);
  if (c && !c.sealed) c.operationStart = c.depth;
}

/** Response headers with the count (development and tests only). */
export function roundTripHeaders(c: RoundTripCounter): Record<string, string> {
  return {
    'X-Round-Trips': String(c.depth),
    'X-Round-Trips-Operation': String(c.depth - c.operationStart),
    'X-Round-Trip-Trace': c.trace
      .join(' | ')
      .replace(/[^\x20-\x7e]/g, '?')
      .slice(0, 4000),
  };
}

/**
 * Runs `fn` after the response is complete (through `waitUntil`): releases, cache refreshes and
 * other work that must happen but need not delay the answer. Errors are logged, never thrown.
 */
export function afterResponse(
  ctx: { env: object; waitUntil: (p: Promise<unknown>) => void; log?: { warn(msg: string, fields?: Record<string, unknown>): void } },
  fn: () => Promise<unknown>,
): void {
  const counter = roundTripsOf(ctx.env);
  const run = (counter ? counter.done : Promise.resolve()).then(fn).catch((err: unknown) => {
    if (ctx.log) ctx.log.warn('work after the response failed', { error: String(err) });
    else console.warn(JSON.stringify({ level: 'warn', msg: 'work after the response failed', error: String(err) }));
  });
  ctx.waitUntil(run);
}
