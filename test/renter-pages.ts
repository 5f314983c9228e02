/** Checks of the renter-facing HTML pages (the widget, the member and tenant portals): Berth's own scripts only, no framing. */
import { expect } from 'vitest';
import type { ApiResult } from './harness';

/** A portal page: HTML, its app's script from Berth's origin, scripts and styles of Berth only, no site may frame it. */
export function expectPortalPage(r: ApiResult, script: string) {
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get('content-type')).toContain('text/html');
  const csp = r.headers.get('content-security-policy')!;
  expect(csp).toContain("script-src 'self';");
  expect(csp).toContain("style-src 'self';");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(r.headers.get('x-frame-options')).toBe('DENY');
  // The sign-in token of the first address never leaves the page as a referrer.
  expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  expect(r.text).toContain(`<script src="${script}?v=`);
  expect(r.text).toContain('<link rel="stylesheet" href="/static/widget/app.css?v=');
  expect(r.text).toContain('role="status" aria-live="polite"');
  expect(r.text).not.toMatch(/(src|href)="https?:\/\//);
  expect(r.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
}
