/** GET / (the landing page) and the favicon: real pages, not a JSON 404, with no script allowed. */
import { describe, it, expect } from 'vitest';
import { SELF } from 'cloudflare:test';
import { BASE } from '../harness';

describe('landing page and favicon', () => {
  it('GET / answers a small HTML page linking to /docs, /openapi.json and the widget, with a no-script CSP', async () => {
    const r = await SELF.fetch(`${BASE}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('content-security-policy')).not.toContain('script-src');
    const html = await r.text();
    for (const href of ['href="/docs"', 'href="/openapi.json"', 'action="/widget"', 'href="/favicon.svg"']) expect(html).toContain(href);
    expect(html).not.toContain('<script');
  });

  it('the favicon is an SVG at /favicon.svg and at /favicon.ico, where browsers ask for it', async () => {
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const r = await SELF.fetch(`${BASE}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml');
      expect(await r.text()).toMatch(/^<svg /);
    }
  });

  it('an unknown path still answers the JSON 404', async () => {
    const r = await SELF.fetch(`${BASE}/no-such-page`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: string }).error).toBe('route_not_found');
  });
});
