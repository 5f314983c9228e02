/**
 * A fake web for the AI helper tests (no network): pages by URL and DNS answers by host, replacing
 * the outbound fetch and the resolver of the safe public fetch. Every URL the Worker fetched is
 * recorded, so a test can prove a refused URL was never fetched.
 */
import { outbound, resolver } from '../../../src/adapters/http';

export interface FakePage {
  status?: number;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  /** A stalled peer: `headers` never answers; `body` answers the headers and a first chunk, then never ends. Ignores the abort signal. */
  hang?: 'headers' | 'body';
}

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
};

/**
 * The URLs of `fetched` on the hosts of `urls`. Tests replace the isolate's one outbound fetch, so a
 * webhook queued by an earlier test file may be delivered through the replacement meanwhile: a check
 * that a URL was never fetched looks only at the hosts it names.
 */
export function onHosts(fetched: string[], urls: string[]) {
  const hosts = new Set(urls.map(hostOf));
  return fetched.filter((u) => hosts.has(hostOf(u)));
}

export const PUBLIC_IP = '93.184.216.34';

export function fakeWeb(pages: Record<string, FakePage>, dns: Record<string, string[]> = {}) {
  const realFetch = outbound.fetch;
  const realResolve = resolver.resolve;
  const fetched: string[] = [];
  const resolved: string[] = [];
  outbound.fetch = async (input: Request | string | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    fetched.push(url);
    const p = pages[url];
    if (!p) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    if (p.hang === 'headers') return new Promise<Response>(() => undefined);
    if (p.hang === 'body') {
      const stalled = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(new TextEncoder().encode('<html><body>first bytes')),
        pull: () => new Promise<void>(() => undefined),
      });
      return new Response(stalled, { status: p.status ?? 200, headers: p.headers ?? { 'content-type': 'text/html; charset=utf-8' } });
    }
    return new Response(p.body ?? '', { status: p.status ?? 200, headers: p.headers ?? { 'content-type': 'text/html; charset=utf-8' } });
  };
  resolver.resolve = async (host: string) => {
    resolved.push(host);
    return dns[host] ?? [PUBLIC_IP];
  };
  return {
    fetched,
    resolved,
    /** The fetched URLs on the hosts of `urls` (see `onHosts`). */
    fetchedOf: (urls: string[]) => onHosts(fetched, urls),
    restore() {
      outbound.fetch = realFetch;
      resolver.resolve = realResolve;
    },
  };
}

export const b64 = (s: string | Uint8Array) => {
  const bytes = typeof s === 'string' ? new TextEncoder().encode(s) : s;
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
};
