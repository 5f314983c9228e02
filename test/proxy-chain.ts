/**
 * Keeps the test pool's entrypoint and Durable Object wrappers from slowing down (and at last
 * overflowing the stack) as a runtime serves more requests.
 *
 * `@cloudflare/vitest-pool-workers` 0.23 wraps the Worker's default export and each Durable Object
 * class in a class whose constructor does `Class.prototype = new Proxy(Class.prototype, ...)` before
 * `Reflect.construct(superClass, args, Class)` (`createProxyPrototypeClass`, test-internal.mjs). Every
 * `SELF.fetch`, queue or cron event and every Durable Object instance adds one proxy to the chain,
 * and every property read on an instance walks the whole chain: a request costs more the more
 * requests came before it in the same runtime (measured here: `SELF.fetch('/health')` took 4 ms
 * each over the first hundred calls, 19 ms over the second hundred, and the first thousand took
 * minutes), and a runtime shared by many files dies with
 * `RangeError: Maximum call stack size exceeded at new Class`.
 *
 * Every proxy in the chain has the same handler, so one is as good as a thousand: at each
 * construction of such a wrapper, the class's prototype is put back to the one it had at its first
 * construction after this ran, and the chain stops growing (6,000 calls: 2-4 ms each throughout).
 * No file in node_modules changes; the runtime's own `Reflect.construct` is wrapped once per runtime
 * (`globalThis` is the runtime's, shared by the files it runs).
 */
import { DurableObject, WorkerEntrypoint, WorkflowEntrypoint } from 'cloudflare:workers';

const INSTALLED = Symbol.for('berth.test.proxyChainBounded');

export function boundProxyChains() {
  const g = globalThis as Record<symbol, unknown>;
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  const wrappedBases = new Set<unknown>([WorkerEntrypoint, DurableObject, WorkflowEntrypoint]);
  const firstPrototype = new WeakMap<object, unknown>();
  type Constructor = abstract new (...args: never[]) => unknown;
  const construct = Reflect.construct;
  Reflect.construct = function (target: Constructor, args: ArrayLike<unknown>, newTarget: Constructor = target) {
    if (newTarget !== target && wrappedBases.has(target) && newTarget.name === 'Class') {
      // The class `createProxyPrototypeClass` made; it has just wrapped its prototype once more.
      const first = firstPrototype.get(newTarget);
      if (first === undefined) firstPrototype.set(newTarget, newTarget.prototype);
      else newTarget.prototype = first;
    }
    return construct(target, args, newTarget);
  } as typeof Reflect.construct;
}
