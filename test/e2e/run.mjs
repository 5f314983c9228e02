#!/usr/bin/env node
/* global window, document, location, sessionStorage, PerformanceObserver, URLSearchParams -- page functions run in the browser; URLSearchParams is Node's */
// Browser tests of the booking widget and /docs: `npm run test:e2e`.
// Runs against a started server with its sandbox seed (`npm start`; .ci/run starts and stops one): E2E_BASE_URL, else
// http://127.0.0.1:$PORT (default 8787). Drives Debian's chromium (/usr/bin/chromium, or CHROMIUM_PATH) with playwright-core,
// headless with a new empty profile, every request outside Berth's origin refused:
//   1. a renter on a phone books a boat end to end inside the embed script's iframe, which follows its content's height both ways
//      (waiver, the cancellation policy and the terms before paying, test card, pass, .ics, postMessage);
//   2. a keyboard-only renter books a tour (a price line per fare tier);
//   3. a sold-out departure offers the waitlist and the renter joins it;
//   4. the renter of (1) cancels with the code e-mailed to them (read from the outbox API); a renter on a phone changes a tour
//      booking (another departure, one more adult, an add-on), sees the new price and the difference, confirms, and the pass shows it;
//   5. /docs renders its operation list with no request outside Berth's origin;
//   6. a renter books with coverage: the card, the underwriter's questions (every field type), the higher price accepted, the
//      policy and its document on the booking page;
//   7. with the underwriter down (no card; the booking goes ahead after a declined card, its message shown once) and with binds failing
//      (the page says the policy has not issued yet);
//   8. every step is a history entry: Back, Forward and a reload keep the party, the add-ons and the promo code;
//   9. cart recovery: the cart is recorded once the renter gives their e-mail, its link restores it, the booking completes it;
//  10. the member portal on a phone: a new member asks for a sign-in link, opens it from the outbox (the token leaves the
//      address), sees the card and invoices, pauses, resumes, updates the card, cancels (confirmed first), signs out; the used
//      link then says so;
//  11. the tenant portal on a phone: a tenant with a stay of this run asks for a link, opens it, uploads a document, signs the
//      contract, creates and revokes a guest pass and pays the balance with a new card.
// axe-core (injected into the page) reports no serious or critical violation on any step of the widget and the portals.
// Screenshots of each step go to test/e2e/screenshots/ (git-ignored).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Buffer } from 'node:buffer';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { devVar } from '../dev-vars.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const base = (process.env.E2E_BASE_URL || `http://127.0.0.1:${process.env.PORT || '8787'}`).replace(/\/$/, '');
const shots = join(root, 'test/e2e/screenshots');
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const KEY = devVar('DEMO_API_KEY');
const SEED_TOKEN = devVar('DEV_SEED_TOKEN');
const PARTNER_PASSWORD = devVar('DEMO_PARTNER_PASSWORD');
const CUSTOMER = 'cus_demo_marina';
const MIAMI = 'loc_demo_miami';
const TOUR = 'inv_demo_dolphin_tour';
const CONSOLE = 'inv_demo_center_console';
const COVERAGE_OFFERING = 'cov_demo_reference_cover';
// The operator's site: another origin (a small server of this script on its own port) whose page embeds the widget.
let hostPage = '';
const operatorSite = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(hostPage);
});
await new Promise((r) => operatorSite.listen(0, '127.0.0.1', r));
const HOST = `http://127.0.0.1:${operatorSite.address().port}`;

if (!existsSync(chromiumPath)) {
  console.error(`chromium not found at ${chromiumPath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  process.exit(1);
}
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });

// ---------------------------------------------------------------------------------------------
// The browser profile (a new, empty directory for every run) and the server's readiness

const profile = mkdtempSync(join(tmpdir(), 'berth-e2e-profile-'));
let browser;
async function cleanup() {
  await browser?.close().catch(() => undefined);
  operatorSite.close();
  rmSync(profile, { recursive: true, force: true });
}
process.on('SIGINT', async () => {
  await cleanup();
  process.exit(130);
});

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no server answers on ${base}: start one with \`npm start\` (or set E2E_BASE_URL)`);
}

async function call(method, path, body, headers = {}) {
  const r = await fetch(base + path, {
    method,
    headers: { 'x-api-key': KEY, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, body: json, text };
}

// ---------------------------------------------------------------------------------------------
// Helpers

const results = [];
async function scenario(name, fn) {
  // E2E_ONLY=<regex> runs only the scenarios whose name matches (while working on one).
  if (process.env.E2E_ONLY && !new RegExp(process.env.E2E_ONLY, 'i').test(name)) return;
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  } catch (err) {
    results.push({ name, ok: false, error: err });
    console.log(
      `FAIL ${name}\n     ${String(err?.stack ?? err)
        .split('\n')
        .slice(0, 6)
        .join('\n     ')}`,
    );
  }
}

// axe-core's browser build, evaluated in the page (or the widget's frame) by the test driver, not loaded by the page itself.
const AXE = readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
/** axe on the page (or frame) as it is now: no serious or critical violation. */
async function axeClean(target, label) {
  if (!(await target.evaluate(() => typeof window.axe === 'object'))) await target.evaluate(AXE);
  const { violations } = await target.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  assert.deepEqual(bad, [], `axe on ${label}`);
  axeChecked.add(label);
}
const axeChecked = new Set();
/** The widget's frame inside the host page (for axe). */
const widgetFrame = (page) => page.frames().find((f) => f.url().startsWith(`${base}/widget`));

let shotNo = 0;
const shot = (page, label) => page.screenshot({ path: join(shots, `${String(++shotNo).padStart(2, '0')}-${label}.png`), fullPage: true });

/** A new page of the browser's (persistent, fresh) profile; requests outside Berth's origin are refused and recorded per page. */
let context;
let external = [];
async function newPage() {
  external = [];
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text());
  });
  return { context: { close: () => page.close() }, page, external, errors };
}

/** A local date at least `days` ahead in the location's zone. */
function dateAhead(days, tz = 'America/New_York') {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}

/**
 * Waits until the embed script's iframe has the height of the widget's content (its root, #bw), within a pixel, and answers it:
 * the frame follows the content both ways, never the height of its own viewport.
 */
