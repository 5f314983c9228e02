/**
 * Coverage test kit: underwriters are instances of the reference underwriter
 * (examples/reference-underwriter) served through the outbound fetch at their own test host, each
 * holding the signing secret its offering answered once; every request Berth sends is captured.
 */
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, post, runCron, type Operator } from '../../harness';
import { customers } from '../../../src/db/schema/accounts';
import { locations } from '../../../src/db/schema/locations';
import { outbound } from '../../../src/adapters/http';
import { asFetch, createReferenceUnderwriter } from '../../../examples/reference-underwriter/src/underwriter';
import { rentalItem, at, email, type TestItem } from '../bookings/factories';
import { bearer, registerPartner, type Partner } from '../partners/helpers';

export { bearer, registerPartner, type Partner };
export const PLATFORM = { headers: { 'x-platform-key': env.PLATFORM_API_KEY! } };
export const TZ = 'America/New_York';

export interface Captured {
  host: string;
  endpoint: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

interface Hosted {
  secrets: string[];
  behaviour?: string;
  store: Map<string, unknown>;
}

const hosts = new Map<string, Hosted>();
export let captured: Captured[] = [];
const realFetch = outbound.fetch;

/** Installs the test network: underwriter hosts answer through the reference underwriter; anything else answers 200 "ok". */
export function installNetwork() {
  captured = [];
  outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const h = hosts.get(url.host);
    if (!h) return new Response('ok', { status: 200 });
    const body = await req.clone().text();
    captured.push({ host: url.host, endpoint: url.pathname.split('/').pop()!, headers: Object.fromEntries(req.headers), body, at: Date.now() });
    const uw = createReferenceUnderwriter({ secrets: h.secrets, store: h.store, behaviour: h.behaviour });
    return asFetch(uw)(req, { signal: init?.signal ?? undefined });
  };
}
export function restoreNetwork() {
  outbound.fetch = realFetch;
}

/** An underwriter host (not answering until `serve` gives it the offering's secret). */
export function underwriterHost(behaviour?: string) {
  const host = `uw-${crypto.randomUUID().slice(0, 8)}.example.test`;
  const h: Hosted = { secrets: [], behaviour, store: new Map() };
  hosts.set(host, h);
  const uw = () => createReferenceUnderwriter({ secrets: h.secrets, store: h.store });
  return {
    host,
    baseUrl: `https://${host}`,
    serve: (...secrets: string[]) => void (h.secrets = secrets),
    behave: (b?: string) => void (h.behaviour = b),
    stats: () => uw().stats(),
    policies: () => uw().policies(),
    calls: (endpoint?: string) => captured.filter((c) => c.host === host && (!endpoint || c.endpoint === endpoint)),
  };
}
export type Host = ReturnType<typeof underwriterHost>;

export interface World {
  partner: Partner;
  host: Host;
  offeringId: string;
  secret: string;
  op: Operator;
  item: TestItem;
}

/** A partner with a payout account and an offering served by a reference underwriter. */
export async function offering(o: { behaviour?: string; body?: Record<string, unknown>; payout?: boolean; partner?: Partner } = {}) {
  const partner = o.partner ?? (await registerPartner('Harbor Cover'));
  if (o.payout !== false) {
    const p = await post('/partners/payout-account', { country: 'US' }, bearer(partner.token));
    expect(p.status, p.text).toBe(200);
  }
  const host = underwriterHost(o.behaviour);
  const r = await post(
    '/partners/coverage/offerings',
    { name: 'Harbor Boat Cover', supportEmail: 'claims@harbor-cover.test', baseUrl: host.baseUrl, supportedCountries: ['US'], currencies: ['usd'], ...o.body },
    bearer(partner.token),
  );
  expect(r.status, r.text).toBe(201);
  host.serve(r.body.signingSecret);
  return { partner, host, offeringId: r.body.offeringId as string, secret: r.body.signingSecret as string, offering: r.body };
}

