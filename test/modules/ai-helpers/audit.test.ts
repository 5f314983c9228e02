/** POST /ai/business-audit and GET /ai/business-audit/billing through HTTP: the integration, the card, the page, the 4.99 charge and its event. */
import { afterEach, describe, it, expect } from 'vitest';
import { createOperator, expectError, get, patch, post, api, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { eventsOf } from '../bookings/factories';
import { fakeWeb } from './web';

let web: ReturnType<typeof fakeWeb> | null = null;
afterEach(() => {
  web?.restore();
  web = null;
});

const SITE = `<!doctype html><html lang="en"><head><title>Demo Marina - Boat rentals in Miami</title>
<meta name="description" content="Pontoon boats, jet skis and sunset cruises for rent in Miami. Book online in two minutes.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta property="og:title" content="Demo Marina"><meta property="og:image" content="https://demo-marina.test/og.jpg">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"LocalBusiness","name":"Demo Marina"}</script></head>
<body><h1>Boat rentals in Miami</h1><img src="/a.jpg" alt="Pontoon"><img src="/b.jpg" alt="Jet ski">
<a href="tel:+13055550100">Call us</a><a href="mailto:hello@demo-marina.test">E-mail</a>
<a href="/book">Book now</a><a href="https://instagram.com/demomarina">Instagram</a><a href="https://facebook.com/demomarina">Facebook</a>
</body></html>`;

async function ready(o: { card?: string; enable?: boolean } = {}) {
  const op = await createOperator();
  if (o.enable !== false) expect((await patch('/customer', { integrations: { businessAudit: { enabled: true } } }, { key: op.adminKey })).status).toBe(200);
  if (o.card) {
    const pm = await post('/customer/payment-method', { paymentMethodId: o.card }, { key: op.adminKey });
    expect(pm.status, pm.text).toBe(200);
  }
  return op;
}
const audit = (op: Operator, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api('POST', '/ai/business-audit', { body, key: op.adminKey, headers });
const billing = (op: Operator) => get('/ai/business-audit/billing', { key: op.adminKey });

describe('POST /ai/business-audit', () => {
  it('reads the site, scores it, charges 4.99 once (with payment.completed) and lists the charge', async () => {
    const op = await ready({ card: 'pm_card_visa' });
    web = fakeWeb({ 'https://demo-marina.test/': { body: SITE } });
    const r = await audit(op, { websiteUrl: 'https://demo-marina.test/', businessData: { businessName: 'Demo Marina' } }, { 'idempotency-key': 'audit-1' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      websiteUrl: 'https://demo-marina.test/',
      finalUrl: 'https://demo-marina.test/',
      amount: 4.99,
      amountCents: 499,
      currency: 'usd',
    });
    const byCheck = Object.fromEntries(r.body.report.findings.map((f: any) => [f.check, f.status]));
    expect(byCheck).toMatchObject({
      https: 'pass',
      title: 'pass',
      description: 'pass',
      mobile: 'pass',
      main_heading: 'pass',
      image_descriptions: 'pass',
      contact: 'pass',
      online_booking: 'pass',
      structured_data: 'pass',
      social_profiles: 'pass',
      language: 'pass',
      sharing_preview: 'pass',
    });
    expect(r.body.score).toBeGreaterThanOrEqual(90);
    expect(r.body.report.summarySource).toBe('rules');
    expect(r.body.report.summary).toMatch(/^Demo Marina: \d+\/100\./);
    // The same Idempotency-Key answers the same audit and charges nothing more.
    const again = await audit(op, { websiteUrl: 'https://demo-marina.test/', businessData: { businessName: 'Demo Marina' } }, { 'idempotency-key': 'audit-1' });
    expect(again.status).toBe(200);
    expect(again.body.auditId).toBe(r.body.auditId);
    const paid = (await eventsOf(op.customerId, 'payment.completed')).map((e) => e.payload.data);
    expect(paid).toEqual([
      expect.objectContaining({ kind: 'business_audit', amountCents: 499, amount: 4.99, auditId: r.body.auditId, paymentIntentId: r.body.paymentIntentId }),
    ]);
    const b = await billing(op);
    expect(b.status, b.text).toBe(200);
    expect(b.body).toMatchObject({ total: 1, totalChargedCents: 499, limit: 50, offset: 0 });
    expect(b.body.data).toEqual([
      {
        auditId: r.body.auditId,
        websiteUrl: 'https://demo-marina.test/',
        finalUrl: 'https://demo-marina.test/',
        score: r.body.score,
        amount: 4.99,
        amountCents: 499,
        currency: 'usd',
        paymentIntentId: r.body.paymentIntentId,
        createdAt: r.body.createdAt,
      },
    ]);
    // A weaker page scores lower and is charged again.
    web.restore();
    web = fakeWeb({ 'http://plain.example.test/': { body: '<html><body><p>Boats</p><img src="x.jpg"></body></html>' } });
    const weak = await audit(op, { websiteUrl: 'http://plain.example.test/' });
    expect(weak.status, weak.text).toBe(200);
    expect(weak.body.score).toBeLessThan(30);
    expect(weak.body.report.findings.find((f: any) => f.check === 'https').status).toBe('fail');
    expect((await billing(op)).body).toMatchObject({ total: 2, totalChargedCents: 998 });
  });

  it('refuses before charging: integration off (403), no card (404), unreadable page (400), declined card (402)', async () => {
    web = fakeWeb({ 'https://demo-marina.test/': { body: SITE } }, { 'inside.example.test': ['10.1.2.3'] });
    const off = await ready({ card: 'pm_card_visa', enable: false });
    expectError(await audit(off, { websiteUrl: 'https://demo-marina.test/' }), 403, 'integration_not_enabled');
    const noCard = await ready();
    expectError(await audit(noCard, { websiteUrl: 'https://demo-marina.test/' }), 404, 'not_found');
    const op = await ready({ card: 'pm_card_visa' });
    expectError(await audit(op, { websiteUrl: 'http://inside.example.test/' }), 400, 'validation_failed');
    expectError(await audit(op, { websiteUrl: 'ftp://demo-marina.test/' }), 400, 'validation_failed');
    const hostile = ['http://2130706433/', 'http://[::ffff:127.0.0.1]/', 'http://demo-marina.test@169.254.169.254/', 'http://[fd00:ec2::254]/'];
    for (const websiteUrl of hostile) expectError(await audit(op, { websiteUrl }), 400, 'validation_failed');
    expect(web.fetchedOf(['http://inside.example.test/', ...hostile])).toEqual([]);
    expect(web.fetched.filter((u) => u.startsWith('ftp:'))).toEqual([]);
    expectError(await audit(op, {}), 400, 'validation_failed');
    expect((await billing(op)).body.total).toBe(0);
    expect(await eventsOf(op.customerId, 'payment.completed')).toEqual([]);
    const declined = await ready({ card: 'pm_card_chargeDeclined' });
    expectError(await audit(declined, { websiteUrl: 'https://demo-marina.test/' }), 402, 'payment_failed');
    expect((await billing(declined)).body.total).toBe(0);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await api('POST', '/ai/business-audit', { body: { websiteUrl: 'https://demo-marina.test/' }, key: staff.key }), 403, 'forbidden');
  });

  it('security', async () => {
    const op = await ready({ card: 'pm_card_visa' });
    web = fakeWeb({ 'https://demo-marina.test/': { body: SITE } });
    await checkSecurity(op, { method: 'POST', path: '/ai/business-audit', body: { websiteUrl: 'https://demo-marina.test/' }, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: '/ai/business-audit/billing' });
    expect((await billing(op)).body.total).toBe(0);
  });
});
