/**
 * The renter's self-service besides cancelling: tips on completed bookings (stored card, one charge,
 * `payment.completed` through the payments service), document uploads (magic bytes, size and count
 * caps, R2), participants (party size, waivers, until check-in), masked stored cards and review
 * requests.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { api, createOperator, db, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { renters } from '../../../src/db/schema/bookings';
import { locations } from '../../../src/db/schema/locations';
import { payments } from '../../../src/adapters/payments';
import { eventsOf, HOUR } from '../bookings/factories';
import { makeBooking, makeItem, makeLocation } from '../schedule/factories';
import { ip, paidBooking, sessionToken } from './factories';

/**
 * A paid booking moved to completed by the operator (check-in, check-out). Two hours on the second
 * day from now at 10:00 local: a window starting from the clock could cross local midnight (priced
 * as two days), which made these tests fail in the evening.
 */
async function completedBooking(op: Operator, o: { paymentMethodId?: string } = {}) {
  const b = await paidBooking(op, o);
  expect((await post(`/coreBooking/${b.rentalId}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
  expect((await post(`/coreBooking/${b.rentalId}/check-out`, {}, { key: op.adminKey })).status).toBe(200);
  return b;
}

/** Gives the booking's renter a stored card at the payment provider (the simulator), as their default. */
async function storeCard(op: Operator, rentalId: string, paymentMethodId: string) {
  const booking = (await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body;
  const pay = payments(env);
  const { id } = await pay.createCustomer({ email: booking.customerInfo.email });
  await pay.attachPaymentMethod(id, paymentMethodId, { makeDefault: true });
  await db().update(renters).set({ paymentCustomerId: id }).where(eq(renters.id, booking.renterId));
  return id;
}

/** The smallest baseline JPEG (1x1): a valid signature image. */
const TINY_JPEG =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP////////////////////////////////////////////' +
  '//////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

const tip = (rentalId: string, body: unknown) => post(`/public/bookings/${rentalId}/tip`, body);

describe('POST /public/bookings/{rentalId}/tip', () => {
  it('charges the card that paid a completed booking once, adds the tip to the booking and fires payment.completed', async () => {
    const op = await createOperator();
    const { rentalId } = await completedBooking(op);
    const r = await tip(rentalId, { amount: 30, percentage: 15 });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ rentalId, amount: 30, currency: 'usd', status: 'paid', charged: true });
    expect(r.body.paymentIntentId).toEqual(expect.any(String));
    const booking = (await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body;
    expect(booking.pricing).toMatchObject({ tipTotal: 30, total: 230, amountPaid: 230, balanceDue: 0 });
    const paid = (await eventsOf(op.customerId, 'payment.completed')).map((e) => e.payload.data ?? e.payload).filter((d) => d.kind === 'tip');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ amountCents: 3000, rentalId, method: 'card', paymentIntentId: r.body.paymentIntentId });
    // Asking again answers the first tip and charges nothing.
    const again = await tip(rentalId, { amount: 50 });
    expect(again.body).toMatchObject({ amount: 30, charged: false, status: 'paid' });
    expect((await eventsOf(op.customerId, 'payment.completed')).filter((e) => (e.payload.data ?? e.payload).kind === 'tip')).toHaveLength(1);
  });

  it('charges once under parallel requests', async () => {
    const op = await createOperator();
    const { rentalId } = await completedBooking(op);
    const rs = await Promise.all(Array.from({ length: 6 }, () => tip(rentalId, { amount: 10 })));
    expect(rs.filter((r) => r.status === 200 && r.body.charged === true)).toHaveLength(1);
    for (const r of rs) expect([200, 409]).toContain(r.status);
    expect((await eventsOf(op.customerId, 'payment.completed')).filter((e) => (e.payload.data ?? e.payload).kind === 'tip')).toHaveLength(1);
    expect((await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body.pricing.tipTotal).toBe(10);
  });

  it("charges the renter's default stored card first, and a declined card answers 402 with nothing recorded (a retry is possible)", async () => {
    const op = await createOperator();
    const { rentalId } = await completedBooking(op);
    await storeCard(op, rentalId, 'pm_card_chargeDeclined');
    const declined = await tip(rentalId, { amount: 5 });
    expectError(declined, 402, 'payment_failed');
    expect((await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body.pricing.tipTotal).toBe(0);
    expect((await eventsOf(op.customerId, 'payment.completed')).filter((e) => (e.payload.data ?? e.payload).kind === 'tip')).toHaveLength(0);
    await storeCard(op, rentalId, 'pm_card_mastercard');
    const ok = await tip(rentalId, { amount: 5 });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.card).toEqual({ brand: 'mastercard', last4: '4444' });
  });

  it('refuses a booking that is not completed, one with no stored card, a wrong percentage and out-of-range amounts', async () => {
    const op = await createOperator();
    const open = await paidBooking(op);
    expectError(await tip(open.rentalId, { amount: 10 }), 400, 'booking_not_completed');
    const item = await makeItem(op);
    const noCard = await makeBooking(op, { item, start: Date.now() - 5 * HOUR, status: 'completed' });
    expectError(await tip(noCard.id, { amount: 10 }), 400, 'no_stored_card');
    const { rentalId } = await completedBooking(op);
    const wrong = await tip(rentalId, { amount: 25, percentage: 10 });
    expectError(wrong, 400, 'price_mismatch');
    expect(wrong.body.expectedAmount).toBe(20);
    expectError(await tip(rentalId, { amount: 0.1 }), 400);
    expectError(await tip(rentalId, {}), 400, 'validation_failed');
    expectError(await tip('bk_unknown_0000', { amount: 10 }), 404, 'not_found');
  });
});

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

function upload(
  rentalId: string,
  bytes: Uint8Array,
  o: { name?: string; type?: string; kind?: string; field?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.set(o.field ?? 'file', new File([bytes], o.name ?? 'policy.pdf', { type: o.type ?? 'application/pdf' }));
  if (o.kind) form.set('kind', o.kind);
  return api('POST', `/public/bookings/${rentalId}/documents`, { rawBody: form, headers: o.headers ?? ip() });
}

describe('POST /public/bookings/{rentalId}/documents', () => {
  it('stores a document in R2 with the type read from its bytes; the operator lists and downloads it', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const r = await upload(rentalId, PDF, { name: 'Boat insurance.pdf', kind: 'insurance' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId,
      kind: 'insurance',
      fileName: 'Boat insurance.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      documentsCount: 1,
      maxDocuments: 10,
    });
    // A PNG named .pdf and declared as PDF is stored as the PNG it is.
    const png = await upload(rentalId, PNG, { name: 'registration.pdf', type: 'application/pdf', kind: 'ownership' });
    expect(png.body).toMatchObject({ contentType: 'image/png', kind: 'ownership', documentsCount: 2 });
    const list = await get(`/coreBooking/${rentalId}/documents`, { key: op.adminKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ rentalId, total: 2, maxDocuments: 10 });
    expect(list.body.data.map((d: any) => d.documentId)).toEqual([r.body.documentId, png.body.documentId]);
    const file = await api('GET', `/coreBooking/${rentalId}/documents/${r.body.documentId}`, { key: op.adminKey });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="Boat insurance.pdf"');
    const stored = await env.FILES.list({ prefix: `${op.customerId}/bookings/${rentalId}/documents/` });
    expect(stored.objects).toHaveLength(2);
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/${rentalId}/documents`, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/${rentalId}/documents/${r.body.documentId}`, otherStatus: 404 });
  });

  it('refuses files that are not documents, empty or over 10 MB, a missing file field and a wrong kind', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    expectError(
      await upload(rentalId, new TextEncoder().encode('<html><script>alert(1)</script></html>'), { name: 'x.pdf' }),
      400,
      'unsupported_document_type',
    );
    expectError(await upload(rentalId, new Uint8Array(0)), 400, 'unsupported_document_type');
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set(PDF.subarray(0, 8));
    expectError(await upload(rentalId, big), 400, 'document_too_large');
    const missing = await api('POST', `/public/bookings/${rentalId}/documents`, { rawBody: new FormData(), headers: ip() });
    expectError(missing, 400, 'validation_failed');
    expectError(await upload(rentalId, PDF, { kind: 'passport' }), 400, 'validation_failed');
    const json = await api('POST', `/public/bookings/${rentalId}/documents`, { body: { file: 'x' }, headers: ip() });
    expect([400, 415]).toContain(json.status);
    expect((await get(`/coreBooking/${rentalId}/documents`, { key: op.adminKey })).body.total).toBe(0);
    expect((await env.FILES.list({ prefix: `${op.customerId}/bookings/${rentalId}/` })).objects).toHaveLength(0);
  });

  it('takes at most 10 documents per booking, even from parallel uploads, and none for a finished or unknown booking', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const rs = await Promise.all(Array.from({ length: 13 }, (_, i) => upload(rentalId, PDF, { name: `doc-${i}.pdf` })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 400, 'too_many_documents');
    expect((await get(`/coreBooking/${rentalId}/documents`, { key: op.adminKey })).body.total).toBe(10);
    expect((await env.FILES.list({ prefix: `${op.customerId}/bookings/${rentalId}/` })).objects).toHaveLength(10);
    const item = await makeItem(op);
    const past = await makeBooking(op, { item, start: Date.now() - 5 * HOUR, hours: 2 });
    expectError(await upload(past.id, PDF), 400, 'booking_finished');
    const cancelled = await makeBooking(op, { item, start: Date.now() + 50 * HOUR, status: 'cancelled' });
    expectError(await upload(cancelled.id, PDF), 400, 'booking_finished');
    expectError(await upload('bk_unknown_0000', PDF), 404, 'not_found');
  });

  it('limits uploads per client address (30 in 10 minutes)', { timeout: 60_000 }, async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const from = ip();
    const rs = [];
    for (let i = 0; i < 31; i++) rs.push(await upload('bk_unknown_0000', PDF, { headers: from }));
    expect(rs.slice(0, 30).every((r) => r.status === 404)).toBe(true);
    expectError(rs[30], 429, 'rate_limited');
    expect((await upload(rentalId, PDF)).status).toBe(200);
  });
});

describe('participants', () => {
  const as = (token: string) => ({ headers: { 'x-renter-token': token } });

  it('the renter adds, renames and removes participants up to the party size, each with a waiver status', async () => {
    const op = await createOperator();
    const { rentalId, transactionId } = await paidBooking(op, { participants: 3 });
    const token = await sessionToken(op, rentalId);
    const path = `/public/bookings/${rentalId}/participants`;
    expectError(await get(path), 401, 'renter_session_invalid');
    const empty = await get(path, as(token));
    expect(empty.body).toMatchObject({ rentalId, transactionId, status: 'confirmed', partySize: 3, editable: true, participants: [], spotsLeft: 3 });
    const a = await post(path, { firstName: 'Ana', lastName: 'Diaz', email: 'ana@renter.test' }, as(token));
    expect(a.status, a.text).toBe(201);
    await post(path, { firstName: 'Ben', lastName: 'Diaz' }, as(token));
    const c = await post(path, { firstName: 'Cy', lastName: 'Diaz', dob: '2015-04-01' }, as(token));
    expect(c.body).toMatchObject({ spotsLeft: 0, waiversSigned: 0 });
    expect(c.body.participants.map((p: any) => [p.firstName, p.waiver.status])).toEqual([
      ['Ana', 'missing'],
      ['Ben', 'missing'],
      ['Cy', 'missing'],
    ]);
    const full = await post(path, { firstName: 'Dee', lastName: 'Diaz' }, as(token));
    expectError(full, 409, 'party_full');
    expect(full.body.partySize).toBe(3);

    // A waiver signed by Ana, linked to her; renaming her unlinks it; Ben cannot use Ana's waiver.
    const template = await post(
      '/inHouseWaiver/waiver/template',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        title: 'Rental waiver',
        sections: [
          { type: 'checkbox', id: 'ack', label: 'I accept the risks' },
          { type: 'signature', id: 'sig', label: 'Signature' },
        ],
      },
      { key: op.adminKey },
    );
    expect(template.status, template.text).toBe(201);
    const signed = await post('/inHouseWaiver/waiver/sign', {
      templateId: template.body.templateId,
      firstName: 'Ana',
      lastName: 'Diaz',
      userEmail: 'ana@renter.test',
      formData: { ack: true, sig: TINY_JPEG },
    });
    expect(signed.status, signed.text).toBe(201);
    const [ana, ben] = c.body.participants;
    const linked = await post(`${path}/${ana.participantId}/waiver`, { signatureId: signed.body.signatureId }, as(token));
    expect(linked.status, linked.text).toBe(200);
    expect(linked.body.participants[0].waiver).toMatchObject({ status: 'signed', signatureId: signed.body.signatureId });
    expect(linked.body.waiversSigned).toBe(1);
    expectError(await post(`${path}/${ben.participantId}/waiver`, { signatureId: signed.body.signatureId }, as(token)), 400, 'waiver_mismatch');
    const renamed = await patch(`${path}/${ana.participantId}`, { firstName: 'Anna' }, as(token));
    expect(renamed.body.participants[0]).toMatchObject({ firstName: 'Anna', waiver: { status: 'missing' } });
    const removed = await api('DELETE', `${path}/${ben.participantId}`, as(token));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toMatchObject({ spotsLeft: 1 });
    expectError(await api('DELETE', `${path}/${ben.participantId}`, as(token)), 404, 'not_found');

    // The operator sees the same list; another operator gets 404.
    const seen = await get(`/coreBooking/${rentalId}/participants`, { key: op.adminKey });
    expect(seen.body.participants.map((p: any) => p.firstName)).toEqual(['Anna', 'Cy']);
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/${rentalId}/participants`, otherStatus: 404 });

    // After check-in nothing changes any more.
    expect((await post(`/coreBooking/${rentalId}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
    expectError(await post(path, { firstName: 'Eve', lastName: 'Diaz' }, as(token)), 409, 'invalid_state');
    expectError(await patch(`${path}/${ana.participantId}`, { firstName: 'Ana' }, as(token)), 409, 'invalid_state');
    expectError(await api('DELETE', `${path}/${ana.participantId}`, as(token)), 409, 'invalid_state');
  });

  it('parallel additions never exceed the party size; the party defaults to the capacity per unit booked', async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op, { participants: 2 });
    const token = await sessionToken(op, rentalId);
    const rs = await Promise.all(
      Array.from({ length: 7 }, (_, i) => post(`/public/bookings/${rentalId}/participants`, { firstName: `P${i}`, lastName: 'Race' }, as(token))),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 409, 'party_full');
    expect((await get(`/coreBooking/${rentalId}/participants`, { key: op.adminKey })).body.participants).toHaveLength(2);
    const plain = await paidBooking(op);
    expect((await get(`/coreBooking/${plain.rentalId}/participants`, { key: op.adminKey })).body.partySize).toBe(8);
  });

  it("a session of another order is refused; a booking's signed waivers count for participants of that name", async () => {
    const op = await createOperator();
    const item = await makeItem(op);
    const b = await makeBooking(op, {
      item,
      start: Date.now() + 50 * HOUR,
      customerInfo: { firstName: 'Rita', lastName: 'Renter', email: `rita-${Date.now()}@renter.test` },
      extendedData: { signedWaivers: [{ signatureId: 'sig_from_widget', signerName: 'Rita Renter', signedAt: '2026-01-01T00:00:00.000Z' }] },
    });
    const token = await sessionToken(op, b.id);
    const added = await post(`/public/bookings/${b.id}/participants`, { firstName: 'rita', lastName: ' renter ' }, as(token));
    expect(added.body.participants[0].waiver).toEqual({ status: 'signed', signatureId: 'sig_from_widget', signedAt: '2026-01-01T00:00:00.000Z' });
    const other = await paidBooking(op);
    expectError(await get(`/public/bookings/${other.rentalId}/participants`, as(token)), 401, 'renter_session_invalid');
  });
});

describe('GET /public/payment-methods', () => {
  it("answers a renter's stored cards masked, and an empty list for any other id", async () => {
    const op = await createOperator();
    const { rentalId } = await paidBooking(op);
    const cus = await storeCard(op, rentalId, 'pm_card_visa');
    await payments(env).attachPaymentMethod(cus, 'pm_card_amex', { makeDefault: false });
    const r = await get(`/public/payment-methods?stripeCustomerId=${cus}`, { headers: ip() });
    expect(r.status, r.text).toBe(200);
    expect(r.body.stripeCustomerId).toBe(cus);
    expect(r.body.data.map((m: any) => [m.brand, m.last4, m.isDefault]).sort()).toEqual([
      ['amex', '8431', false],
      ['visa', '4242', true],
    ]);
    for (const m of r.body.data) expect(Object.keys(m).sort()).toEqual(['brand', 'expMonth', 'expYear', 'isDefault', 'last4', 'type']);
    expect(r.text).not.toMatch(/pm_sim|pm_card/);
    // A provider customer that is no renter's (an operator's billing customer, say) and an unknown id: an empty list.
    const { id: billing } = await payments(env).createCustomer({ email: 'billing@operator.test' });
    await payments(env).attachPaymentMethod(billing, 'pm_card_visa');
    expect((await get(`/public/payment-methods?stripeCustomerId=${billing}`, { headers: ip() })).body.data).toEqual([]);
    expect((await get('/public/payment-methods?stripeCustomerId=cus_nobody', { headers: ip() })).body.data).toEqual([]);
    expectError(await get('/public/payment-methods', { headers: ip() }), 400, 'validation_failed');
  });
});

describe('POST /public/locations/{locationId}/reviews', () => {
  async function withReviews() {
    const op = await createOperator();
    const second = await makeLocation(op);
    const r = await patch(
      '/customer',
      {
        integrations: {
          reviewConnections: {
            google: { url: 'https://g.page/r/demo-marina/review' },
            tripadvisor: { url: 'https://www.tripadvisor.com/demo', locationIds: [second] },
          },
        },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    return { op, second };
  }

  it("answers the location's review links and e-mails a completed booking's renter once", async () => {
    const { op } = await withReviews();
    const path = `/public/locations/${op.locationId}/reviews`;
    const links = await post(path, { reviewConnections: ['Google'] });
    expect(links.status, links.text).toBe(200);
    expect(links.body).toEqual({ locationId: op.locationId, connections: [{ name: 'google', url: 'https://g.page/r/demo-marina/review' }], request: null });
    // tripadvisor is configured for the other location only.
    const unknown = await post(path, { reviewConnections: ['google', 'tripadvisor'] });
    expectError(unknown, 400, 'unknown_review_platform');
    expect(unknown.body.message).toContain('configured: google');
    const { rentalId, email: to } = await completedBooking(op);
    const rs = await Promise.all([post(path, { reviewConnections: ['google'], rentalId }), post(path, { reviewConnections: ['google'], rentalId })]);
    expect(rs.map((r) => r.status)).toEqual([200, 200]);
    expect(rs.map((r) => r.body.request.status).sort()).toEqual(['already_sent', 'sent']);
    const mails = await env.DB.prepare(`SELECT "to", body FROM message_outbox WHERE customer_id = ? AND template = 'review.request'`)
      .bind(op.customerId)
      .all<{ to: string; body: string }>();
    expect(mails.results).toHaveLength(1);
    expect(mails.results[0].to).toBe(to);
    expect(mails.results[0].body).toContain('https://g.page/r/demo-marina/review');
  });

  it('refuses open bookings, bookings at another location, unknown locations and locations with no platforms', async () => {
    const { op, second } = await withReviews();
    const open = await paidBooking(op);
    expectError(
      await post(`/public/locations/${op.locationId}/reviews`, { reviewConnections: ['google'], rentalId: open.rentalId }),
      400,
      'booking_not_completed',
    );
    expectError(await post(`/public/locations/${second}/reviews`, { reviewConnections: ['google'], rentalId: open.rentalId }), 404, 'not_found');
    expectError(await post('/public/locations/loc_unknown_0000/reviews', { reviewConnections: ['google'] }), 404, 'not_found');
    expectError(await post(`/public/locations/${op.locationId}/reviews`, {}), 400, 'validation_failed');
    const bare = await createOperator();
    expectError(await post(`/public/locations/${bare.locationId}/reviews`, { reviewConnections: ['google'] }), 400, 'unknown_review_platform');
    // A location's own review links win over the account's.
    await db()
      .update(locations)
      .set({ details: { reviewConnections: { google: { url: 'https://g.page/r/second-dock' } } } })
      .where(eq(locations.id, second));
    const own = await post(`/public/locations/${second}/reviews`, { reviewConnections: ['google', 'tripadvisor'] });
    expect(own.body.connections).toEqual([
      { name: 'google', url: 'https://g.page/r/second-dock' },
      { name: 'tripadvisor', url: 'https://www.tripadvisor.com/demo' },
    ]);
  });
});
