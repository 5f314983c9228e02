/**
 * A fake remote service on the isolate's one outbound fetch (`outbound.fetch`), for the hosts it
 * plays only. Test files share an isolate, so a webhook queued by an earlier file may be delivered
 * (and retried) while a later file's fake is installed: a fake that answered and recorded every
 * request would see requests it never expected. Requests to other hosts go to the fetch the fake
 * replaced, unrecorded.
 */
import { outbound } from '../src/adapters/http';

type Fetch = typeof outbound.fetch;

const hostOf = (input: Request | string | URL) => new URL(input instanceof Request ? input.url : String(input)).host;

/** Installs `handler` for requests to `hosts` (host names, with a port where one is used); answers the restore. */
export function fakeHosts(hosts: string[], handler: Fetch): () => void {
  const previous = outbound.fetch;
  outbound.fetch = (input, init) => (hosts.includes(hostOf(input)) ? handler(input, init) : previous(input, init));
  return () => {
    outbound.fetch = previous;
  };
}

/** Marks the offline fetch, so it is installed once however many test files run in the isolate. */
const OFFLINE = Symbol('offline');

/**
 * The test runtime has no network: a request that no fake plays (a webhook queued by an earlier file
 * and retried after its fake was restored, a name nobody plays) fails at once, as an unreachable
 * host does, instead of asking the machine's resolver. Installed by `test/setup.ts` under every fake.
 */
export function offlineByDefault(): void {
  if ((outbound.fetch as Fetch & { [OFFLINE]?: true })[OFFLINE]) return;
  const offline: Fetch & { [OFFLINE]?: true } = async (input) => {
    throw new TypeError(`fetch failed: no network in tests (${hostOf(input)})`);
  };
  offline[OFFLINE] = true;
  outbound.fetch = offline;
}
