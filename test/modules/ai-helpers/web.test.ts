/** Outside pages through HTTP: the hostile-URL corpus, redirects, caps; GET /ai/proxy-page and POST /ai/scrape-inventory. */
import { afterEach, beforeAll, describe, it, expect } from 'vitest';
import { api, createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { fakeWeb, type FakePage } from './web';
import { publicFetchLimits } from '../../../src/adapters/http';

let op: Operator;
let web: ReturnType<typeof fakeWeb> | null = null;
beforeAll(async () => {
  op = await createOperator();
});
afterEach(() => {
  web?.restore();
  web = null;
});
const k = () => ({ key: op.adminKey });
const proxy = (url: string) => get(`/ai/proxy-page?url=${encodeURIComponent(url)}`, k());

/** URLs that must never be fetched: internal addresses in every spelling, credentials, schemes, ports, internal names. */
const HOSTILE = [
  'http://127.0.0.1/',
  'http://localhost/admin',
  'http://localhost./',
  'http://2130706433/', // 127.0.0.1 in decimal
  'http://0x7f000001/', // in hex
  'http://0x7f.0x0.0x0.0x1/',
  'http://0177.0.0.1/', // in octal
  'http://127.1/',
  'http://0/',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://[::]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:169.254.169.254]/',
  'http://[::127.0.0.1]/', // IPv4-compatible
  'http://[64:ff9b::a9fe:a9fe]/', // NAT64 of 169.254.169.254
  'http://[2002:c0a8:101::1]/', // 6to4 of 192.168.1.1
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', // Teredo
  'http://[fe80::1]/',
  'http://[fd00:ec2::254]/', // AWS metadata over IPv6
  'http://169.254.169.254/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://100.64.0.1/', // carrier-grade NAT
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://example.com@127.0.0.1/', // userinfo trick: the host is 127.0.0.1
  'http://127.0.0.1#@example.com/',
  'http://127.0.0.1:80\\@example.com/',
  'http://user:pass@example.com/',
  'http://example.com:22/',
  'http://example.com:6379/',
  'ftp://example.com/file',
  'file:///etc/passwd',
  'gopher://example.com:70/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://printer/',
  'http://nas.local/',
  'http://service.internal/',
  'not a url',
];

describe('safe public fetch: every hostile URL is refused with 400 and never fetched', () => {
  it('refuses internal addresses, credentials, schemes, ports and internal names', async () => {
    web = fakeWeb({});
    for (const url of HOSTILE) {
      const r = await proxy(url);
      expect(r.status, `${url}: ${r.text}`).toBe(400);
      expect(r.body.error).toBe('validation_failed');
    }
    expect(web.fetchedOf(HOSTILE)).toEqual([]);
    // The same guard on the other helpers that fetch.
    const others = ['http://[::ffff:10.0.0.1]/', 'http://169.254.169.254/receipt.png', 'http://0x7f000001/license.jpg', 'http://[::1]/r.png'];
    expectError(await post('/ai/scrape-inventory', { url: others[0] }, k()), 400, 'validation_failed');
    expectError(await post('/ai/extract-receipt-data', { receiptImage: others[1] }, k()), 400, 'validation_failed');
    expectError(await post('/ai/extract-license', { image: others[2] }, k()), 400, 'validation_failed');
    expectError(await post('/ai/validate-receipt', { receiptImage: others[3], inputData: { total: 1 } }, k()), 400, 'validation_failed');
    expect(web.fetchedOf([...HOSTILE, ...others])).toEqual([]);
  });

  it('refuses names that resolve to internal addresses, and names that do not resolve', async () => {
    web = fakeWeb(
      {},
      {
        'rebind.attacker.test': ['10.0.0.5'],
        'mixed.attacker.test': ['93.184.216.34', '127.0.0.1'],
        'v6.attacker.test': ['::1'],
        'mapped.attacker.test': ['::ffff:192.168.0.1'],
        'metadata.attacker.test': ['169.254.169.254'],
        'nowhere.example.test': [],
      },
    );
    for (const host of ['rebind', 'mixed', 'v6', 'mapped', 'metadata'])
      expect((await proxy(`https://${host}.attacker.test/`)).body.details[0].code, host).toBe('unsafe_url');
    expect((await proxy('https://nowhere.example.test/')).body.details[0].code).toBe('unresolvable');
    const named = ['rebind', 'mixed', 'v6', 'mapped', 'metadata'].map((h) => `https://${h}.attacker.test/`);
    expect(web.fetchedOf([...named, 'https://nowhere.example.test/'])).toEqual([]);
  });

  it('checks every redirect (at most 3), the content type and the size', async () => {
    const html = (s: string): FakePage => ({ body: `<html><body>${s}</body></html>` });
    const redirect = (to: string): FakePage => ({ status: 302, headers: { location: to } });
    web = fakeWeb(
      {
        'https://good.example.test/to-private': redirect('http://127.0.0.1/admin'),
        'https://good.example.test/to-mapped': redirect('http://[::ffff:a9fe:a9fe]/'),
        'https://good.example.test/to-rebind': redirect('https://rebind.attacker.test/'),
        'https://good.example.test/r1': redirect('/r2'),
        'https://good.example.test/r2': redirect('/r3'),
        'https://good.example.test/r3': redirect('/r4'),
        'https://good.example.test/r4': redirect('/final'),
        'https://good.example.test/final': html('done'),
        'https://good.example.test/two': redirect('/r3'),
        'https://good.example.test/binary': { headers: { 'content-type': 'application/octet-stream' }, body: 'MZ' },
        'https://good.example.test/huge': { body: `<html>${'x'.repeat(3 * 1024 * 1024 + 10)}</html>` },
        'https://good.example.test/huge-declared': { headers: { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) }, body: 'small' },
        'https://good.example.test/error': { status: 500, body: 'oops' },
      },
      { 'rebind.attacker.test': ['192.168.0.10'] },
    );
    const code = async (path: string) => (await proxy(`https://good.example.test${path}`)).body.details?.[0]?.code;
    expect(await code('/to-private')).toBe('unsafe_url');
    expect(await code('/to-mapped')).toBe('unsafe_url');
    expect(await code('/to-rebind')).toBe('unsafe_url');
    expect(await code('/r1')).toBe('too_many_redirects');
    expect(await code('/binary')).toBe('unsupported_content_type');
    expect(await code('/huge')).toBe('too_large');
    expect(await code('/huge-declared')).toBe('too_large');
    expect(await code('/error')).toBe('upstream_error');
    expect(web.fetched.map((u) => new URL(u).hostname).filter((h) => h !== 'good.example.test')).toEqual([]);
    // Two redirects are fine.
    const ok = await proxy('https://good.example.test/two');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('x-proxied-url')).toBe('https://good.example.test/final');
  });
});

