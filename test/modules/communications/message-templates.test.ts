/** Operator message templates: CRUD with variable checks, preview, test send, and the booking e-mails rendered with the chosen one. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createOperator, del, eventually, expectError, get, patch, post, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, rentalItem } from '../bookings/factories';
import { messagesOf, rental } from './helpers';

const create = (op: Operator, body: Record<string, unknown>) => post('/communication/templates', body, { key: op.adminKey });

const confirmation = {
  key: 'booking_confirmation',
  subject: 'Ahoy {{renter.firstName}}: {{booking.itemName}} is yours',
  html: '<p>See you on {{booking.when}} at {{location.name}}.</p>{{#booking.balanceDue}}<p>Due: {{booking.balanceDue}}</p>{{/booking.balanceDue}}',
  text: 'See you on {{booking.when}} at {{location.name}}. Ref {{booking.reference}}',
};

describe('/communication/templates', () => {
  let op: Operator;
  let r: Awaited<ReturnType<typeof rental>>;
  beforeAll(async () => {
    op = await createOperator();
    r = await rental(op, { start: at(op.timezone, 3, '10:00'), end: at(op.timezone, 3, '12:00') });
  });

  it('creates, lists, updates, previews, test-sends and deletes; refuses unknown variables, duplicates and foreign items', async () => {
    const made = await create(op, { ...confirmation, sms: 'Hi {{renter.firstName}}, {{booking.start}}' });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ key: 'booking_confirmation', itemId: null, subject: confirmation.subject });
    expect(made.body.variables.map((v: any) => v.name)).toEqual(expect.arrayContaining(['renter.firstName', 'booking.when', 'booking.balanceDue']));
    const id = made.body.templateId as string;

    // Unknown variables are listed; a section that never closes is refused; one per key and scope.
    const unknown = await create(op, { ...confirmation, key: 'booking_reminder', text: 'Bring {{renter.shoeSize}} and {{giftCard.code}}' });
    expectError(unknown, 400, 'validation_failed');
    expect(unknown.body.details.map((d: any) => d.variable)).toEqual(['renter.shoeSize', 'giftCard.code']);
    expect(unknown.body.message).toMatch(/Supported: .*booking\.when/);
    expectError(await create(op, { ...confirmation, key: 'booking_reminder', html: '{{#booking.total}}open' }), 400, 'validation_failed');
    expectError(await create(op, { ...confirmation, key: 'nope' }), 400, 'validation_failed');
    expectError(await create(op, confirmation), 409, 'already_exists');
    const other = await createOperator();
    const foreignItem = await rentalItem(other);
    expectError(await create(op, { ...confirmation, itemId: foreignItem.id }), 404);

    const item = await create(op, { ...confirmation, itemId: r.item.id, subject: 'Item {{booking.itemName}}' });
    expect(item.status, item.text).toBe(201);
    const list = await get('/communication/templates?key=booking_confirmation', { key: op.adminKey });
    expect(list.body.total).toBe(2);
    expect((await get(`/communication/templates?itemId=${r.item.id}`, { key: op.adminKey })).body.data.map((t: any) => t.templateId)).toEqual([
      item.body.templateId,
    ]);

    const upd = await patch(`/communication/templates/${id}`, { subject: 'Confirmed: {{booking.itemName}} for {{renter.fullName}}' }, { key: op.adminKey });
    expect(upd.status, upd.text).toBe(200);
    expect((await get(`/communication/templates/${id}`, { key: op.adminKey })).body.subject).toBe('Confirmed: {{booking.itemName}} for {{renter.fullName}}');
    expectError(await patch(`/communication/templates/${id}`, { text: '{{booking.secret}}' }, { key: op.adminKey }), 400, 'validation_failed');

    // Preview: the booking's real data, or samples.
    const real = await post(`/communication/templates/${id}/preview`, { rentalId: r.rentalId }, { key: op.adminKey });
    expect(real.status, real.text).toBe(200);
    expect(real.body).toMatchObject({ sample: false, rentalId: r.rentalId, subject: 'Confirmed: Pontoon 22 for Rita Renter' });
    expect(real.body.text).toContain(`at Main dock. Ref ${r.rentalId}`);
    expect(real.body.html).toContain('<!doctype html>');
    const sample = await post(`/communication/templates/${id}/preview`, {}, { key: op.adminKey });
    expect(sample.body).toMatchObject({ sample: true, subject: 'Confirmed: Pontoon 22 for Alex Rivera' });
    expect(sample.body.sms).toBe('Hi Alex, Sat 17 Jul 2027, 10:00 EDT');

    // Test send: e-mail and SMS through the adapters (the outbox offline).
    const sent = await post(
      `/communication/templates/${id}/test`,
      { email: 'owner@example.test', phoneNumber: '+13055550142', rentalId: r.rentalId },
      { key: op.adminKey },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.messages.map((m: any) => [m.channel, m.status, m.provider])).toEqual([
      ['email', 'sent', 'outbox'],
      ['sms', 'sent', 'outbox'],
    ]);
    const log = (await messagesOf(op.customerId, 'booking_confirmation')).filter((m) => JSON.parse(m.metadata ?? '{}').test);
    expect(log.map((m) => m.subject)).toEqual(['[Test] Confirmed: Pontoon 22 for Rita Renter', null]);
    expect(log[1].body).toMatch(/^Hi Rita, /);
    expectError(await post(`/communication/templates/${id}/test`, {}, { key: op.adminKey }), 400, 'validation_failed');

    // Tenancy and permissions.
    expectError(await get(`/communication/templates/${id}`, { key: other.adminKey }), 404);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await create({ ...op, adminKey: staff.key }, { ...confirmation, key: 'booking_reminder' }), 403, 'forbidden');
    for (const rc of [
      { method: 'GET', path: '/communication/templates' },
      { method: 'POST', path: '/communication/templates', body: { ...confirmation, key: 'booking_reminder' }, adminOnly: true },
      { method: 'GET', path: `/communication/templates/${id}`, otherStatus: 404 as const },
      { method: 'PATCH', path: `/communication/templates/${id}`, body: { name: 'x' }, otherStatus: 404 as const, adminOnly: true },
      { method: 'POST', path: `/communication/templates/${id}/preview`, body: {}, otherStatus: 404 as const },
      { method: 'POST', path: `/communication/templates/${id}/test`, body: { email: 'a@b.test' }, otherStatus: 404 as const, adminOnly: true },
      { method: 'DELETE', path: `/communication/templates/${item.body.templateId}`, otherStatus: 404 as const, adminOnly: true },
    ])
      await checkSecurity(op, rc);

    expect((await del(`/communication/templates/${item.body.templateId}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/communication/templates/${item.body.templateId}`, { key: op.adminKey }), 404);
  });

  it("booking e-mails use the item's template, else the operator's, else the default, rendered at delivery", async () => {
    const shop = await createOperator();
    const plain = await rentalItem(shop);
    const special = await rentalItem(shop);
    const bookOn = async (itemId: string, day: number) => {
      const res = await book(shop, bookBody({ inventoryId: itemId, startTime: at(shop.timezone, day, '09:00'), endTime: at(shop.timezone, day, '11:00') }));
      expect(res.status, res.text).toBe(201);
      return res.body.rentalId as string;
    };
    // No template of its own yet: the default, final at once.
    const before = await bookOn(plain.id, 4);
    const [dflt] = await messagesOf(shop.customerId, 'booking.confirmation');
    expect(dflt).toMatchObject({ rental_id: before, status: 'sent' });
    expect(dflt.subject).toMatch(/^Your booking is confirmed/);

    expect((await create(shop, confirmation)).status).toBe(201);
    expect((await create(shop, { ...confirmation, itemId: special.id, subject: 'Special {{booking.itemName}} for {{renter.firstName}}' })).status).toBe(201);
    const cancelTpl = {
      key: 'booking_cancellation',
      subject: 'Cancelled: {{booking.reference}}',
      html: '<p>{{cancellation.reason}}</p>',
      text: 'Why: {{cancellation.reason}}',
    };
    expect((await create(shop, cancelTpl)).status).toBe(201);
    const a = await bookOn(plain.id, 5);
    const b = await bookOn(special.id, 5);
    expect((await post(`/coreBooking/${a}/cancel`, { reason: 'Storm warning' }, { key: shop.adminKey })).status).toBe(200);

    // Delivery renders them (the queue consumer, or the sweep a minute later).
    await runCron('*/5 * * * *', new Date(Date.now() + 60_000));
    const mails = await eventually(async () => {
      const all = [...(await messagesOf(shop.customerId, 'booking.confirmation')), ...(await messagesOf(shop.customerId, 'booking.cancelled'))];
      return all.every((m) => m.status === 'sent') && all.length === 4 ? all : undefined;
    });
    const of = (rentalId: string, template = 'booking.confirmation') => mails.find((m) => m.rental_id === rentalId && m.template === template)!;
    expect(of(before).subject).toBe(dflt.subject);
    expect(of(a).subject).toBe('Ahoy Rita: Pontoon 22 is yours');
    expect(of(a).body).toContain(`at Main dock. Ref ${a}`);
    expect(of(a).html).toContain('<p>See you on ');
    expect(JSON.parse(of(a).metadata!)).toMatchObject({ templateSource: 'operator', render: { key: 'booking_confirmation' } });
    expect(of(b).subject).toBe('Special Pontoon 22 for Rita');
    expect(JSON.parse(of(b).metadata!).templateSource).toBe('item');
    expect(of(a, 'booking.cancelled')).toMatchObject({ subject: `Cancelled: ${a}`, body: 'Why: Storm warning' });
  });
});