/** An operator (sandbox by default: drafts are usable) whose location is in the US, with a rental item ($100/hour, a $300 deposit). */
export async function operator(o: { sandbox?: boolean; deposit?: number } = {}) {
  const op = await createOperator({ timezone: TZ });
  if (o.sandbox !== false) await db().update(customers).set({ isSandbox: true }).where(eq(customers.id, op.customerId));
  await db()
    .update(locations)
    .set({ details: { country: 'US' } })
    .where(eq(locations.id, op.locationId));
  const item = await rentalItem(op, { assets: 3, data: o.deposit === 0 ? {} : { deposit: { amount: o.deposit ?? 300, required: true } } });
  return { op, item };
}

/** A whole world: an offering enabled at a sandbox operator's location. */
export async function world(o: { behaviour?: string; body?: Record<string, unknown>; sandbox?: boolean; deposit?: number } = {}): Promise<World> {
  const off = await offering(o);
  const { op, item } = await operator(o);
  const e = await post('/coverage/enablements', { locationId: op.locationId, offeringId: off.offeringId }, { key: op.adminKey });
  expect(e.status, e.text).toBe(201);
  return { partner: off.partner, host: off.host, offeringId: off.offeringId, secret: off.secret, op, item };
}

/** A 2-hour rental window N days ahead (10:00-12:00 local). */
export const window2h = (days = 3) => ({ startTime: at(TZ, days, '10:00'), endTime: at(TZ, days, '12:00') });

export async function quote(w: World, win = window2h(), extra: Record<string, unknown> = {}) {
  return post('/coverage/quotes', { inventoryId: w.item.id, ...win, ...extra }, { key: w.op.adminKey });
}

/** The expert's answers (a lower final price: 10.00 instead of 12.50). */
export const EXPERT = { skipper_dob: '1980-05-01', experience: 'expert', license_number: 'FL123456' };
export const SOME = { skipper_dob: '1980-05-01', experience: 'some' };

export function bookWith(w: World, win: { startTime: string; endTime: string }, quoteId: string | null, extra: Record<string, unknown> = {}) {
  return {
    rentalDetails: { inventoryId: w.item.id, ...win, quantity: 1 },
    rentalPricing: {},
    customerInfo: { firstName: 'Rita', lastName: 'Renter', email: email('cover') },
    paymentMethodId: 'pm_card_visa',
    extendedData: {},
    coverage: quoteId ? { quoteId } : null,
    ...extra,
  };
}

/** Quote, answer as an expert would ... or as given, and book: the policy id. */
export async function buyCoverage(w: World, o: { win?: { startTime: string; endTime: string }; answers?: Record<string, unknown> } = {}) {
  const win = o.win ?? window2h();
  const q = await quote(w, win);
  expect(q.status, q.text).toBe(200);
  expect(q.body.data, JSON.stringify(q.body.unavailable)).toHaveLength(1);
  const quoteId = q.body.data[0].quoteId;
  const a = await post(`/coverage/quotes/${quoteId}/answers`, { answers: o.answers ?? SOME }, { key: w.op.adminKey });
  expect(a.status, a.text).toBe(200);
  expect(a.body.status).toBe('ready');
  const b = await post('/coverage/checkout', bookWith(w, win, quoteId), { key: w.op.adminKey });
  expect(b.status, b.text).toBe(201);
  expect(b.body.coverage.status, JSON.stringify(b.body.coverage)).toBe('purchased');
  return { quoteId, policyId: b.body.coverage.policyId as string, booking: b.body, win };
}

/** Runs the 5-minute cron as if `ms` later. */
export const sweepAt = (ms: number) => runCron('*/5 * * * *', new Date(Date.now() + ms));

/** Independent HMAC-SHA256 (not the service's helper). */
export async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A message request signed as an underwriter signs it. */
export async function signedMessage(offeringId: string, secret: string, body: unknown, o: { timestamp?: number; signature?: string } = {}) {
  const raw = JSON.stringify(body);
  const ts = String(o.timestamp ?? Math.floor(Date.now() / 1000));
  const sig = o.signature ?? (await hmacHex(secret, `${ts}.${raw}`));
  return {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-service-offering': offeringId, 'x-service-timestamp': ts, 'x-service-signature': sig },
  };
}
