/**
 * The renter's booking e-mails (issue 32): HTML with a plain-text part, rendered by the one template
 * engine, carrying the operator's name and logo, local times with the zone's name, the address and a
 * map link, what to bring, the cancellation policy with amounts, the booking's one public reference
 * (its id) and the manage link. The operator is pinned on a test clock (Thu 10 Dec 2026, 10:00 in New
 * York), so the snapshots do not depend on the hour the tests run at; ids are masked in them.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { BASE, createOperator, get, post, type Operator } from '../../harness';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { wallTimeToUtc } from '../../../src/lib/time';
import { book, bookBody, rentalItem, type TestItem } from './factories';

const TZ = 'America/New_York';
const NOW = '2026-12-10T15:00:00.000Z';
const local = (date: string, time: string) => new Date(wallTimeToUtc(date, time, TZ)).toISOString();

let op: Operator;
let item: TestItem;
beforeAll(async () => {
  op = await createOperator({ clockAt: NOW, timezone: TZ, name: 'Bay Boats' });
  await env.DB.prepare('UPDATE customers SET business_name = ?, integrations = ? WHERE id = ?')
    .bind('Bay & Co Boats', JSON.stringify({ widget: { logoUrl: 'https://cdn.example.com/bay-logo.png', primaryColor: '#114477' } }), op.customerId)
    .run();
  const details = {
    whatToBring: ['Sunscreen', 'A photo ID'],
    cancellationPolicy: {
      tiers: [
        { hoursBefore: 48, refundPercent: 100 },
        { hoursBefore: 24, refundPercent: 50 },
        { hoursBefore: 0, refundPercent: 0 },
      ],
    },
  };
  await env.DB.prepare('UPDATE locations SET name = ?, address = ?, latitude = ?, longitude = ?, details = ? WHERE id = ?')
    .bind('North Dock', '1 Harbour Way, Miami, FL', 25.7617, -80.1918, JSON.stringify(details), op.locationId)
    .run();
  item = await rentalItem(op, { assets: 3, data: { name: 'Pontoon <22>', whatToBring: ['Towels'] } as never });
});

const mail = async (rentalId: string, template: string) => {
  const r = await get(`/outbox/messages?${new URLSearchParams({ rentalId, template })}`, { key: op.adminKey });
  expect(r.body.data, `${template} for ${rentalId}`).toHaveLength(1);
  return r.body.data[0] as { id: string; subject: string; body: string; html: string; metadata: any };
};
const mask = (s: string, rentalId: string) => s.replaceAll(rentalId, 'bk_REF').replaceAll(op.customerId, 'cus_OP');

describe('booking e-mails', () => {
  it('the confirmation: HTML and text, brand, local times and zone, address and map, what to bring, policy with amounts, reference, manage link', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-14', '10:00'), endTime: local('2026-12-14', '14:00') }));
    expect(b.status, b.text).toBe(201);
    const m = await mail(b.body.rentalId, 'booking.confirmation');
    expect(m.metadata).toMatchObject({ reference: b.body.rentalId });
    for (const part of [m.subject, m.body, m.html]) expect(part).not.toMatch(ISO_TIMESTAMP);
    expect(mask(m.subject, b.body.rentalId)).toMatchInlineSnapshot(`"Your booking is confirmed (bk_REF)"`);
    expect(mask(m.body, b.body.rentalId)).toMatchInlineSnapshot(`
      "Hello Rita,

      Your booking with Bay & Co Boats is confirmed.

      Pontoon <22>
        When: Mon 14 Dec 2026, 10:00–14:00 EST
        Party: 1 unit
        Booking reference: bk_REF
        Manage or cancel: http://berth.test/widget?manage=bk_REF&customer=cus_OP

      Total: $400.00; paid: $400.00.

      Times are in Eastern Standard Time.
      Where: North Dock, 1 Harbour Way, Miami, FL
      Map: https://www.google.com/maps/search/?api=1&query=25.7617%2C-80.1918
      Phone: +15555550100

      What to bring:
      - Towels
      - Sunscreen
      - A photo ID

      Cancellation policy: 100% refund when cancelled at least 48 hours before the start; 50% refund when cancelled at least 24 hours before the start; 0% refund after that.
      - Cancel before Sat 12 Dec 2026, 10:00 EST: 100% refund ($400.00)
      - Cancel after Sat 12 Dec 2026, 10:00 EST and before Sun 13 Dec 2026, 10:00 EST: 50% refund ($200.00)
      - Cancel after Sun 13 Dec 2026, 10:00 EST and until the start: 0% refund ($0.00)

      Bay & Co Boats"
    `);
    expect(mask(m.html, b.body.rentalId)).toMatchInlineSnapshot(`
      "<!doctype html>
      <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Your booking is confirmed (bk_REF)</title></head>
      <body style="margin:0;padding:0;background:#f4f5f7">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7"><tr><td align="center" style="padding:24px 12px">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#111">
      <tr><td style="padding:20px 24px;border-bottom:4px solid #114477"><img src="https://cdn.example.com/bay-logo.png" alt="Bay &amp; Co Boats" height="40" style="height:40px;vertical-align:middle;margin-right:12px"><strong style="font-size:18px;vertical-align:middle">Bay &amp; Co Boats</strong></td></tr>
      <tr><td style="padding:20px 24px">
      <p>Hello Rita,</p>
      <p>Your booking with Bay &amp; Co Boats is <strong>confirmed</strong>.</p>
      <table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:12px 0;border:1px solid #e2e4e8;border-radius:6px">
      <tr><td colspan="2" style="padding:10px 12px;font-weight:bold;font-size:16px">Pontoon &lt;22&gt;</td></tr>
      <tr><td style="padding:4px 12px;color:#555;width:150px">When</td><td style="padding:4px 12px"><strong>Mon 14 Dec 2026, 10:00–14:00 EST</strong></td></tr>
      <tr><td style="padding:4px 12px;color:#555">Party</td><td style="padding:4px 12px">1 unit</td></tr>
      <tr><td style="padding:4px 12px;color:#555">Booking reference</td><td style="padding:4px 12px;font-family:monospace">bk_REF</td></tr>
      <tr><td colspan="2" style="padding:10px 12px"><a href="http://berth.test/widget?manage=bk_REF&amp;customer=cus_OP" style="display:inline-block;padding:8px 14px;background:#114477;color:#ffffff;border-radius:4px;text-decoration:none">Manage or cancel</a> <a href="http://berth.test/widget?pass=bk_REF&amp;customer=cus_OP" style="margin-left:8px">Your pass</a></td></tr>
      </table>
      <p>Total: <strong>$400.00</strong>; paid: $400.00.</p>
      <p style="color:#555">Times are in Eastern Standard Time.</p>
      <p><strong>Where</strong><br>North Dock<br>1 Harbour Way, Miami, FL<br>+15555550100<br><a href="https://www.google.com/maps/search/?api=1&amp;query=25.7617%2C-80.1918">Open the map</a></p>
      <p><strong>What to bring</strong></p>
      <ul><li>Towels</li><li>Sunscreen</li><li>A photo ID</li></ul>
      <p><strong>Cancellation policy</strong><br>100% refund when cancelled at least 48 hours before the start; 50% refund when cancelled at least 24 hours before the start; 0% refund after that.</p>
      <ul><li>Cancel before Sat 12 Dec 2026, 10:00 EST: 100% refund ($400.00)</li><li>Cancel after Sat 12 Dec 2026, 10:00 EST and before Sun 13 Dec 2026, 10:00 EST: 50% refund ($200.00)</li><li>Cancel after Sun 13 Dec 2026, 10:00 EST and until the start: 0% refund ($0.00)</li></ul>
      </td></tr>
      </table>
      </td></tr></table>
      </body></html>"
    `);
  });

  it('the cancellation: the booking, its reference and the refund to the card', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-15', '09:00'), endTime: local('2026-12-15', '11:00') }));
    expect(b.status, b.text).toBe(201);
    const c = await post(`/coreBooking/${b.body.rentalId}/cancel`, { reason: 'Storm warning' }, { key: op.adminKey });
    expect(c.status, c.text).toBe(200);
    const m = await mail(b.body.rentalId, 'booking.cancelled');
    expect(mask(m.subject, b.body.rentalId)).toMatchInlineSnapshot(`"Your booking bk_REF is cancelled"`);
    expect(mask(m.body, b.body.rentalId)).toMatchInlineSnapshot(`
      "Hello Rita,

      Your booking with Bay & Co Boats has been cancelled.

      Pontoon <22>
        When: Tue 15 Dec 2026, 09:00–11:00 EST
        Party: 1 unit
        Booking reference: bk_REF
        Manage or cancel: http://berth.test/widget?manage=bk_REF&customer=cus_OP

      Reason: Storm warning
      We are refunding $200.00 to the card you paid with.

      Times are in Eastern Standard Time.
      Where: North Dock, 1 Harbour Way, Miami, FL
      Map: https://www.google.com/maps/search/?api=1&query=25.7617%2C-80.1918
      Phone: +15555550100

      Bay & Co Boats"
    `);
    expect(m.html).toContain('Reason: Storm warning');
    expect(m.html).toContain(`href="${BASE}/widget?manage=${b.body.rentalId}&amp;customer=${op.customerId}"`);
  });

  it('the new time: was and now in local time, the price, and the manage link', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-16', '09:00'), endTime: local('2026-12-16', '11:00') }));
    expect(b.status, b.text).toBe(201);
    const r = await post(
      `/coreBooking/${b.body.rentalId}/reschedule`,
      { startTime: local('2026-12-17', '13:00'), endTime: local('2026-12-17', '15:00') },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    const m = await mail(b.body.rentalId, 'booking.rescheduled');
    expect(mask(m.body, b.body.rentalId)).toMatchInlineSnapshot(`
      "Hello Rita,

      Your booking with Bay & Co Boats has moved.
      Was: Wed 16 Dec 2026, 09:00–11:00 EST

      Pontoon <22>
        When: Thu 17 Dec 2026, 13:00–15:00 EST
        Party: 1 unit
        Booking reference: bk_REF
        Manage or cancel: http://berth.test/widget?manage=bk_REF&customer=cus_OP

      Your price stays 200.00 USD.

      Times are in Eastern Standard Time.
      Where: North Dock, 1 Harbour Way, Miami, FL
      Map: https://www.google.com/maps/search/?api=1&query=25.7617%2C-80.1918
      Phone: +15555550100

      What to bring:
      - Towels
      - Sunscreen
      - A photo ID

      Cancellation policy: 100% refund when cancelled at least 48 hours before the start; 50% refund when cancelled at least 24 hours before the start; 0% refund after that.
      - Cancel before Tue 15 Dec 2026, 13:00 EST: 100% refund ($200.00)
      - Cancel after Tue 15 Dec 2026, 13:00 EST and before Wed 16 Dec 2026, 13:00 EST: 50% refund ($100.00)
      - Cancel after Wed 16 Dec 2026, 13:00 EST and until the start: 0% refund ($0.00)

      Bay & Co Boats"
    `);
    expect(m.html).toContain('Thu 17 Dec 2026, 13:00–15:00 EST');
  });
  it('without a logo, things to bring or a policy of its own: no logo, no "What to bring", the default policy with its amounts', async () => {
    const plain = await createOperator({ clockAt: NOW, timezone: TZ, name: 'Plain Rentals' });
    const it2 = await rentalItem(plain, { assets: 1 });
    const b = await book(plain, bookBody({ inventoryId: it2.id, startTime: local('2026-12-14', '10:00'), endTime: local('2026-12-14', '12:00') }));
    expect(b.status, b.text).toBe(201);
    const r = await get(`/outbox/messages?${new URLSearchParams({ rentalId: b.body.rentalId, template: 'booking.confirmation' })}`, { key: plain.adminKey });
    const m = r.body.data[0];
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('<strong style="font-size:18px;vertical-align:middle">Plain Rentals</strong>');
    for (const part of [m.body, m.html]) expect(part).not.toContain('What to bring');
    expect(m.body).toContain('- Cancel before Sun 13 Dec 2026, 10:00 EST: 100% refund ($200.00)');
    expect(m.body).toContain('- Cancel after Sun 13 Dec 2026, 10:00 EST and until the start: 0% refund ($0.00)');
  });
  it('the reminder (communications template, same engine): local time with the zone name, map and manage link', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-18', '10:00'), endTime: local('2026-12-18', '12:00') }));
    expect(b.status, b.text).toBe(201);
    const sent = await post(
      '/communication/send-templated',
      { customerId: op.customerId, locationId: op.locationId, templateId: 'booking_reminder', rentalId: b.body.rentalId },
      { key: op.adminKey },
    );
    expect(sent.status, sent.text).toBe(200);
    const m = await mail(b.body.rentalId, 'booking_reminder');
    expect(mask(m.subject, b.body.rentalId)).toMatchInlineSnapshot(`"Reminder: Pontoon <22> on Fri 18 Dec 2026"`);
    expect(mask(m.body, b.body.rentalId)).toMatchInlineSnapshot(`
      "Hello Rita,

      A reminder of your booking bk_REF: Pontoon <22> on Fri 18 Dec 2026, 10:00–12:00 EST (Eastern Standard Time) at North Dock, 1 Harbour Way, Miami, FL.
      Map: https://www.google.com/maps/search/?api=1&query=25.7617%2C-80.1918
      Balance due: $0.00.
      Manage or cancel: http://berth.test/widget?manage=bk_REF&customer=cus_OP

      See you soon!
      Bay & Co Boats
      North Dock · +15555550100"
    `);
    expect(m.html).toContain('<img src="https://cdn.example.com/bay-logo.png"');
    expect(m.html).toContain(`<a href="${BASE}/widget?manage=${b.body.rentalId}&amp;customer=${op.customerId}">Manage or cancel your booking</a>`);
  });
  it('one public reference: the booking id on the booking, the operator read, the pass, the widget checkout and the manage link', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: local('2026-12-19', '10:00'), endTime: local('2026-12-19', '12:00') }));
    expect(b.status, b.text).toBe(201);
    expect(b.body.reference).toBe(b.body.rentalId);
    expect(b.body.rentals[0].reference).toBe(b.body.rentalId);
    expect((await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey })).body.reference).toBe(b.body.rentalId);
    const pass = await get(`/public/bookings/${b.body.rentalId}/wallet-pass-a`);
    expect(pass.status, pass.text).toBe(200);
    expect(pass.body.reference).toBe(b.body.rentalId);
    const w = await post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: item.id,
      startTime: local('2026-12-20', '10:00'),
      endTime: local('2026-12-20', '12:00'),
      customerInfo: { firstName: 'Wes', lastName: 'Widget', email: `wes-${crypto.randomUUID().slice(0, 8)}@renter.test` },
      paymentMethodId: 'pm_card_visa',
    });
    expect(w.status, w.text).toBe(201);
    expect(w.body.reference).toBe(w.body.rentalId);
    expect(w.body.links.manage).toBe(`${BASE}/widget?manage=${w.body.rentalId}&customer=${op.customerId}`);
    const m = await mail(w.body.rentalId, 'booking.confirmation');
    expect(m.subject).toContain(w.body.reference);
    expect(m.body).toContain(`Booking reference: ${w.body.reference}`);
    expect(m.body).toContain(`Manage or cancel: ${w.body.links.manage}`);
    expect(m.body).not.toContain(w.body.transactionId);
  });
});
