/**
 * GET /docs: the interactive API reference, served entirely from Berth's own origin. The page loads
 * the reference's browser bundle from the Worker's static assets (copied from the installed, locked
 * `@scalar/api-reference` package by scripts/build-assets.mjs) and a small loader script, never a CDN:
 * it renders with no network beyond Berth, and always runs the version in package-lock.json. The
 * Content-Security-Policy allows scripts from Berth's origin only (no inline script, no eval).
 */
import type { Context } from 'hono';

export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // The reference injects its component styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Berth API reference</title>
  </head>
  <body>
    <div id="app" data-openapi-url="/openapi.json">Loading the API reference…</div>
    <script src="/static/vendor/scalar/api-reference.js"></script>
    <script src="/static/docs/init.js"></script>
  </body>
</html>
`;

export function docsPage(c: Context) {
  return c.html(PAGE, 200, {
    'Content-Security-Policy': DOCS_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  });
}
