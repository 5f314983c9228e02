/**
 * THE outbound URL policy (src/adapters/http.ts): the shape checks, the resolution of names where
 * deployed, the development exceptions, the one generic outcome of a refused or failed delivery,
 * and the re-check of every redirect hop; then the same rules through the API (operator webhooks,
 * partner apps and their webhook test).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import type { Env } from '../../src/env';
import {
  NOT_DELIVERED,
  UrlRefused,
  checkOutboundUrl,
  checkUrlShape,
  deliver,
  fetchPublic,
  isBlockedIp,
  looseIpv4,
  outbound,
  resolver,
  type UrlPolicy,
} from '../../src/adapters/http';
import { createOperator, del, expectError, post } from '../harness';
import { bearer, createApp, registerPartner } from '../modules/partners/helpers';
import { fakeWeb, onHosts, PUBLIC_IP } from '../modules/ai-helpers/web';

const PROD = { ENVIRONMENT: 'production' } as Env;
const STAGING = { ENVIRONMENT: 'staging' } as Env;
const TEST = { ENVIRONMENT: 'test' } as Env;
const DEV = { ENVIRONMENT: 'development' } as Env;

const realFetch = outbound.fetch;
const realResolve = resolver.resolve;
let web: ReturnType<typeof fakeWeb> | null = null;
afterEach(() => {
  web?.restore();
  web = null;
  outbound.fetch = realFetch;
  resolver.resolve = realResolve;
});

/** Every name resolves to these addresses (and the names asked are recorded). */
function resolveTo(addresses: string[] | ((host: string) => string[])) {
  const asked: string[] = [];
  resolver.resolve = async (host: string) => {
    asked.push(host);
    return typeof addresses === 'function' ? addresses(host) : addresses;
  };
  return asked;
}

/** A network that must never be reached: every fetch is recorded and fails. */
function noNetwork() {
  const fetched: string[] = [];
  outbound.fetch = async (input: Request | string | URL) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    throw new TypeError('network unreachable in this test');
  };
  return fetched;
}

/**
 * A fetch that fails as a network does: a moment later (a promise rejected before the caller's
 * `await` attached is reported by the runtime as an unhandled rejection, although it is handled).
 */
const failWith = (err: unknown) => async (): Promise<Response> => {
  await new Promise((r) => setTimeout(r, 0));
  throw err;
};

/** The UrlRefused `fn` throws (fails the test when it resolves or throws something else). */
async function refusal(fn: () => unknown): Promise<UrlRefused> {
  try {
    await fn();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(UrlRefused);
    return err as UrlRefused;
  }
  throw new Error('expected the URL to be refused');
}

/** Refused by the whole policy with 400 `validation_failed` naming the field; answers the detail's code. */
async function expectRefused(e: Env, url: string, policy: UrlPolicy = {}): Promise<string> {
  const err = await refusal(() => checkOutboundUrl(e, url, policy));
  expect(err.status, url).toBe(400);
  expect(err.code, url).toBe('validation_failed');
  const field = policy.field ?? 'url';
  expect(err.field).toBe(field);
  expect(err.details, url).toEqual([expect.objectContaining({ field, location: policy.location ?? 'body', code: expect.any(String) })]);
  expect(err.message).toContain(field);
  return err.details![0].code!;
}

describe('address helpers', () => {
  it('reads IPv4 in every spelling inet_aton accepts', () => {
    expect(looseIpv4('2130706433')).toBe('127.0.0.1');
    expect(looseIpv4('0177.0.0.1')).toBe('127.0.0.1');
    expect(looseIpv4('0x7f.1')).toBe('127.0.0.1');
    expect(looseIpv4('0x7f000001')).toBe('127.0.0.1');
    expect(looseIpv4('127.1')).toBe('127.0.0.1');
    expect(looseIpv4('10.1.2')).toBe('10.1.0.2');
    expect(looseIpv4('127.0.0.1.')).toBe('127.0.0.1');
    expect(looseIpv4('hooks.example.com')).toBeNull();
    expect(looseIpv4('256.0.0.1')).toBeNull();
    expect(looseIpv4('1.2.3.4.5')).toBeNull();
  });

  it('blocks every non-public address, IPv4 and IPv6 (embedded IPv4 checked as IPv4)', () => {
    const blocked = [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '169.254.169.254',
      '172.16.0.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.19.255.255',
      '203.0.113.9',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::7f00:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::1',
      '2002:a00:1::1',
      '2001::1',
      '2001:db8::1',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      'not an address',
    ];
    for (const ip of blocked) expect(isBlockedIp(ip), ip).toBe(true);
    for (const ip of [PUBLIC_IP, '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2002:5db8:d822::1'])
      expect(isBlockedIp(ip), ip).toBe(false);
  });
});

