/**
 * GET / (a small landing page pointing to the API reference and the booking widget) and the
 * favicon (GET /favicon.svg, also answered at /favicon.ico, the path browsers ask for). Static
 * HTML from Berth's own origin with a strict Content-Security-Policy: no script at all.
 */
import type { Context } from 'hono';

const LANDING_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A boat on the water, in the widget's blue. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5cab"/><path d="M14 38h36l-6 9H20z" fill="#fff"/><path d="M31 13v22H18z" fill="#fff"/><path d="M34 17l11 18H34z" fill="#cfe3f7"/><path d="M8 52c6 0 6-3 12-3s6 3 12 3 6-3 12-3 6 3 12 3" stroke="#cfe3f7" stroke-width="3" fill="none"/></svg>`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Berth</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #14213d; background: #f5f8fc; }
      main { max-width: 40rem; margin: 0 auto; padding: 3rem 1.25rem; }
      h1 { display: flex; align-items: center; gap: .75rem; margin: 0 0 .5rem; font-size: 2rem; }
      h1 img { width: 2.5rem; height: 2.5rem; }
      a { color: #0b5cab; }
      section { background: #fff; border: 1px solid #dbe4ef; border-radius: .75rem; padding: 1.25rem; margin-top: 1.25rem; }
      label { display: block; font-weight: 600; margin-bottom: .25rem; }
      input { font: inherit; padding: .5rem; border: 1px solid #9fb3c8; border-radius: .375rem; width: min(100%, 18rem); }
      button { font: inherit; padding: .5rem 1rem; border: 0; border-radius: .375rem; background: #0b5cab; color: #fff; cursor: pointer; }
    </style>
  </head>
  <body>
    <main>
      <h1><img src="/favicon.svg" alt="" /> Berth</h1>
      <p>The API behind boat, tour and marina rental businesses: bookings with live availability, payments, deposits and waivers,
        point of sale, memberships, marinas, a booking widget, a reseller channel API and partner apps.</p>
      <section>
        <h2>API reference</h2>
        <p>Every endpoint, its parameters, answers and errors: <a href="/docs">open the API reference</a>
          (or fetch <a href="/openapi.json">/openapi.json</a>).</p>
      </section>
      <section>
        <h2>Booking widget</h2>
        <form action="/widget" method="get">
          <label for="customer">Operator id</label>
          <input id="customer" name="customer" placeholder="cus_..." required pattern="cus_[A-Za-z0-9_]+" />
          <button type="submit">Open the widget</button>
        </form>
        <p>In the sandbox started by <code>npm start</code>, the demo operator is <a href="/widget?customer=cus_demo_marina">Demo Marina</a>.</p>
      </section>
    </main>
  </body>
</html>
`;

export function landingPage(c: Context) {
  return c.html(PAGE, 200, {
    'Content-Security-Policy': LANDING_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'public, max-age=300',
  });
}

export function favicon(c: Context) {
  return c.body(FAVICON, 200, {
    'Content-Type': 'image/svg+xml',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'public, max-age=86400',
  });
}
