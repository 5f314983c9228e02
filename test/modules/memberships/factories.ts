/** Helpers of the membership tests: tiers, renters, memberships, time travel of a period, outbox reads. */
import { env } from 'cloudflare:test';
import { expect } from 'vitest';
import { get, post, type Operator } from '../../harness';

export const DAY = 86_400_000;
let seq = 0;
export const email = (tag = 'member') => `${tag}-${Date.now().toString(36)}-${++seq}@member.test`;

export async function makeTier(op: Operator, body: Record<string, unknown> = {}) {
  const r = await post(
    '/memberships/tiers',
    { customerId: op.customerId, name: 'Gold', pricing: { monthly: 3000, yearly: 30000 }, ...body },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { tierId: string; [k: string]: any };
}

export async function makeRenter(op: Operator, o: { email?: string; firstName?: string; lastName?: string } = {}) {
  const r = await post(
    '/renters',
    { customerId: op.customerId, firstName: o.firstName ?? 'Rita', lastName: o.lastName ?? 'Renter', email: o.email ?? email('renter'), address: '1 Pier Rd' },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; email: string };
}

/** A membership of a new renter (createRenter) paid with pm_card_visa. */
export async function makeMembership(op: Operator, tierId: string, o: Record<string, unknown> = {}) {
  const r = await post(
    '/memberships',
    {
      customerId: op.customerId,
      tierId,
      memberEmail: email(),
      createRenter: true,
      firstName: 'Mia',
      lastName: 'Member',
      paymentMethodId: 'pm_card_visa',
      ...o,
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { membershipId: string; renterId: string; memberEmail: string; [k: string]: any };
}

export const getM = (op: Operator, id: string) => get(`/memberships/${id}?customerId=${op.customerId}`, { key: op.adminKey });
export const act = (op: Operator, id: string, action: string, body: Record<string, unknown> = {}, key = op.adminKey) =>
  post(`/memberships/${id}/${action}`, { customerId: op.customerId, ...body }, { key });

/** Moves the current period so it started `startedDaysAgo` days ago and lasts `lengthDays` (same time of day as now). */
export async function setPeriod(membershipId: string, startedDaysAgo: number, lengthDays: number, now = Date.now()) {
  const start = new Date(now - startedDaysAgo * DAY).toISOString();
  const end = new Date(now - startedDaysAgo * DAY + lengthDays * DAY).toISOString();
  await env.DB.prepare('UPDATE memberships SET current_period_start = ?, current_period_end = ?, next_charge_at = ?, billing_anchor_day = ? WHERE id = ?')
    .bind(start, end, end, new Date(end).getUTCDate(), membershipId)
    .run();
  return { start, end };
}

export const row = (membershipId: string) => env.DB.prepare('SELECT * FROM memberships WHERE id = ?').bind(membershipId).first<any>();
export const payments = (membershipId: string) =>
  env.DB.prepare('SELECT * FROM membership_payments WHERE membership_id = ? ORDER BY created_at, id')
    .bind(membershipId)
    .all<any>()
    .then((r) => r.results);
export const invoices = (membershipId: string) =>
  env.DB.prepare('SELECT * FROM membership_invoices WHERE membership_id = ? ORDER BY created_at, id')
    .bind(membershipId)
    .all<any>()
    .then((r) => r.results);
export const events = (customerId: string, type: string) =>
  env.DB.prepare('SELECT payload FROM webhook_events WHERE customer_id = ? AND type = ? ORDER BY created_at')
    .bind(customerId, type)
    .all<any>()
    .then((r) => r.results.map((x: any) => (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload)));
export const mails = (customerId: string, template: string) =>
  env.DB.prepare('SELECT "to", subject, body, metadata FROM message_outbox WHERE customer_id = ? AND template = ? ORDER BY created_at')
    .bind(customerId, template)
    .all<any>()
    .then((r) => r.results);

/** The portal token of the last link e-mailed to `to`. */
export async function lastPortalToken(customerId: string, to: string): Promise<string> {
  const r = await env.DB.prepare(
    `SELECT body FROM message_outbox WHERE customer_id = ? AND "to" = ? AND body LIKE '%token=mpl_%' ORDER BY created_at DESC, id DESC LIMIT 1`,
  )
    .bind(customerId, to)
    .first<any>();
  const m = /token=(mpl_[A-Za-z0-9]+)/.exec(r?.body ?? '');
  if (!m) throw new Error(`no portal link mailed to ${to}`);
  return m[1];
}

/** Enrolls a renter (Pia Portal unless named) in a public tier through the public form, paid by card. */
export async function enroll(
  op: Operator,
  tierId: string,
  to: string,
  name: { firstName: string; lastName: string } = { firstName: 'Pia', lastName: 'Portal' },
) {
  const r = await post('/public/memberships/enroll', { customerId: op.customerId, tierId, ...name, email: to, paymentMethodId: 'pm_card_visa' });
  expect(r.status, r.text).toBe(201);
  return r;
}

/** A member-portal session of a new member of a new public tier (through enrollment and the e-mailed link). */
export async function memberPortalSession(op: Operator): Promise<string> {
  const t = await makeTier(op, { name: 'Portal', isPublic: true });
  const to = email('portal');
  await enroll(op, t.tierId, to);
  const s = await post('/public/memberships/portal/session', { token: await lastPortalToken(op.customerId, to) });
  expect(s.status, s.text).toBe(200);
  return s.body.sessionToken as string;
}