describe('production and staging', () => {
  it('accepts an https URL on a public name that resolves to a public address (resolved once, by name)', async () => {
    const asked = resolveTo([PUBLIC_IP, '2606:2800:220:1:248:1893:25c8:1946']);
    const url = await checkOutboundUrl(PROD, 'https://hooks.example.com/x');
    expect(url.toString()).toBe('https://hooks.example.com/x');
    expect(asked).toEqual(['hooks.example.com']);
    // The default port spelled out is the default port.
    expect((await checkOutboundUrl(STAGING, 'https://hooks.example.com:443/x')).port).toBe('');
  });

  it.each([
    ['http', 'http://hooks.example.com/x'],
    ['a non-443 port', 'https://hooks.example.com:8443/x'],
    ['port 80 on https', 'https://hooks.example.com:80/x'],
    ['a user and password', 'https://user:pw@hooks.example.com/x'],
    ['a user alone', 'https://user@hooks.example.com/x'],
    ['not a URL', 'hooks.example.com/x'],
    ['another scheme', 'ftp://hooks.example.com/x'],
    ['decimal IPv4', 'https://2130706433/'],
    ['octal IPv4', 'https://0177.0.0.1/'],
    ['hex IPv4', 'https://0x7f.1/'],
    ['short IPv4', 'https://127.1/'],
    ['dotted loopback', 'https://127.0.0.1/'],
    ['a public IPv4 literal', `https://${PUBLIC_IP}/`],
    ['IPv6 loopback', 'https://[::1]/'],
    ['IPv4-compatible IPv6', 'https://[::7f00:1]/'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/'],
    ['NAT64', 'https://[64:ff9b::7f00:1]/'],
    ['6to4', 'https://[2002:7f00:1::1]/'],
    ['ULA', 'https://[fd00::1]/'],
    ['link-local IPv6', 'https://[fe80::1]/'],
    ['a public IPv6 literal', 'https://[2606:4700:4700::1111]/'],
    ['localhost', 'https://localhost/'],
    ['localhost with a trailing dot', 'https://localhost./'],
    ['a name under localhost', 'https://foo.localhost/'],
    ['.internal', 'https://x.internal/'],
    ['.local', 'https://printer.local/'],
    ['a single label', 'https://intranet/'],
    ['.test', 'https://hooks.example.test/'],
    ['localtest.me', 'https://localtest.me/'],
    ['a name under nip.io', 'https://a.nip.io/'],
    ['an address spelled in sslip.io', 'https://127-0-0-1.sslip.io/'],
    ['benchmarking literal 198.18.0.1', 'https://198.18.0.1/'],
    ['multicast literal 224.0.0.1', 'https://224.0.0.1/'],
  ])('refuses %s (%s) before resolving anything', async (_, url) => {
    const asked = resolveTo([PUBLIC_IP]);
    for (const e of [PROD, STAGING]) expect(['unsafe_url', 'invalid_url']).toContain(await expectRefused(e, url, { field: 'webhooks.url' }));
    expect(() => checkUrlShape(PROD, url)).toThrow(UrlRefused);
    expect(asked).toEqual([]);
  });

  it.each([
    ['10.0.0.1', ['10.0.0.1']],
    ['::1', ['::1']],
    ['198.18.0.1 (benchmarking)', ['198.18.0.1']],
    ['224.0.0.1 (multicast)', ['224.0.0.1']],
    ['169.254.169.254 (metadata)', ['169.254.169.254']],
    ['a mapped loopback', ['::ffff:127.0.0.1']],
    ['a NAT64 private address', ['64:ff9b::a00:1']],
    ['a ULA', ['fd00::1']],
    ['one private address among public ones', [PUBLIC_IP, '10.0.0.1']],
  ])('refuses a name that resolves to %s', async (_, addresses) => {
    const asked = resolveTo(addresses);
    expect(await expectRefused(PROD, 'https://hooks.example.com/x')).toBe('unsafe_url');
    expect(asked).toEqual(['hooks.example.com']);
    // The shape alone (no network) passes: this refusal needs the resolver.
    expect(checkUrlShape(PROD, 'https://hooks.example.com/x').hostname).toBe('hooks.example.com');
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    resolver.resolve = async () => {
      throw new Error('NXDOMAIN');
    };
    expect(await expectRefused(PROD, 'https://nowhere.example.com/x')).toBe('unresolvable');
    resolveTo([]);
    expect(await expectRefused(PROD, 'https://empty.example.com/x')).toBe('unresolvable');
  });

  it('names the field and location of the policy in the 400', async () => {
    const err = await refusal(() => checkOutboundUrl(PROD, 'http://hooks.example.com/', { field: 'baseUrl', location: 'query' }));
    expect(err.details).toEqual([{ field: 'baseUrl', location: 'query', code: 'unsafe_url', message: 'baseUrl must use https' }]);
    expect(err.reason).toBe('must use https');
  });

  it('never allows loopback in production, even for an operator URL (localInDevelopment)', async () => {
    resolveTo(['127.0.0.1']);
    const local: UrlPolicy = { localInDevelopment: true };
    for (const url of ['https://localhost/', 'https://127.0.0.1/', 'https://[::1]/', 'http://localhost:8787/', 'https://hooks.example.com/'])
      await expectRefused(PROD, url, local);
  });
});

describe('development and tests', () => {
  it('allow http, the development ports and a public IP literal; names are not resolved (except when asked)', async () => {
    const asked = resolveTo(['10.0.0.1']);
    for (const e of [TEST, DEV]) {
      for (const url of [
        'http://hooks.example.test/x',
        'https://hooks.example.test/x',
        'http://hooks.example.com:8080/x',
        'https://hooks.example.com:8443/x',
        `http://${PUBLIC_IP}/`,
      ])
        expect((await checkOutboundUrl(e, url)).toString()).toBe(new URL(url).toString());
      expect(await expectRefused(e, 'http://hooks.example.com:9000/x')).toBe('unsafe_url');
      expect(await expectRefused(e, 'https://user:pw@hooks.example.com/x')).toBe('unsafe_url');
    }
    expect(asked).toEqual([]);
    // Asked to resolve (as fetchPublic does), the addresses are checked in development too.
    expect(await expectRefused(TEST, 'https://hooks.example.com/x', { resolve: true })).toBe('unsafe_url');
    expect(asked).toEqual(['hooks.example.com']);
  });

  it('refuse loopback (and other private literals) unless the policy says localInDevelopment', async () => {
    const loopback = [
      'http://localhost/',
      'http://localhost:8787/hooks',
      'http://foo.localhost:3000/',
      'http://127.0.0.1/',
      'http://127.0.0.1:8080/',
      'http://127.1:5432/',
      'http://2130706433/',
      'http://[::1]/',
      'http://[::1]:3000/',
      'http://[::ffff:127.0.0.1]:22/',
    ];
    for (const e of [TEST, DEV]) {
      for (const url of loopback) {
        await expectRefused(e, url);
        expect((await checkOutboundUrl(e, url, { localInDevelopment: true })).toString(), url).toBe(new URL(url).toString());
      }
      // localInDevelopment is loopback only: other private addresses stay refused.
      for (const url of ['http://10.0.0.1/', 'http://192.168.1.1:8080/', 'http://[::7f00:1]:8080/', 'http://[fd00::1]/', 'http://169.254.169.254/'])
        await expectRefused(e, url, { localInDevelopment: true });
    }
  });

  it("refuses a self-registered partner's URL to 127.0.0.1 on any port", async () => {
    for (const port of ['', ':80', ':443', ':8080', ':8443', ':22', ':5432', ':8787', ':65535']) {
      for (const scheme of ['http', 'https']) {
        const url = `${scheme}://127.0.0.1${port}/hook`;
        await expectRefused(TEST, url, { field: 'webhooks.url' });
        await expectRefused(DEV, url, { field: 'webhooks.url' });
      }
    }
  });

  it('with localInDevelopment and resolution, a name resolving to loopback passes but one resolving to a private address does not', async () => {
    resolveTo(['127.0.0.1']);
    expect((await checkOutboundUrl(DEV, 'http://dev.example.com:8080/', { localInDevelopment: true, resolve: true })).hostname).toBe('dev.example.com');
    await expectRefused(DEV, 'http://dev.example.com:8080/', { resolve: true });
    resolveTo(['10.0.0.1']);
    await expectRefused(DEV, 'http://dev.example.com:8080/', { localInDevelopment: true, resolve: true });
  });
});

describe('deliver: one generic outcome', () => {
  const GENERIC = { delivered: false, statusCode: null, error: NOT_DELIVERED };

  it('a refused URL is never fetched and answers NOT_DELIVERED', async () => {
    const fetched = noNetwork();
    resolveTo(['10.0.0.1']);
    const refused = [
      [PROD, 'https://127.0.0.1/'],
      [PROD, 'https://hooks.example.com:22/'],
      [PROD, 'https://hooks.example.com/'],
      [TEST, 'http://127.0.0.1:5432/'],
      [TEST, 'http://[::1]:6379/'],
      [TEST, 'http://169.254.169.254/latest/meta-data/'],
    ] as const;
    for (const [e, url] of refused) expect(await deliver(e, url, { method: 'POST', body: '{}' }), url).toEqual(GENERIC);
    expect(
      onHosts(
        fetched,
        refused.map(([, url]) => url),
      ),
    ).toEqual([]);
  });

  it('a network error and a timeout answer the same NOT_DELIVERED; an answer is reported with its status', async () => {
    resolveTo([PUBLIC_IP]);
    const errors: unknown[] = [
      new TypeError('connect ECONNREFUSED 10.0.0.5:5432'),
      new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      new Error('TLS handshake failed'),
    ];
    for (const e of errors) {
      outbound.fetch = failWith(e);
      expect(await deliver(PROD, 'https://hooks.example.com/x', { method: 'POST', body: '{}' })).toEqual(GENERIC);
      expect(await deliver(TEST, 'https://hooks.example.test/x', { method: 'POST', body: '{}' })).toEqual(GENERIC);
    }
    const seen: { url: string; redirect?: RequestInit['redirect'] }[] = [];
    outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
      seen.push({ url: String(input), redirect: init?.redirect });
      return new Response('nope', { status: 503 });
    };
    expect(await deliver(PROD, 'https://hooks.example.com/x', { method: 'POST', body: '{}' })).toEqual({
      delivered: false,
      statusCode: 503,
      error: 'HTTP 503',
    });
    outbound.fetch = async () => new Response('ok', { status: 200 });
    expect(await deliver(PROD, 'https://hooks.example.com/x', { method: 'POST', body: '{}' })).toEqual({ delivered: true, statusCode: 200, error: null });
    // Redirects are never followed by a delivery.
    expect(seen.filter((s) => s.url.startsWith('https://hooks.example.com/'))).toEqual([{ url: 'https://hooks.example.com/x', redirect: 'manual' }]);
  });
});