describe('safe public fetch: time cap', () => {
  it('gives up on a peer that never answers, or stops sending, within the cap', async () => {
    web = fakeWeb({
      'https://slow.example.test/silent': { hang: 'headers' },
      'https://slow.example.test/trickle': { hang: 'body' },
      'https://slow.example.test/redirect-to-silent': { status: 302, headers: { location: '/silent' } },
    });
    const cap = publicFetchLimits.timeoutMs;
    publicFetchLimits.timeoutMs = 300;
    try {
      for (const path of ['/silent', '/trickle', '/redirect-to-silent']) {
        const t0 = Date.now();
        const r = await proxy(`https://slow.example.test${path}`);
        expect(r.status, `${path}: ${r.text}`).toBe(400);
        expect(r.body.details[0], path).toMatchObject({ field: 'url', code: 'timeout' });
        expect(Date.now() - t0, path).toBeLessThan(3_000);
      }
      // The other helpers that fetch keep the same cap.
      const scrape = await post('/ai/scrape-inventory', { url: 'https://slow.example.test/trickle' }, k());
      expect(scrape.body.details?.[0]?.code, scrape.text).toBe('timeout');
      const receipt = await post('/ai/extract-receipt-data', { receiptImage: 'https://slow.example.test/silent' }, k());
      expect(receipt.body.details?.[0]?.code, receipt.text).toBe('timeout');
    } finally {
      publicFetchLimits.timeoutMs = cap;
    }
  });
});

describe('GET /ai/proxy-page', () => {
  it("answers the page with every script removed, a base, Berth's selection script and a strict policy", async () => {
    const page = `<!doctype html><html><head><title>Boats</title>
      <meta http-equiv="refresh" content="0;url=https://evil.test/">
      <meta http-equiv="Content-Security-Policy" content="script-src *">
      <script src="https://cdn.test/app.js"></script><script>steal()</script>
      <link rel="preload" as="script" href="/x.js"><link rel="stylesheet" href="/site.css"></head>
      <body onload="steal()"><h1 onclick="steal()">Our fleet</h1>
      <a href="javascript:steal()">Book</a><a href="/boats/pontoon">Pontoon</a>
      <img src="/img/boat.jpg" onerror="steal()" alt="Boat">
      <iframe src="https://ads.test/"></iframe><object data="x.swf"></object><embed src="x.swf">
      <form action="javascript:steal()"><button formaction="javascript:steal()">Go</button></form>
      <noscript><img src="/tracker.gif"></noscript>
      <svg><script>steal()</script></svg>
      </body></html>`;
    web = fakeWeb({ 'https://www.marina.test/fleet': { body: page } });
    const r = await proxy('https://www.marina.test/fleet');
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const html = r.text;
    expect(html).not.toMatch(/steal\(\)|cdn\.test|evil\.test|ads\.test|x\.swf|tracker\.gif|javascript:/);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/http-equiv="refresh"|rel="preload"/i);
    expect(html).toContain('<base href="https://www.marina.test/fleet">');
    expect(html).toContain('href="/boats/pontoon"');
    expect(html).toContain('rel="stylesheet"');
    const nonce = /<script nonce="([0-9a-f]+)">/.exec(html)?.[1];
    expect(nonce).toBeTruthy();
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain("type: 'berth:select'");
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).toContain('sandbox allow-scripts');
    expect(csp).toContain("connect-src 'none'");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'`);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('adds the base, policy and script to a page without head or body tags', async () => {
    web = fakeWeb({ 'https://bare.example.test/': { body: '<p>Just a paragraph<script>x()</script></p>' } });
    const r = await proxy('https://bare.example.test/');
    expect(r.status).toBe(200);
    expect(r.text).toContain('<base href="https://bare.example.test/">');
    expect(r.text).toContain('berth:select');
    expect(r.text).not.toContain('x()');
  });

  it('needs credentials and a url', async () => {
    expectError(await get('/ai/proxy-page', k()), 400, 'validation_failed');
    await checkSecurity(op, { method: 'GET', path: '/ai/proxy-page?url=https%3A%2F%2Fwww.marina.test%2F' });
  });
});

