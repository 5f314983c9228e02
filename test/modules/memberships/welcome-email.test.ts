/**
 * The member's welcome e-mail (issue 32): rendered by the one template engine (text and HTML) under
 * the operator's name, on a pinned clock, and its member-portal link on the origin the request came
 * to (the API's public origin), not a fixed development port; the operator's own portal page wins.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { BASE, createOperator } from '../../harness';
import { email, enroll, makeTier } from './factories';

const NOW = '2027-01-14T15:00:00.000Z';

const welcomeOf = async (customerId: string, to: string) =>
  env.DB.prepare(`SELECT subject, body, html FROM message_outbox WHERE customer_id = ? AND template = 'membership.welcome' AND "to" = ?`)
    .bind(customerId, to)
    .first<{ subject: string; body: string; html: string }>();

describe('the member welcome e-mail', () => {
  it('is text and HTML with local dates, and links to /member-portal on the public origin', async () => {
    const op = await createOperator({ clockAt: NOW, name: 'Harbour Club' });
    const t = await makeTier(op, { name: 'Gold', isPublic: true, pricing: { monthly: 3000 } });
    const to = email('welcome');
    await enroll(op, t.tierId, to);
    const m = (await welcomeOf(op.customerId, to))!;
    const token = /token=(mpl_[A-Za-z0-9]+)/.exec(m.body)![1];
    // The operator rides along: the page shows its name and look, and asks it for a new link when this one has expired.
    expect(m.body).toContain(`${BASE}/member-portal?token=${token}&customer=${op.customerId}`);
    expect(m.body).not.toContain('127.0.0.1:8787');
    expect(m.html).toContain(`href="${BASE}/member-portal?token=${token}&amp;customer=${op.customerId}"`);
    expect(m.html).toContain('<strong style="font-size:18px;vertical-align:middle">Harbour Club</strong>');
    expect(m.subject).toMatchInlineSnapshot(`"Welcome to Gold"`);
    expect(m.body.replace(token, 'mpl_TOKEN').replace(op.customerId, 'cus_OPERATOR')).toMatchInlineSnapshot(`
      "Hello Pia Portal,

      Your Gold membership with Harbour Club is active until Sun 14 Feb 2027 and renews monthly at 30.00 USD.

      Manage your membership (card, pause, cancel, invoices): http://berth.test/member-portal?token=mpl_TOKEN&customer=cus_OPERATOR
      This link works once and expires in 30 minutes.

      Harbour Club"
    `);
  });

  it("links to the operator's own portal page when its settings name one", async () => {
    const op = await createOperator({ clockAt: NOW });
    await env.DB.prepare('UPDATE customers SET settings = ? WHERE id = ?')
      .bind(JSON.stringify({ memberPortalUrl: 'https://club.example.com/members' }), op.customerId)
      .run();
    const t = await makeTier(op, { name: 'Silver', isPublic: true, pricing: { monthly: 2000 } });
    const to = email('own-portal');
    await enroll(op, t.tierId, to, { firstName: 'Ola', lastName: 'Own' });
    expect((await welcomeOf(op.customerId, to))!.body).toMatch(/https:\/\/club\.example\.com\/members\?token=mpl_/);
  });
});