describe('fetchPublic re-checks every redirect', () => {
  const ACCEPT = { accept: ['text/html'] };

  it('refuses a 302 to http://127.0.0.1/ (400) without fetching it', async () => {
    web = fakeWeb({ 'https://page.example.com/a': { status: 302, headers: { location: 'http://127.0.0.1/' } } });
    for (const e of [TEST, PROD]) {
      const err = await refusal(() => fetchPublic(e, 'https://page.example.com/a', { ...ACCEPT, field: 'pageUrl' }));
      expect(err.status).toBe(400);
      expect(err.code).toBe('validation_failed');
      expect(err.details?.[0]).toMatchObject({ field: 'pageUrl', code: 'unsafe_url' });
    }
    expect(web.fetchedOf(['https://page.example.com/', 'http://127.0.0.1/'])).toEqual(['https://page.example.com/a', 'https://page.example.com/a']);
  });

  it('refuses a redirect to a name resolving inside, and to a loopback name, even in development', async () => {
    web = fakeWeb(
      {
        'https://page.example.com/a': { status: 301, headers: { location: 'https://inside.example.com/admin' } },
        'https://page.example.com/b': { status: 307, headers: { location: '//localhost:8787/' } },
        'https://page.example.com/c': { status: 302, headers: { location: 'https://[::ffff:7f00:1]/' } },
      },
      { 'inside.example.com': ['10.0.0.1'] },
    );
    for (const e of [PROD, TEST, DEV]) {
      for (const path of ['a', 'b', 'c']) {
        const err = await refusal(() => fetchPublic(e, `https://page.example.com/${path}`, ACCEPT));
        expect(err.details?.[0]).toMatchObject({ field: 'url', code: 'unsafe_url' });
      }
    }
    expect(web.fetchedOf(['https://inside.example.com/', 'http://localhost/', 'https://[::ffff:7f00:1]/'])).toEqual([]);
    expect(web.resolved).toContain('inside.example.com');
  });

  it('follows a redirect to a public page', async () => {
    web = fakeWeb({
      'https://page.example.com/a': { status: 302, headers: { location: '/b' } },
      'https://page.example.com/b': { body: '<html>ok</html>' },
    });
    const r = await fetchPublic(PROD, 'https://page.example.com/a', ACCEPT);
    expect(r).toMatchObject({ url: 'https://page.example.com/b', status: 200, redirects: ['https://page.example.com/b'] });
    expect(new TextDecoder().decode(r.body)).toBe('<html>ok</html>');
  });
});