describe('POST /ai/scrape-inventory', () => {
  it('drafts items from structured data first, then from sections with a boat and a price; never invents values', async () => {
    const page = `<html><head><title>Sunny Boats</title>
      <script type="application/ld+json">${JSON.stringify({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'LocalBusiness', name: 'Sunny Boats' },
          {
            '@type': 'Product',
            name: '24 ft Pontoon',
            description: 'Seats up to 10 guests. Bimini top.',
            image: ['https://img.sunny.test/pontoon.jpg'],
            offers: { '@type': 'Offer', price: '450.00', priceCurrency: 'USD', priceSpecification: { unitCode: 'DAY' } },
          },
        ],
      })}</script></head><body>
      <h1>Our fleet</h1>
      <h2>24 ft Pontoon</h2><p>Great for families.</p><p>$450 per day</p>
      <h2>Jet Ski</h2><p>Two riders, life vests included.</p><p>$95 / hour</p><img src="/img/jetski.jpg">
      <h2>Sunset Cruise</h2><p>Up to 12 people, champagne on board.</p><p>From €89.50 per person</p>
      <h2>Kayak</h2><p>Call us for prices.</p>
      <h2>About us</h2><p>Family run since 1988. Gift cards from $25.</p>
      </body></html>`;
    web = fakeWeb({ 'https://sunny.test/fleet': { body: page } });
    const r = await post('/ai/scrape-inventory', { url: 'https://sunny.test/fleet' }, k());
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ url: 'https://sunny.test/fleet', finalUrl: 'https://sunny.test/fleet', title: 'Sunny Boats' });
    expect(r.body.counts).toEqual({ structuredData: 1, pageText: 2 });
    const [pontoon, jetski, cruise] = r.body.items;
    expect(pontoon).toMatchObject({
      name: '24 ft Pontoon',
      type: 'rental',
      price: 450,
      priceCents: 45000,
      priceUnit: 'day',
      currency: 'usd',
      capacity: 10,
      lengthFt: 24,
      images: ['https://img.sunny.test/pontoon.jpg'],
      confidence: 'structured_data',
    });
    expect(jetski).toMatchObject({ name: 'Jet Ski', price: 95, priceCents: 9500, priceUnit: 'hour', currency: 'usd', capacity: null, confidence: 'page_text' });
    expect(jetski.images).toEqual(['https://sunny.test/img/jetski.jpg']);
    expect(cruise).toMatchObject({ name: 'Sunset Cruise', type: 'tour', price: 89.5, priceUnit: 'person', currency: 'eur', capacity: 12, lengthFt: null });
    expect(r.body.items.map((i: any) => i.name)).not.toContain('Kayak'); // no price on the page: not drafted
  });

  it('says so when nothing is found; 401 without credentials', async () => {
    web = fakeWeb({ 'https://empty.test/': { body: '<html><body><h1>Welcome</h1><p>Nothing for rent.</p></body></html>' } });
    const r = await post('/ai/scrape-inventory', { url: 'https://empty.test/' }, k());
    expect(r.body.items).toEqual([]);
    expect(r.body.notes).toMatch(/No boats or tours/);
    expectError(await api('POST', '/ai/scrape-inventory', { body: { url: 'https://empty.test/' } }), 401, 'unauthenticated');
    expectError(await post('/ai/scrape-inventory', {}, k()), 400, 'validation_failed');
    await checkSecurity(op, { method: 'POST', path: '/ai/scrape-inventory', body: { url: 'https://empty.test/' } });
  });
});