async function frameFitsContent(page, frame) {
  const iframe = page.locator('iframe[title="Online booking"]');
  let seen = null;
  for (let i = 0; i < 50; i++) {
    const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
    const inner = await frame.locator('#bw').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
    seen = { outer, inner };
    if (inner > 0 && Math.abs(outer - Math.max(inner, 120)) <= 1) return outer;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the iframe (${seen.outer}px) does not follow the widget's content (${seen.inner}px)`);
}

async function outboxCode(rentalId, after) {
  for (let i = 0; i < 40; i++) {
    const r = await call('GET', `/outbox/messages?${new URLSearchParams({ rentalId })}`);
    const msg = (r.body?.data ?? []).find((m) => m.template === 'renter.code' && (!after || m.createdAt >= after));
    const code = msg && /is (\d{6})/.exec(msg.body)?.[1];
    if (code) return code;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error('no code e-mail in the outbox');
}

/** The sign-in link of the last e-mail of `template` to `to` written at or after `after`, on this server's origin. */
async function outboxLink(to, template, after) {
  for (let i = 0; i < 40; i++) {
    const r = await call('GET', `/outbox/messages?${new URLSearchParams({ to, template })}`);
    const msg = (r.body?.data ?? []).find((m) => !after || m.createdAt >= after);
    const link = msg && /https?:\/\/\S+?token=[A-Za-z0-9_]+\S*/.exec(msg.body)?.[0];
    if (link) {
      const u = new URL(link);
      return `${base}${u.pathname}${u.search}`;
    }
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error(`no ${template} e-mail to ${to} in the outbox`);
}

/** On the manage page: asks for a code with the button named `button`, and types in the code the outbox has. */
async function askForCode(page, rentalId, button) {
  const asked = new Date(Date.now() - 1000).toISOString();
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await page.getByLabel('6-digit code').fill(await outboxCode(rentalId, asked));
}

/** Waits for an image to load (or fail): its natural width (0 when it failed) and the URL the browser chose. */
const imageLoaded = (img) =>
  img.evaluate((el) =>
    el.complete && el.naturalWidth > 0
      ? { width: el.naturalWidth, src: el.currentSrc }
      : new Promise((done) => {
          el.addEventListener('load', () => done({ width: el.naturalWidth, src: el.currentSrc }), { once: true });
          el.addEventListener('error', () => done({ width: 0, src: el.currentSrc }), { once: true });
        }),
  );

// ---------------------------------------------------------------------------------------------
// Scenarios

let boatBooking = null;
let giftCode = '';

async function bookBoatThroughEmbed() {
  const { context, page, external, errors } = await newPage();
  const host = `<!doctype html><html><head><title>Demo Marina</title></head><body><h1>Demo Marina</h1>
    <p>Book below.</p><div id="booking"></div>
    <script>window.dataLayer = []; window.berthEvents = []; addEventListener('berth', (e) => berthEvents.push(e.detail));</script>
    <script src="${base}/widget.js" data-customer="${CUSTOMER}" data-ref="PARTNER7" data-target="#booking" async></script></body></html>`;
  // The operator's site on its own origin (served by the browser's router), embedding the widget with the script tag; on a phone.
  hostPage = host;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${HOST}/book`);
  const frame = page.frameLocator('iframe[title="Online booking"]');
  await frame.getByRole('heading', { name: 'Choose a boat or tour' }).waitFor();
  // The iframe follows the content: tall for the list of items (one column on a phone), shorter again for the calendar.
  const itemsHeight = await frameFitsContent(page, frame);
  // Every card shows its item's photo (a resized variant chosen from srcset), loaded: scrolled into view, since they load lazily.
  const cardImages = frame.locator('img.bw-card-img');
  const cards = await cardImages.count();
  assert.ok(cards >= 4, `photos on the item cards (${cards})`);
  for (let i = 0; i < cards; i++) {
    const img = cardImages.nth(i);
    await img.scrollIntoViewIfNeeded();
    const loaded = await imageLoaded(img);
    assert.ok(loaded.width > 0, `card photo ${i + 1} loaded (${loaded.src})`);
    assert.match(loaded.src, /\/inventory\/photos\/cus_demo_marina\/[^/]+\/[0-9a-z]{26}-\d+x\d+\/w\d+\.jpg$/);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'boat-embed-items');
  await axeClean(widgetFrame(page), 'items');
  // The operator has two locations: each card names its own (and prices in its currency).
  assert.match(await frame.getByRole('button', { name: /Segelboot Elbe 28/ }).innerText(), /€[\s\S]*At Demo Marina Hamburg/);
  assert.match(await frame.getByRole('button', { name: /Pontoon 22/ }).innerText(), /\$[\s\S]*At Demo Marina Miami/);
  await frame.getByRole('button', { name: /Pontoon 22/ }).click();
  await frame.getByRole('heading', { name: /Pick a date for Pontoon 22/ }).waitFor();
  // The item's photo above its calendar, named by the item.
  const intro = frame.getByRole('img', { name: 'Pontoon 22' });
  await intro.waitFor();
  assert.ok((await imageLoaded(intro)).width > 0, "the item's photo loaded");
  const calendarHeight = await frameFitsContent(page, frame);
  assert.ok(calendarHeight < itemsHeight, `the iframe shrinks from the items (${itemsHeight}px) to the calendar (${calendarHeight}px)`);
  // The first open day at least three days ahead (next month when this one has none).
  const wanted = dateAhead(3);
  const pick = async () => {
    const days = frame.locator('.bw-day.is-available, .bw-day.is-few');
    const n = await days.count();
    for (let i = 0; i < n; i++) {
      const d = await days.nth(i).getAttribute('data-date');
      if (d >= wanted) return days.nth(i);
    }
    return null;
  };
  let day = await pick();
  if (!day) {
    // Wait for the next month's days themselves: the old month's stay on the page until its data arrives.
    const shown = (await frame.locator('.bw-day').first().getAttribute('data-date')).slice(0, 7);
    const [y, m] = shown.split('-').map(Number);
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    await frame.getByRole('button', { name: 'Next month' }).click();
    await frame.locator(`.bw-day[data-date^="${next}"]`).first().waitFor();
    day = await pick();
  }
  assert.ok(day, 'an open day');
  await shot(page, 'boat-calendar');
  await axeClean(widgetFrame(page), 'calendar');
  await day.click();
  await frame.getByRole('heading', { name: /^Times on/ }).waitFor();
  // The time zone by its name, not its IANA id.
  const zoneHint = await frame.locator('.bw-hint').first().innerText();
  assert.match(zoneHint, /Eastern Time/);
  assert.doesNotMatch(zoneHint, /America\/New_York/);
  await frameFitsContent(page, frame);
  await shot(page, 'boat-times');
  await axeClean(widgetFrame(page), 'times');
  await frame.locator('.bw-slot:not(.is-sold_out)').first().click();
  await frame.locator('#bw-summary dl').waitFor();
  // The cooler is a checkbox, or a counter when more than one can be rented.
  const cooler = frame.getByRole('checkbox', { name: /Cooler with ice/ });
  if (await cooler.count()) await cooler.check();
  else await frame.getByRole('button', { name: /More: Cooler with ice/ }).click();
  await frame
    .locator('#bw-summary dd', { hasText: '$15.00' })
    .first()
    .waitFor()
    .catch(() => undefined);
  // The damage waiver (a protection plan): its premium is shown in the summary and charged after the booking.
  const damageWaiver = frame.getByRole('radio', { name: /^Damage waiver/ });
  await damageWaiver.check();
  await frame.locator('#bw-summary', { hasText: 'Damage waiver' }).waitFor();
  // A radio (or checkbox) and its label line up: the label's first line starts level with the box.
  const boxAt = await damageWaiver.boundingBox();
  const labelAt = await frame.locator(`label[for="${await damageWaiver.getAttribute('id')}"]`).boundingBox();
  assert.ok(Math.abs(labelAt.y - boxAt.y) <= 3, `the label (y ${labelAt.y}) sits level with its radio (y ${boxAt.y})`);
  // A gift card typed in the promo or gift code field pays part of the order.
  await frame.getByLabel('Code', { exact: true }).fill(giftCode);
  await frame.getByRole('button', { name: 'Apply' }).click();
  await frame.getByText(`Gift card ${giftCode} pays $25.00.`).waitFor();
  await frame.locator('#bw-summary', { hasText: 'Due now by card' }).waitFor();
  await shot(page, 'boat-extras');
  await axeClean(widgetFrame(page), 'party and extras');
  await frame.getByRole('button', { name: 'Continue' }).click();
  // Miami offers coverage: the card is shown; this renter goes on without it (the default).
  await frame.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  assert.ok(await frame.getByRole('radio', { name: /^Add Reference Boat Cover for \$/ }).isVisible());
  assert.ok(await frame.getByRole('radio', { name: 'No coverage' }).isChecked());
  await axeClean(widgetFrame(page), 'coverage');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Your details' }).waitFor();
  await frame.getByLabel('First name').fill('Rita');
  await frame.getByLabel('Last name').fill('Renter');
  await frame.getByLabel('E-mail').fill(`rita.${Date.now()}@example.com`);
  await shot(page, 'boat-details');
  await axeClean(widgetFrame(page), 'details');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByRole('heading', { name: 'Rental agreement' }).waitFor();
  await frame.getByRole('checkbox', { name: /I will wear a life jacket/ }).check();
  await shot(page, 'boat-waiver');
  await axeClean(widgetFrame(page), 'waiver');
  await frame.getByRole('button', { name: 'Sign and continue' }).click();
  await frame.getByRole('heading', { name: 'Payment' }).waitFor();
  // Before the Pay button: the cancellation policy of the location (applied to this booking) and the operator's terms.
  const terms = frame.locator('.bw-terms');
  await terms.getByRole('heading', { name: 'Cancellation policy' }).waitFor();
  await terms.locator('li').first().waitFor();
  assert.match(await terms.innerText(), /refund/i);
  assert.doesNotMatch(await terms.innerText(), /Loading/);
  const look = (await call('GET', `/public/widget/catalog?${new URLSearchParams({ customerId: CUSTOMER })}`)).body?.look;
  assert.ok(look?.termsUrl, 'the sandbox operator has terms');
  assert.equal(await terms.getByRole('link', { name: /terms and conditions/ }).getAttribute('href'), look.termsUrl);
  assert.ok(await frame.locator('.bw-terms ~ .bw-actions button', { hasText: /^Pay / }).isVisible(), 'the terms come before the Pay button');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByLabel('Expiry (MM/YY)').fill('12/34');
  await frame.getByLabel('Security code').fill('123');
  await frameFitsContent(page, frame);
  await shot(page, 'boat-payment');
  await axeClean(widgetFrame(page), 'payment');
  await frame.getByRole('button', { name: /^Pay / }).click();
  await frame.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
  await frame.locator('img.bw-qr').waitFor();
  assert.ok(await frame.getByRole('link', { name: 'Add to calendar (.ics)' }).isVisible());
  await frame.getByText('Protection plan added.').waitFor();
  await frameFitsContent(page, frame);
  await shot(page, 'boat-confirmation');
  await axeClean(widgetFrame(page), 'confirmation');
  const events = await page.evaluate(() => window.berthEvents);
  const done = events.find((e) => e.type === 'berth:booking.completed');
  assert.ok(done, 'the host page heard berth:booking.completed');
  assert.equal(done.ref, 'PARTNER7');
  assert.ok((await page.evaluate(() => window.dataLayer)).some((e) => e.event === 'berth:booking.completed'));
  const booking = await call('GET', `/coreBooking/${done.rentalId}`);
  assert.equal(booking.status, 200, booking.text);
  assert.equal(booking.body.extendedData.refAffiliate, 'PARTNER7');
  assert.equal(booking.body.extendedData.signedWaivers.length, 1);
  assert.equal(booking.body.source, 'widget');
  // The gift card paid $25 of the booking and has nothing left.
  const card = await call('GET', `/promoGiftCards/balance?${new URLSearchParams({ promoCode: giftCode, customerId: CUSTOMER })}`);
  assert.equal(card.body?.balance, 0, card.text);
  // The damage waiver's premium (10% of the booking, at least $15, at most $200) was charged after the booking.
  assert.equal(booking.body.pricing.feeTotal, Math.min(200, Math.max(15, Math.round(done.total * 10) / 100)));
  assert.equal(booking.body.pricing.amountPaid, booking.body.pricing.total);
  // The confirmation's "Paid" is what the booking records as paid, the plan's premium included (it said the booking alone).
  // One public reference: the booking id, as the e-mails, the pass and the manage page show it.
  assert.equal(await frame.locator('dl.bw-summary dt:text-is("Booking reference") + dd').textContent(), done.rentalId);
  const paidShown = await frame.locator('dl.bw-summary dt:text-is("Paid") + dd').textContent();
  assert.equal(Number(paidShown.replace(/[^0-9.]/g, '')), booking.body.pricing.amountPaid, `confirmation says ${paidShown}`);
  const ics = await fetch(`${base}/public/bookings/${done.rentalId}/calendar.ics`);
  assert.match(await ics.text(), /BEGIN:VEVENT/);
  boatBooking = { rentalId: done.rentalId, transactionId: done.transactionId };
  assert.deepEqual(external, [], 'no request outside Berth');
  assert.deepEqual(errors, [], 'no script errors or CSP refusals');
  await context.close();
}

async function bookTourByKeyboard() {
  const { context, page, external, errors } = await newPage();
  const date = dateAhead(6);
  // Fast and stable: the scripts before the first interaction weigh at most 50 KB gzipped, and the layout does not shift.
  const scripts = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(r.body().then((b) => ({ url: r.url(), gz: gzipSync(b).length })));
  });
  await page.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${base}/widget?customer=${CUSTOMER}`);
  await page.getByRole('heading', { name: 'Choose a boat or tour' }).waitFor();
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  const gzipped = loaded.reduce((n, x) => n + x.gz, 0);
  console.log(
    `     widget scripts before the first interaction: ${(gzipped / 1024).toFixed(1)} KB gzipped (${loaded.map((x) => new URL(x.url).pathname).join(', ')})`,
  );
  assert.ok(gzipped <= 50 * 1024, `at most 50 KB of gzipped script (${gzipped} bytes)`);
  const cls = await page.evaluate(() => window.__cls);
  assert.ok(cls < 0.1, `cumulative layout shift ${cls} stays under 0.1`);
  const press = (key, n = 1) =>
    (async () => {
      for (let i = 0; i < n; i++) await page.keyboard.press(key);
    })();
  // Tab to the tour's card: the cards follow the skip link in document order.
  for (let i = 0; i < 20; i++) {
    await press('Tab');
    const name = await page.evaluate(() => document.activeElement?.textContent ?? '');
    if (/Sunset Dolphin Tour/.test(name)) break;
  }
  await shot(page, 'tour-keyboard-items');
  await press('Enter');
  await page.getByRole('heading', { name: /Pick a date for Sunset Dolphin Tour/ }).waitFor();
  // From the heading, Tab reaches the month buttons and then the one focusable day; arrows move to the wanted date.
  for (let i = 0; i < 10; i++) {
    await press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('bw-day'))) break;
  }
  for (let i = 0; i < 80; i++) {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-date'));
    if (at === date) break;
    await press(at < date ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForTimeout(30);
    await page.waitForFunction(() => document.activeElement?.classList.contains('bw-day'));
  }
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-date')), date);
  await shot(page, 'tour-keyboard-calendar');
  await press('Enter');
  await page.getByRole('heading', { name: /^Times on/ }).waitFor();
  for (let i = 0; i < 10; i++) {
    await press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('bw-slot') && !document.activeElement.classList.contains('is-sold_out'))) break;
  }
  const slotLabel = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
  assert.match(slotLabel, /Eastern Time/);
  await shot(page, 'tour-keyboard-times');
  await press('Enter');
  await page.locator('#bw-summary dl').waitFor();
  // The adult counter: Tab to "More: Adult", Enter adds a ticket.
  for (let i = 0; i < 15; i++) {
    await press('Tab');
    if (/^More: Adult/.test((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '')) break;
  }
  await press('Enter');
  await page.waitForTimeout(300);
  // Every price line names its fare tier (the quote's ticket lines name it `tier`): "3 × Adult".
  await page
    .locator('#bw-summary dt', { hasText: /^\d+ × Adult$/ })
    .first()
    .waitFor();
  assert.doesNotMatch(await page.locator('#bw-summary').innerText(), /undefined/);
  for (let i = 0; i < 30; i++) {
    await press('Tab');
    if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Continue') break;
  }
  await shot(page, 'tour-keyboard-extras');
  await press('Enter');
  // The coverage step: "No coverage" is chosen; Tab to Continue.
  await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  for (let i = 0; i < 10; i++) {
    await press('Tab');
    if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Continue') break;
  }
  await press('Enter');
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  await press('Tab');
  for (const text of ['Kim', 'Keys', `kim.${Date.now()}@example.com`]) {
    await page.keyboard.type(text);
    await press('Tab');
  }
  await press('Tab'); // the optional phone
  await shot(page, 'tour-keyboard-details');
  await press('Enter'); // Continue
  await page.getByRole('heading', { name: 'Rental agreement' }).waitFor();
  await press('Tab'); // the waiver text region
  await press('Tab'); // the checkbox
  await press('Space');
  await press('Tab'); // the signature name (prefilled)
  await press('Tab'); // Sign and continue
  await shot(page, 'tour-keyboard-waiver');
  await press('Enter');
  await page.getByRole('heading', { name: 'Payment' }).waitFor();
  for (let i = 0; i < 10; i++) {
    await press('Tab');
    if (await page.evaluate(() => document.activeElement?.id === 'bw-f-cardNumber')) break;
  }
  await page.keyboard.type('4242424242424242');
  await press('Tab');
  await page.keyboard.type('12/34');
  await press('Tab');
  await page.keyboard.type('123');
  await shot(page, 'tour-keyboard-payment');
  await press('Enter');
  await page.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
  await shot(page, 'tour-keyboard-confirmation');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

async function soldOutOffersWaitlist() {
  // Sell every seat of the first open departure a week or more ahead through the operator API (earlier runs on the same
  // server may have sold out the first days already).
  let date;
  let dep;
  for (let ahead = 8; ahead < 60 && !dep; ahead++) {
    date = dateAhead(ahead);
    const day = await call('GET', `/public/day-availability?${new URLSearchParams({ inventoryId: TOUR, locationId: MIAMI, date })}`);
    assert.equal(day.status, 200, day.text);
    dep = day.body.slots.find((s) => s.available);
  }
  assert.ok(dep, 'an open departure');
  const sold = await call('POST', '/coreBooking/book', {
    rentalDetails: { inventoryId: TOUR, startTime: dep.startTime, tickets: { Adult: dep.seatsFree } },
    rentalPricing: {},
    customerInfo: { firstName: 'Group', lastName: 'Charter', email: `group.${Date.now()}@example.com` },
    paymentMethodId: 'pm_card_visa',
    extendedData: { note: 'e2e: sells the departure out' },
  });
  assert.equal(sold.status, 201, sold.text);
  const { context, page, external, errors } = await newPage();
  await page.goto(`${base}/widget?customer=${CUSTOMER}&item=${TOUR}&date=${date}`);
  await page.getByRole('heading', { name: /^Times on/ }).waitFor();
  const full = page.locator('.bw-slot.is-sold_out').first();
  await full.waitFor();
  assert.match(await full.getAttribute('aria-label'), /sold out, join the waitlist/);
  await shot(page, 'waitlist-sold-out');
  await axeClean(page, 'waitlist: sold-out time');
  await full.click();
  await page.getByRole('heading', { name: /Join the waitlist/ }).waitFor();
  await page.getByLabel('First name').fill('Wanda');
  await page.getByLabel('Last name').fill('Waiting');
  const email = `wanda.${Date.now()}@example.com`;
  await page.getByLabel('E-mail').fill(email);
  await shot(page, 'waitlist-form');
  await axeClean(page, 'waitlist: form');
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
  await shot(page, 'waitlist-joined');
  await axeClean(page, 'waitlist: joined');
  const list = await call('GET', `/waitlist?${new URLSearchParams({ email })}`);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data?.[0]?.status, 'waiting');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

async function cancelWithEmailedCode() {
  assert.ok(boatBooking, 'the boat booking of the first scenario');
  const { context, page, external, errors } = await newPage();
  await page.goto(`${base}/widget?manage=${boatBooking.rentalId}`);
  await page.getByRole('heading', { name: 'Cancel your booking' }).waitFor();
  await shot(page, 'cancel-eligibility');
  await axeClean(page, 'manage: eligibility');
  await askForCode(page, boatBooking.rentalId, 'E-mail me a code');
  await shot(page, 'cancel-code');
  await axeClean(page, 'manage: code');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Cancel your booking?' }).waitFor();
  await shot(page, 'cancel-confirm');
  await axeClean(page, 'manage: confirm');
  await page.getByRole('button', { name: /^Cancel / }).click();
  await page.getByRole('heading', { name: 'Your booking is cancelled' }).waitFor();
  assert.match(await page.locator('#bw-view').innerText(), /refunded \$/);
  await shot(page, 'cancel-done');
  await axeClean(page, 'manage: cancelled');
  const b = await call('GET', `/coreBooking/${boatBooking.rentalId}`);
  assert.equal(b.body.status, 'cancelled');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

/**
 * A renter on a phone changes a tour booking: from the manage link, the e-mailed code, then the other departure of another day, one
 * more adult and the photo package; the new price and the difference before confirming; the pass and the booking show the change.
 */
async function selfServiceChange() {
  // A date whose two departures both have room, booked at the morning departure for two adults through the widget's checkout.
  let date = null;
  let departures = null;
  for (let ahead = 9; ahead < 60 && !date; ahead++) {
    const day = await call('GET', `/public/day-availability?${new URLSearchParams({ inventoryId: TOUR, locationId: MIAMI, date: dateAhead(ahead) })}`);
    assert.equal(day.status, 200, day.text);
    const open = day.body.slots.filter((s) => s.available && (s.seatsFree ?? 0) >= 4);
    if (open.length >= 2) [date, departures] = [dateAhead(ahead), open];
  }
  assert.ok(date, 'a date with two open departures');
  const email = `changer.${Date.now()}@example.com`;
  const booked = await call('POST', '/public/widget/checkout', {
    customerId: CUSTOMER,
    inventoryId: TOUR,
    startTime: departures[0].startTime,
    tickets: { Adult: 2 },
    customerInfo: { firstName: 'Chana', lastName: 'Changer', email },
    paymentMethodId: 'pm_card_visa',
  });
  assert.equal(booked.status, 201, booked.text);
  const rentalId = booked.body.rentalId;
  const before = await call('GET', `/coreBooking/${rentalId}`);
  const later = departures[departures.length - 1];

  const { context, page, external, errors } = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/widget?manage=${rentalId}`);
  await page.getByRole('heading', { name: 'Change or cancel your booking' }).waitFor();
  await shot(page, 'change-manage');
  await axeClean(page, 'manage: change or cancel');
  await askForCode(page, rentalId, 'Change date, time, party or add-ons');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Change your booking' }).waitFor();
  await page.getByRole('button', { name: 'See the new price' }).waitFor();
  await shot(page, 'change-form');
  await axeClean(page, 'change: the booking now');
  // The evening departure: the calendar and the times of the widget, back to the change.
  await page.getByRole('button', { name: 'Pick another date or time' }).click();
  await page.getByRole('heading', { name: /^Pick a date/ }).waitFor();
  await axeClean(page, 'change: calendar');
  await page.locator(`[data-date="${date}"]`).click();
  await page.getByRole('heading', { name: /^Times on/ }).waitFor();
  await shot(page, 'change-times');
  await axeClean(page, 'change: times');
  const label = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' }).format(new Date(later.startTime));
  await page
    .locator('.bw-slot:not(.is-sold_out)', { hasText: new RegExp(`^${label.replace(/\s/g, '\\s')}`) })
    .first()
    .click();
  await page.getByRole('heading', { name: 'Change your booking' }).waitFor();
  assert.match(await page.locator('#bw-view').innerText(), new RegExp(label.replace(/\s/g, '\\s')));
  // One more adult and the photo package.
  await page.getByRole('button', { name: 'More: Adult ($65.00)' }).click();
  await page.getByRole('button', { name: 'More: Photo package ($25.00)' }).click();
  await page.getByRole('button', { name: 'See the new price' }).click();
  await page.getByRole('heading', { name: 'Your new price' }).waitFor();
  const preview = await page.locator('#bw-view').innerText();
  assert.match(preview, /3 Adult \(was 2 Adult\)/);
  assert.match(preview, /Photo package \(was None\)/);
  assert.match(preview, /You pay \$\d+\.\d\d more: we charge it to the card you paid with\./);
  await shot(page, 'change-price');
  await axeClean(page, 'change: the new price');
  await page.getByRole('button', { name: 'Confirm the change' }).click();
  await page.getByRole('heading', { name: 'Your booking is changed' }).waitFor();
  assert.match(await page.locator('#bw-view').innerText(), /We charged \$\d+\.\d\d to the card you paid with\./);
  await shot(page, 'change-done');
  await axeClean(page, 'change: done');
  // The booking and the renter's pass show the change.
  const after = await call('GET', `/coreBooking/${rentalId}`);
  assert.equal(after.body.startTime, new Date(later.startTime).toISOString());
  assert.equal(after.body.participants, 3);
  assert.deepEqual(
    after.body.addons.map((a) => a.addonId),
    ['photos'],
  );
  assert.ok(after.body.pricing.total > before.body.pricing.total, after.text);
  assert.equal(after.body.pricing.balanceDue, 0);
  await page.getByRole('link', { name: 'Your booking and pass' }).click();
  await page.getByText(/party of 3/).waitFor();
  assert.ok((await page.locator('#bw-view').innerText()).includes(`${date}, ${later.time}`), 'the pass shows the new departure');
  await shot(page, 'change-pass');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

/** The first date at least `from` days ahead on which `inventoryId` has an open time (answers the date and that slot). */
async function openSlot(inventoryId, from) {
  for (let ahead = from; ahead < from + 60; ahead++) {
    const date = dateAhead(ahead);
    const day = await call('GET', `/public/day-availability?${new URLSearchParams({ inventoryId, locationId: MIAMI, date })}`);
    assert.equal(day.status, 200, day.text);
    const slot = day.body.slots.find((s) => s.available && (s.unitsFree ?? 0) >= 1);
    if (slot) return { date, slot };
  }
  throw new Error(`no open time for ${inventoryId}`);
}

/** The renter's part after the coverage step: details, the seeded rental agreement, the test card; answers the page's booking event. */
async function detailsWaiverPay(page, name) {
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  await page.getByLabel('First name').fill(name);
  await page.getByLabel('Last name').fill('Renter');
  await page.getByLabel('E-mail').fill(`${name.toLowerCase()}.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Rental agreement' }).waitFor();
  await page.getByRole('checkbox', { name: /I will wear a life jacket/ }).check();
  await page.getByRole('button', { name: 'Sign and continue' }).click();
  await page.getByRole('heading', { name: 'Payment' }).waitFor();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
}

/** Opens the widget at an open time of the center console and goes to the extras step. */
async function toExtras(page, from) {
  const { date, slot } = await openSlot(CONSOLE, from);
  await page.goto(`${base}/widget?customer=${CUSTOMER}&item=${CONSOLE}&date=${date}`);
  await page.getByRole('heading', { name: /^Times on/ }).waitFor();
  await page.locator(`.bw-slot:not(.is-sold_out)`).first().waitFor();
  const label = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' }).format(new Date(slot.startTime));
  await page
    .locator('.bw-slot:not(.is-sold_out)', { hasText: new RegExp(`^${label.replace(/\s/g, '\\s')}`) })
    .first()
    .click();
  await page.locator('#bw-summary dl').waitFor();
  return { date, slot };
}

/** Points the sandbox's coverage offering at the reference underwriter with behaviour flags (path segments), for the duration of `fn`. */
async function withUnderwriter(flags, fn) {
  const login = await fetch(`${base}/partners/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo-partner@berth.local', password: PARTNER_PASSWORD }),
  });
  const session = await login.json();
  assert.equal(login.status, 200, JSON.stringify(session));
  const auth = { authorization: `Bearer ${session.token}` };
  const set = async (url) => {
    const r = await call('PATCH', `/partners/coverage/offerings/${COVERAGE_OFFERING}`, { baseUrl: url }, auth);
    assert.equal(r.status, 200, r.text);
  };
  await set(`https://reference-underwriter.berth.invalid/${flags}`);
  try {
    await fn();
  } finally {
    await set('https://reference-underwriter.berth.invalid');
  }
}

async function bookWithCoverage() {
  const { context, page, external, errors } = await newPage();
  await toExtras(page, 14);
  await shot(page, 'coverage-extras');
  await page.getByRole('button', { name: 'Continue' }).click();
  // The coverage card, quoted as soon as the time was chosen; its questions come from the schema pinned to the quote.
  await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  assert.ok(await page.locator('.bw-steps li', { hasText: 'Coverage' }).isVisible(), 'the steps list the coverage');
  await page.getByRole('radio', { name: /^Add Reference Boat Cover for \$12\.50/ }).check();
  await page.getByRole('heading', { name: 'Questions from Reference Boat Cover' }).waitFor();
  // Every allowed field type is drawn: date, dropdown, text (conditional), number, multiselect, address, checkbox and notice.
  const q = page.locator('#bw-cover-questions');
  assert.equal(await q.locator('input[type=date]').count(), 1);
  assert.equal(await q.locator('select').count(), 1);
  assert.equal(await q.locator('input[type=number]').count(), 1);
  assert.equal(
    await q
      .getByRole('group', { name: /Planned activities/ })
      .getByRole('checkbox')
      .count(),
    3,
  );
  assert.ok(await q.getByRole('group', { name: /Home address/ }).isVisible());
  assert.ok(await q.getByRole('checkbox', { name: /insurance claim/ }).isVisible());
  assert.ok(await q.getByText('Damage to the rented boat up to the deposit amount').isVisible());
  // The licence number is asked only of licensed skippers.
  const licence = q.getByLabel('Boating licence number');
  assert.equal(await licence.isVisible(), false);
  await q.getByLabel('Boating experience').selectOption('expert');
  await licence.waitFor();
  await q.getByLabel('Boating experience').selectOption('none');
  await licence.waitFor({ state: 'hidden' });
  // The skipper must be 21 on the rental day.
  const dob = q.getByLabel("Skipper's date of birth");
  await dob.fill(`${new Date().getFullYear() - 18}-01-15`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await q.getByText(/Must be at least 21 years old/).waitFor();
  await dob.fill('1990-05-01');
  await q.getByLabel('Passengers on board').fill('3');
  await q.getByRole('checkbox', { name: 'Fishing' }).check();
  await q.getByLabel('Street and number').fill('1 Ocean Drive');
  await q.getByLabel('City').fill('Miami Beach');
  await q.getByLabel(/Country code/).fill('us');
  await shot(page, 'coverage-questions');
  await axeClean(page, 'coverage: questions');
  await page.getByRole('button', { name: 'Continue' }).click();
  // No boating experience: the underwriter's final price is higher; payment waits for the renter's explicit acceptance.
  await page.getByRole('heading', { name: 'The coverage price changed' }).waitFor();
  assert.match(await page.locator('#bw-view').innerText(), /costs \$17\.50 instead of the \$12\.50/);
  await shot(page, 'coverage-higher-price');
  await axeClean(page, 'coverage: higher price');
  await page.getByRole('button', { name: 'Accept $17.50' }).click();
  await detailsWaiverPay(page, 'Cora');
  const summary = await page.locator('.bw-summary').first().innerText();
  assert.match(summary, /Coverage: Reference Boat Cover\s+\$17\.50/);
  await shot(page, 'coverage-payment');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
  // The policy binds from the queue; the confirmation shows it once issued, with its number and document.
  await page.locator('#bw-coverage', { hasText: 'Your policy is issued.' }).waitFor({ timeout: 30_000 });
  const doc = page.getByRole('link', { name: /^Policy document/ });
  assert.match(await doc.getAttribute('href'), /^https:\/\/reference-underwriter\.berth\.invalid\/policies\/RUW-[0-9A-F]+\.pdf$/);
  await shot(page, 'coverage-confirmation');
  const rentalId = new URL(await page.getByRole('link', { name: 'Manage or cancel' }).getAttribute('href')).searchParams.get('manage');
  const policies = await call('GET', `/coverage/policies?${new URLSearchParams({ rentalId })}`);
  assert.equal(policies.status, 200, policies.text);
  assert.equal(policies.body.data.length, 1);
  assert.equal(policies.body.data[0].status, 'bound');
  assert.equal(policies.body.data[0].premium, 17.5);
  // One payment for the rental plus the premium.
  const booking = await call('GET', `/coreBooking/${rentalId}`);
  assert.equal(booking.body.pricing.amountPaid, booking.body.pricing.total);
  assert.ok(booking.body.pricing.feeTotal >= 17.5, booking.text);
  // The renter's booking page shows the policy and its document.
  await page.goto(`${base}/widget?pass=${rentalId}`);
  await page.locator('#bw-coverage', { hasText: 'Your policy is issued.' }).waitFor();
  assert.match(await page.locator('#bw-coverage').innerText(), /Policy number\s+RUW-/);
  assert.ok(await page.getByRole('link', { name: /^Policy document/ }).isVisible());
  await shot(page, 'coverage-booking-page');
  await axeClean(page, 'booking page (pass)');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

async function bookWithUnderwriterDown() {
  const { context, page, external, errors } = await newPage();
  // The underwriter answers 503 to everything: no card, and the booking goes ahead without a coverage step.
  let rentalId;
  await withUnderwriter('down', async () => {
    await toExtras(page, 16);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    assert.equal(await page.locator('.bw-steps li', { hasText: 'Coverage' }).count(), 0, 'no coverage step');
    await shot(page, 'underwriter-down-details');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await detailsWaiverPay(page, 'Dana');
    assert.doesNotMatch(await page.locator('.bw-summary').first().innerText(), /Coverage/);
    // A declined card: its message once, nothing booked; the renter pays with another card.
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay / }).click();
    const declined = page.locator('#bw-view p.bw-error[role="alert"]', { hasText: /declined/i });
    await declined.waitFor();
    const declineText = await declined.innerText();
    assert.equal(declineText.match(/declined/gi).length, 1, declineText);
    assert.equal((declineText.match(/nothing was charged/gi) ?? []).length, 1, declineText);
    await shot(page, 'underwriter-down-declined');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
    await shot(page, 'underwriter-down-confirmation');
    rentalId = new URL(await page.getByRole('link', { name: 'Manage or cancel' }).getAttribute('href')).searchParams.get('manage');
  });
  const none = await call('GET', `/coverage/policies?${new URLSearchParams({ rentalId })}`);
  assert.equal(none.body.data.length, 0, none.text);
  // The underwriter answers quotes but fails every bind: the booking stands and its page says the policy has not issued yet.
  await withUnderwriter('error-bind', async () => {
    await toExtras(page, 18);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
    await page.getByRole('radio', { name: /^Add Reference Boat Cover/ }).check();
    const q = page.locator('#bw-cover-questions');
    await q.getByLabel("Skipper's date of birth").fill('1985-03-02');
    await q.getByLabel('Boating experience').selectOption('some');
    await page.getByRole('button', { name: 'Continue' }).click();
    await detailsWaiverPay(page, 'Ezra');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
    await page.locator('#bw-coverage', { hasText: 'The policy has not issued yet' }).waitFor({ timeout: 15_000 });
    await shot(page, 'underwriter-bind-down-confirmation');
    rentalId = new URL(await page.getByRole('link', { name: 'Manage or cancel' }).getAttribute('href')).searchParams.get('manage');
    const b = await call('GET', `/coreBooking/${rentalId}`);
    assert.equal(b.body.status, 'confirmed', b.text);
    // The bind was tried from the queue and failed; the policy waits for the next retry.
    let p;
    for (let i = 0; i < 60; i++) {
      p = await call('GET', `/coverage/policies?${new URLSearchParams({ rentalId })}`);
      if (p.body.data[0]?.bindAttempts >= 1) break;
      await new Promise((res) => setTimeout(res, 500));
    }
    assert.equal(p.body.data[0].status, 'pending', p.text);
    assert.ok(p.body.data[0].bindAttempts >= 1, p.text);
    assert.match(p.body.data[0].lastError ?? '', /500|http_error/, p.text);
  });
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

async function docsOffline() {
  const { context, page, external, errors } = await newPage();
  await page.goto(`${base}/docs`);
  const csp = (await (await fetch(`${base}/docs`)).headers.get('content-security-policy')) ?? '';
  assert.match(csp, /script-src 'self'(;|$)/);
  await page.getByText("The caller's operator account").first().waitFor({ timeout: 60_000 });
  const text = await page.locator('body').innerText();
  const methods = (text.match(/HTTP METHOD/g) ?? []).length;
  assert.ok(methods >= 5, `the sidebar lists operations (${methods})`);
  for (const group of ['Customers', 'Bookings', 'Public', 'Booking widget']) assert.ok(text.includes(group), `group ${group} in the operation list`);
  await shot(page, 'docs');
  assert.deepEqual(external, [], 'the reference loads nothing from outside Berth');
  assert.deepEqual(errors, []);
  await context.close();
}

/** The widget's own parameters in the page's address. */
const address = (page) => Object.fromEntries([...new URL(page.url()).searchParams].filter(([k]) => k !== 'ticket' && k !== 'addon'));
const addressAll = (page, key) => new URL(page.url()).searchParams.getAll(key);

/** The party and extras step as this scenario left it: 3 people, 2 coolers, the promo (a gift card) applied. */
async function assertChoices(page, code, label) {
  await page.locator('#bw-summary dl').waitFor();
  assert.equal(await page.getByLabel('People', { exact: true }).inputValue(), '3', `${label}: the party`);
  assert.equal(await page.getByLabel(/^Cooler with ice/).inputValue(), '2', `${label}: the add-on`);
  assert.equal(await page.getByLabel('Code', { exact: true }).inputValue(), code, `${label}: the code`);
  await page.locator('#bw-summary', { hasText: 'Due now by card' }).waitFor();
}

async function backAndReloadKeepChoices() {
  const { context, page, external, errors } = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const code = `E2E-H-${Date.now().toString(36).toUpperCase()}`;
  const gc = await call('POST', '/promoGiftCards', {
    customerId: CUSTOMER,
    promoCode: code,
    currency: 'usd',
    ExpiryDate: '2099-12-31',
    Details: { $Discount: 10, type: 'gift_card' },
  });
  assert.equal(gc.status, 201, gc.text);
  const { date, slot } = await toExtras(page, 20);
  await page.getByRole('button', { name: 'More: People' }).click();
  await page.getByRole('button', { name: /^More: Cooler with ice/ }).click();
  await page.getByRole('button', { name: /^More: Cooler with ice/ }).click();
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText(`Gift card ${code} pays $10.00.`).waitFor();
  // The address holds the step and every choice (never the renter's details).
  await page.waitForFunction((c) => new URL(location.href).searchParams.get('promo') === c, code);
  const at = address(page);
  assert.equal(at.step, 'extras');
  assert.equal(at.item, CONSOLE);
  assert.equal(at.date, date);
  assert.equal(Date.parse(at.time), Date.parse(slot.startTime));
  assert.equal(at.people, '3');
  assert.deepEqual(addressAll(page, 'addon'), ['cooler:2']);
  await assertChoices(page, code, 'chosen');
  await shot(page, 'history-extras');
  // Continue (a new entry), then Back: the same choices.
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  assert.equal(address(page).step, 'coverage');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: /^Center Console 24, / }).waitFor();
  await assertChoices(page, code, 'after Back');
  // Back to the times and the calendar, Forward again: the choices are still there.
  await page.goBack();
  await page.getByRole('heading', { name: /^Times on/ }).waitFor();
  assert.equal(address(page).step, 'time');
  await page.goForward();
  await page.getByRole('heading', { name: /^Center Console 24, / }).waitFor();
  await assertChoices(page, code, 'after Forward');
  // A reload keeps them (the quote is asked again).
  await page.reload();
  await page.getByRole('heading', { name: /^Center Console 24, / }).waitFor();
  await assertChoices(page, code, 'after a reload');
  await page.getByText(`Gift card ${code} pays $10.00.`).waitFor();
  await shot(page, 'history-reloaded');
  await axeClean(page, 'party and extras (restored)');
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await context.close();
}

async function cartRecovery() {
  const { context, page, external, errors } = await newPage();
  const { date } = await toExtras(page, 24);
  await page.getByRole('button', { name: /^More: Cooler with ice/ }).click();
  await page.locator('#bw-summary', { hasText: 'Cooler with ice' }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Your details' }).waitFor();
  const email = `cart.${Date.now()}@example.com`;
  await page.getByLabel('First name').fill('Carla');
  await page.getByLabel('Last name').fill('Cart');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Rental agreement' }).waitFor();
  // The renter leaves: the cart was recorded under the visit's own id, with what they chose.
  const id = await page.evaluate(() => sessionStorage.getItem('berth:cart'));
  assert.match(id ?? '', /^[0-9a-f-]{36}$/);
  let cart;
  for (let i = 0; i < 20 && !cart; i++) {
    const r = await call('GET', `/public/cartRecovery/${id}`);
    if (r.status === 200) cart = r.body;
    else await new Promise((res) => setTimeout(res, 100));
  }
  assert.ok(cart, 'the cart is recorded');
  assert.equal(cart.status, 'active');
  assert.equal(cart.email, email);
  assert.equal(cart.locationId, MIAMI);
  assert.equal(cart.bookingInfo.inventoryId, CONSOLE);
  assert.equal(cart.bookingInfo.itemName, 'Center Console 24');
  assert.match(cart.cartData.address, /addon=cooler%3A1/);
  const listed = await call('GET', `/cartRecovery/${MIAMI}?limit=100`);
  assert.equal(listed.status, 200, listed.text);
  await context.close();
  // The recovery link (a new visit): the same item, time and add-on, and the renter's details.
  const again = await newPage();
  const p2 = again.page;
  await p2.goto(`${base}/widget?customer=${CUSTOMER}&cartRecoveryId=${id}`);
  await p2.getByRole('heading', { name: /^Center Console 24, / }).waitFor();
  assert.equal(address(p2).date, date);
  assert.equal(await p2.getByLabel(/^Cooler with ice/).inputValue(), '1');
  await shot(p2, 'cart-restored');
  await axeClean(p2, 'party and extras (cart restored)');
  await p2.getByRole('button', { name: 'Continue' }).click();
  await p2.getByRole('heading', { name: 'Coverage for your trip' }).waitFor();
  await p2.getByRole('button', { name: 'Continue' }).click();
  await p2.getByRole('heading', { name: 'Your details' }).waitFor();
  assert.equal(await p2.getByLabel('E-mail').inputValue(), email);
  assert.equal(await p2.getByLabel('First name').inputValue(), 'Carla');
  await detailsWaiverPay(p2, 'Carla');
  await p2.getByRole('button', { name: /^Pay / }).click();
  await p2.getByRole('heading', { name: 'You are booked!' }).waitFor({ timeout: 30_000 });
  // The booking completes the cart (recovered: no recovery e-mail goes out).
  let status = '';
  for (let i = 0; i < 20 && status !== 'completed'; i++) {
    status = (await call('GET', `/public/cartRecovery/${id}`)).body?.status;
    if (status !== 'completed') await new Promise((res) => setTimeout(res, 150));
  }
  assert.equal(status, 'completed');
  assert.deepEqual(again.external, []);
  assert.deepEqual(again.errors, []);
  assert.deepEqual(external, []);
  assert.deepEqual(errors, []);
  await again.context.close();
}

/** The view's text (the portal's main region), and text in it. */
const viewText = (page) => page.locator('#bw-view').innerText();
const inView = (page, text) => page.locator('#bw-view').getByText(text).first();

/** On a portal's sign-in view at `url`: asks for a link for `email` and answers it from the outbox (`template`). */
async function askForLink(page, url, email, template, label) {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByRole('heading', { name: 'Demo Marina LLC', level: 1 }).waitFor();
  await shot(page, `${label}-sign-in`);
  await axeClean(page, `${label} portal: sign in`);
  const asked = new Date(Date.now() - 1000).toISOString();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await axeClean(page, `${label} portal: link sent`);
  return outboxLink(email, template, asked);
}

async function memberPortal() {
  const { context, page, external, errors } = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  // A member of this run (public enrollment with a test card), so the scenario can pause and cancel on every run.
  const email = `mia.${Date.now()}@example.com`;
  const enrolled = await call('POST', '/public/memberships/enroll', {
    customerId: CUSTOMER,
    tierId: 'mtr_demo_captains_club',
    firstName: 'Mia',
    lastName: 'Member',
    email,
    paymentMethodId: 'pm_card_visa',
  });
  assert.equal(enrolled.status, 201, enrolled.text);
  const membershipId = enrolled.body.membership.membershipId;
  const link = await askForLink(page, `${base}/member-portal?customer=${CUSTOMER}`, email, 'membership.portal_link', 'member');
  assert.match(link, /\/member-portal\?token=mpl_\w+&customer=cus_demo_marina/);
  // The link: the token is exchanged once and leaves the address (the operator stays).
  await page.goto(link);
  await page.getByRole('heading', { name: 'Your membership' }).waitFor();
  assert.equal(new URL(page.url()).search, `?customer=${CUSTOMER}`);
  const card = await page.locator('.pt-card').innerText();
  assert.match(card, /Captain's Club/);
  assert.match(card, /Active/);
  assert.match(card, new RegExp(membershipId));
  assert.match(card, /\$49\.00 a month/);
  assert.match(card, /Renews on/);
  assert.match(await viewText(page), /10% off every booking/);
  assert.match(await viewText(page), /Visa ending in 4242/);
  await shot(page, 'member-card');
  await axeClean(page, 'member portal: card');
  // A reload keeps the session (this tab's sessionStorage).
  await page.reload();
  await page.getByRole('heading', { name: 'Your membership' }).waitFor();
  // Invoices: the first period, paid.
  await page.getByRole('button', { name: 'Invoices' }).click();
  await page.getByRole('heading', { name: 'Invoices' }).waitFor();
  await page.locator('.pt-item').first().waitFor();
  assert.match(await viewText(page), /Paid/);
  assert.match(await viewText(page), /\$49\.00/);
  await shot(page, 'member-invoices');
  await axeClean(page, 'member portal: invoices');
  // Pause within the tier's policy (two weeks), then resume.
  await page.getByRole('button', { name: 'Membership' }).click();
  await page.getByRole('button', { name: 'Pause membership' }).click();
  await page.getByRole('heading', { name: 'Pause your membership' }).waitFor();
  await page.getByRole('radio', { name: /^14 days/ }).check();
  await shot(page, 'member-pause');
  await axeClean(page, 'member portal: pause');
  await page.getByRole('button', { name: 'Pause membership' }).click();
  await inView(page, /Your membership is paused until/).waitFor();
  assert.match(await page.locator('.pt-card').innerText(), /Paused/);
  await axeClean(page, 'member portal: paused');
  await page.getByRole('button', { name: 'Resume membership' }).click();
  await inView(page, 'Welcome back: your membership is active again.').waitFor();
  // A new card for renewals (the simulator's Mastercard).
  await page.getByRole('button', { name: 'Update card' }).click();
  await page.getByRole('heading', { name: 'Update your card' }).waitFor();
  await page.getByLabel('Card number').fill('5555 5555 5555 4444');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await shot(page, 'member-card-update');
  await axeClean(page, 'member portal: new card');
  await page.getByRole('button', { name: 'Save card' }).click();
  await page
    .getByText(/Card saved: Mastercard ending in 4444/)
    .first()
    .waitFor();
  // Cancel: asked first, then at the period end.
  await page.getByRole('button', { name: 'Cancel membership' }).click();
  await page.getByRole('heading', { name: 'Cancel your membership?' }).waitFor();
  await axeClean(page, 'member portal: cancel');
  await page.getByRole('button', { name: 'Keep my membership' }).click();
  await page.getByRole('heading', { name: 'Your membership' }).waitFor();
  await page.getByRole('button', { name: 'Cancel membership' }).click();
  await page.getByLabel(/Why are you leaving/).fill('Moving away');
  await page.getByRole('button', { name: 'Yes, cancel my membership' }).click();
  await page
    .getByText(/stays active until .* and will not renew/)
    .first()
    .waitFor();
  assert.match(await page.locator('.pt-card').innerText(), /Active until/);
  await shot(page, 'member-cancelled');
  await axeClean(page, 'member portal: cancelled');
  const m = await call('GET', `/memberships/${membershipId}?customerId=${CUSTOMER}`);
  assert.equal(m.status, 200, m.text);
  assert.equal(m.body.cancelAtPeriodEnd, true);
  assert.equal(m.body.status, 'active');
  // Sign out; the used link then says it was used.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await inView(page, /You are signed out/).waitFor();
  await page.goto(link);
  await inView(page, /This sign-in link was already used or has expired/).waitFor();
  await shot(page, 'member-link-used');
  await axeClean(page, 'member portal: used link');
  assert.deepEqual(external, [], 'no request outside Berth');
  assert.deepEqual(errors, [], 'no script errors or CSP refusals');
  await context.close();
}

/** A stay of this run at Miami: a new tenant on a free unit (dates move with the run), confirmed, its contract sent. */
async function tenantStay() {
  const email = `tina.${Date.now()}@example.com`;
  const offset = 60 + (Math.floor(Date.now() / 60_000) % 240);
  const arrivalDate = dateAhead(offset);
  const departureDate = dateAhead(offset + 3);
  const boat = { vesselName: 'Sea Otter', loaFt: 30, beamFt: 10, draftFt: 4 };
  const free = await call(
    'GET',
    `/slips/availability?${new URLSearchParams({ locationId: MIAMI, arrivalDate, departureDate, loaFt: 30, beamFt: 10, draftFt: 4 })}`,
  );
  assert.equal(free.status, 200, free.text);
  assert.ok(free.body.data.length, 'a free unit');
  const r = await call('POST', '/slip-reservations', {
    slipId: free.body.data[0].id,
    rateType: 'nightly',
    arrivalDate,
    departureDate,
    boat,
    renter: { firstName: 'Tina', lastName: 'Tenant', email },
    status: 'confirmed',
  });
  assert.equal(r.status, 201, r.text);
  const c = await call('POST', '/slip-contracts/generate', { reservationId: r.body.id });
  assert.equal(c.status, 201, c.text);
  const sent = await call('POST', '/slip-contracts/send', { contractId: c.body.id });
  assert.equal(sent.status, 200, sent.text);
  return { email, reservation: r.body };
}

async function tenantPortal() {
  const { email, reservation } = await tenantStay();
  const { context, page, external, errors } = await newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const link = await askForLink(page, `${base}/slip-portal?customer=${CUSTOMER}&location=${MIAMI}`, email, 'slip_portal.magic_link', 'tenant');
  await page.goto(link);
  // One reservation: its page at once.
  const unit = reservation.unit.unitNumber;
  await page.getByRole('heading', { name: new RegExp(`Slip ${unit}`) }).waitFor();
  assert.doesNotMatch(page.url(), /token=/);
  const overview = await viewText(page);
  assert.match(overview, new RegExp(reservation.reservationNumber));
  assert.match(overview, /Sea Otter/);
  assert.match(overview, /\$[\d,.]+ due/);
  assert.match(overview, /Waiting for your signature/);
  await shot(page, 'tenant-reservation');
  await axeClean(page, 'tenant portal: reservation');
  // Documents: the insurance policy (a PDF).
  await page.getByRole('button', { name: 'Send documents' }).click();
  await page.getByRole('heading', { name: 'Documents', level: 2 }).waitFor();
  await page.getByLabel('Document').selectOption('insurance');
  await page.getByLabel('File').setInputFiles({
    name: 'insurance.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
  });
  await page.getByLabel('Runs out on (optional)').fill(dateAhead(400));
  await shot(page, 'tenant-documents');
  await axeClean(page, 'tenant portal: documents');
  await page.getByRole('button', { name: 'Send the document' }).click();
  await inView(page, /insurance\.pdf, sent, waiting for review/).waitFor();
  await axeClean(page, 'tenant portal: document sent');
  // The contract: read, then signed with a typed name.
  await page.getByRole('button', { name: 'Back to the reservation' }).click();
  await page.getByRole('button', { name: 'Read and sign' }).click();
  await page.getByRole('heading', { name: 'Contract', level: 2 }).waitFor();
  assert.match(await page.getByRole('region', { name: 'Contract text' }).innerText(), /slip license agreement/i);
  await page.getByLabel('Type your full name to sign').fill('Tina Tenant');
  await page.getByRole('button', { name: 'Sign the contract' }).click();
  await inView(page, 'Tick the box to agree to the contract.').waitFor();
  await page.getByRole('checkbox', { name: 'I have read this contract and I agree to it' }).check();
  await shot(page, 'tenant-contract');
  await axeClean(page, 'tenant portal: contract');
  await page.getByRole('button', { name: 'Sign the contract' }).click();
  await inView(page, /Signed by Tina Tenant on/).waitFor();
  await axeClean(page, 'tenant portal: contract signed');
  // Guest passes: one created, then revoked.
  await page.getByRole('button', { name: 'Back to the reservation' }).click();
  await page.getByRole('button', { name: 'Manage guest passes' }).click();
  await page.getByRole('heading', { name: 'Guest passes' }).waitFor();
  await page.getByLabel('Guest name').fill('Gus Guest');
  await page.getByRole('button', { name: 'Create the pass' }).click();
  const pass = page.locator('.pt-item', { hasText: 'Gus Guest' });
  await pass.waitFor();
  assert.match(await pass.locator('.pt-code').innerText(), /^[2-9A-Z]{8}$/);
  await shot(page, 'tenant-guest-pass');
  await axeClean(page, 'tenant portal: guest passes');
  await page.getByRole('button', { name: 'Revoke the pass of Gus Guest' }).click();
  await page.locator('.pt-item', { hasText: 'Gus Guest' }).getByText('Revoked').waitFor();
  // The bill, paid with a new card (saved for next time).
  await page.getByRole('button', { name: 'Back to the reservation' }).click();
  await page.getByRole('button', { name: 'Pay the balance' }).click();
  await page.getByRole('heading', { name: /^Bill for / }).waitFor();
  await page.getByRole('button', { name: /^Pay \$/ }).waitFor();
  assert.match(await viewText(page), /Tax \(7%\)/);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('checkbox', { name: 'Save this card for next time' }).check();
  await shot(page, 'tenant-pay');
  await axeClean(page, 'tenant portal: pay');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await inView(page, /Paid \$[\d,.]+\. Thank you\./).waitFor();
  await page.locator('tr', { hasText: 'Balance' }).getByText('$0.00').waitFor();
  assert.match(await page.getByRole('list').last().innerText(), /Visa ending in 4242/);
  await shot(page, 'tenant-paid');
  await axeClean(page, 'tenant portal: paid');
  const after = await call('GET', `/slip-reservations/${reservation.id}`);
  assert.equal(after.status, 200, after.text);
  assert.equal(after.body.balanceCents, 0);
  assert.equal(after.body.contract.status, 'signed');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await inView(page, /You are signed out/).waitFor();
  assert.deepEqual(external, [], 'no request outside Berth');
  assert.deepEqual(errors, [], 'no script errors or CSP refusals');
  await context.close();
}

// ---------------------------------------------------------------------------------------------

try {
  await waitForServer();
  // The sandbox seed (npm start seeds it; seeding again is idempotent).
  const seeded = await fetch(`${base}/__dev/seed`, { method: 'POST', headers: { 'x-seed-token': SEED_TOKEN ?? '' } });
  assert.ok(seeded.ok, `seed: ${seeded.status} ${await seeded.text()}`);
  // A $25 gift card of this run, for the boat renter.
  giftCode = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const gc = await call('POST', '/promoGiftCards', {
    customerId: CUSTOMER,
    promoCode: giftCode,
    currency: 'usd', // Demo Marina sells in USD (Miami) and EUR (Hamburg): the card is for Miami's boat
    ExpiryDate: '2099-12-31',
    Details: { $Discount: 25, type: 'gift_card' },
  });
  assert.equal(gc.status, 201, gc.text);
  // The seed gives Miami its rental agreement (the waiver step), its cancellation policy and the widget's integrations.
  // A new, empty profile directory (--user-data-dir) for every run.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 900 },
  });
  browser = context;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith(HOST) || url.startsWith('data:') || url.startsWith('blob:') || url === 'about:blank') return route.continue();
    external.push(url);
    return route.abort();
  });
  await scenario('a renter books a boat end to end through the embed script', bookBoatThroughEmbed);
  await scenario('a keyboard-only renter books a tour', bookTourByKeyboard);
  await scenario('a sold-out departure offers the waitlist', soldOutOffersWaitlist);
  await scenario('the renter cancels with the e-mailed code', cancelWithEmailedCode);
  await scenario('a self-service change: the renter changes the time, party and add-ons, sees the new price and confirms', selfServiceChange);
  await scenario('/docs shows the operation list with no network beyond Berth', docsOffline);
  await scenario('a renter books with coverage (questions, the higher price accepted, the policy on the booking page)', bookWithCoverage);
  await scenario('the booking goes ahead with the underwriter down, and a failed bind shows the policy has not issued yet', bookWithUnderwriterDown);
  await scenario('Back, Forward and a reload keep the party, the add-ons and the promo code', backAndReloadKeepChoices);
  await scenario('cart recovery: the cart is recorded, its link restores it and the booking completes it', cartRecovery);
  await scenario('member portal: sign in by e-mailed link, card, invoices, pause, resume, new card, cancel, sign out', memberPortal);
  await scenario('tenant portal: sign in by e-mailed link, document, contract, guest pass, pay the balance', tenantPortal);
  if (!process.env.E2E_ONLY)
    console.log(`     axe: no serious or critical violation on ${axeChecked.size} widget and portal views (${[...axeChecked].join('; ')})`);
} catch (err) {
  console.error(err);
  results.push({ name: 'setup', ok: false, error: err });
} finally {
  await cleanup();
}
const failed = results.filter((r) => !r.ok);
console.log(`\n${results.length - failed.length}/${results.length} browser scenarios passed; screenshots in test/e2e/screenshots/`);
process.exit(failed.length ? 1 : 0);