describe('through the API (ENVIRONMENT test)', () => {
  it('runs in the test environment', () => {
    expect(env.ENVIRONMENT).toBe('test');
  });

  it('refuses operator webhook URLs to a non-loopback private address or with credentials; accepts its own local URL', async () => {
    const op = await createOperator();
    const k = { key: op.adminKey };
    for (const url of ['http://[::7f00:1]:8080/x', 'https://user:pw@example.com', 'http://10.0.0.1/x', 'http://[fd00::1]/x', 'http://localtest.me/x']) {
      const r = await post('/webhooks', { url, events: ['*'] }, k);
      expectError(r, 400, 'validation_failed');
      expect(r.body.details, url).toEqual([expect.objectContaining({ field: 'url', code: 'unsafe_url' })]);
    }
    // An operator's own explicit local URL (localInDevelopment), on any port, while developing.
    const ok = await post('/webhooks', { url: 'http://localhost:8787/hooks', events: ['*'] }, k);
    expect(ok.status, ok.text).toBe(201);
    // Removed again: no later event of this operator is delivered to this machine.
    expect((await del(`/webhooks/${ok.body.id}`, undefined, k)).status).toBeLessThan(300);
  });

  it('refuses a loopback webhook URL on a partner app (400 naming webhooks.url)', async () => {
    const p = await registerPartner('Loopback Apps');
    const base = { name: 'Local Hook', scopes: ['read:bookings'] };
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost:3000/hook', 'http://[::1]/hook', 'http://0x7f.1/hook', 'https://127.0.0.1/hook']) {
      const r = await post('/partners/apps', { ...base, webhooks: { url, events: ['booking.*'] } }, bearer(p.token));
      expectError(r, 400, 'validation_failed');
      expect(
        r.body.details.some((d: { field: string }) => d.field === 'webhooks.url'),
        `${url}: ${r.text}`,
      ).toBe(true);
    }
  });

  it('the partner webhook test reports one generic outcome for an unreachable URL (no status, reason or duration)', async () => {
    const p = await registerPartner('Probe Apps');
    const app = await createApp(p, { webhooks: { url: 'https://hooks.example.test/berth', events: ['booking.*'] } });
    const test = async () => {
      const r = await post(`/partners/apps/${app.appId}/webhooks/test`, { event: 'booking.created' }, bearer(p.token));
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    const outcomes = [];
    for (const e of [new TypeError('connect ECONNREFUSED 127.0.0.1:22'), new DOMException('timed out', 'TimeoutError'), new Error('reset by peer')]) {
      outbound.fetch = failWith(e);
      outcomes.push(await test());
    }
    for (const o of outcomes)
      expect(o).toEqual({
        eventId: expect.stringMatching(/^evt_/),
        event: 'booking.created',
        url: 'https://hooks.example.test/berth',
        delivered: false,
        statusCode: null,
        error: NOT_DELIVERED,
        durationMs: 0,
      });
    // A URL stored before the policy (loopback, any port) is refused at send time: the same outcome, and nothing is fetched.
    const fetched = noNetwork();
    const stored = ['http://127.0.0.1:22/', 'http://127.0.0.1:5432/', 'http://[::1]:6379/'];
    for (const url of stored) {
      await env.DB.prepare('UPDATE partner_apps SET webhook_url = ? WHERE id = ?').bind(url, app.appId).run();
      outcomes.push({ ...(await test()), url: 'https://hooks.example.test/berth' });
    }
    expect(onHosts(fetched, stored)).toEqual([]);
    // Whatever went wrong, the caller learns nothing more than "not delivered".
    const strip = ({ eventId: _, ...rest }: Record<string, unknown>) => rest;
    expect(outcomes).toHaveLength(6);
    expect(new Set(outcomes.map((o) => JSON.stringify(strip(o)))).size).toBe(1);
  });
});
