/**
 * The slip tenant portal through HTTP: magic links (single use, also when used twice at once, no
 * account discovery), tenant sessions and sign-out, isolation between two tenants on every
 * reservation route, vessel, contract view and signature, documents (sniffed uploads), messages,
 * cards and payments through the payments service (events, declines, intents recorded once,
 * idempotency keys), guest passes, haul services, and the shared security checks.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, BASE, del, expectError, get, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { boat, day, makeSlip, marinaOperator, renter, reserve, setClock } from '../marina/helpers';
import { eventsOf, key, mailsTo } from '../marina/marina2-helpers';

const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const tenant = (token: string) => ({ token });

/** A link e-mailed by staff to the reservation's renter, exchanged for a session. */
async function signIn(op: Operator, reservationId: string, email: string) {
  const inv = await post('/slip-portal/invite', { reservationId }, key(op));
  expect(inv.status, inv.text).toBe(200);
  const token = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(email, 'slip_portal.magic_link'))[0].body)![1];
  const s = await post('/slip-portal/session', { token });
  expect(s.status, s.text).toBe(201);
  return s.body.sessionToken as string;
}

function uploadForm(bytes: Uint8Array, name = 'policy.pdf', type = 'application/pdf') {
  const fd = new FormData();
  fd.append('file', new File([bytes], name, { type }));
  return fd;
}

describe('slip tenant portal', () => {
  it('signs in with a single-use magic link and keeps each tenant to their own reservations', async () => {
    const op = await marinaOperator();
    const [s1, s2] = [await makeSlip(op), await makeSlip(op)];
    const a = (await reserve(op, s1.id, { renter: renter('alice') })).body;
    const b = (await reserve(op, s2.id, { renter: renter('bob') })).body;

    // Requested by the tenant: the same answer whether or not the e-mail is a tenant's.
    const asked = await post('/slip-portal/magic-link', { email: a.renter.email, locationId: op.locationId });
    const unknown = await post('/slip-portal/magic-link', { email: 'nobody@example.test', locationId: op.locationId });
    expect(asked.status, asked.text).toBe(200);
    expect(unknown.body).toEqual(asked.body);
    expect(await mailsTo('nobody@example.test')).toHaveLength(0);
    expectError(await post('/slip-portal/magic-link', { email: a.renter.email, locationId: 'loc_nothing' }), 404, 'not_found');
    const link = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(a.renter.email, 'slip_portal.magic_link'))[0].body)![1];
    // The link opens the tenant portal page on the origin the request came to (no fixed development port).
    expect((await mailsTo(a.renter.email, 'slip_portal.magic_link'))[0].body).toContain(`${BASE}/slip-portal?token=${link}`);
    // Used twice at once: one session.
    const both = await Promise.all([post('/slip-portal/session', { token: link }), post('/slip-portal/session', { token: link })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 410]);
    expectError(await post('/slip-portal/session', { token: link }), 410, 'expired');
    expectError(await post('/slip-portal/session', { token: 'spl_unknown_token_0000000000' }), 404, 'not_found');
    const alice = both.find((r) => r.status === 201)!.body.sessionToken as string;
    // An expired link is refused too.
    const bobToken = await signIn(op, b.id, b.renter.email);
    await post('/slip-portal/invite', { reservationId: b.id }, key(op));
    const stale = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(b.renter.email, 'slip_portal.magic_link'))[0].body)![1];
    await env.DB.prepare('UPDATE slip_portal_links SET expires_at = ? WHERE renter_id = ? AND used_at IS NULL')
      .bind(Date.now() - 1000, b.renterId)
      .run();
    expectError(await post('/slip-portal/session', { token: stale }), 410, 'expired');

    const session = await get('/slip-portal/session', tenant(alice));
    expect(session.status, session.text).toBe(200);
    expect(session.body).toMatchObject({ customerId: op.customerId, renter: { id: a.renterId, email: a.renter.email }, reservations: 1 });
    const mine = await get('/slip-portal/reservations', tenant(alice));
    expect(mine.body).toMatchObject({ total: 1, data: [{ id: a.id }] });
    expect((await get('/slip-portal/reservations', tenant(bobToken))).body.data.map((r: any) => r.id)).toEqual([b.id]);
    const detail = await get(`/slip-portal/reservations/${a.id}`, tenant(alice));
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body).toMatchObject({
      id: a.id,
      payments: [],
      guestPasses: [],
      documents: {
        requirements: [
          { type: 'insurance', status: 'missing' },
          { type: 'registration', status: 'missing' },
        ],
      },
    });

    // Every reservation route answers 404 for the other tenant's reservation.
    const other = [
      ['GET', `/slip-portal/reservations/${b.id}`, undefined],
      ['PUT', `/slip-portal/reservations/${b.id}/vessel`, { registration: 'X' }],
      ['GET', `/slip-portal/reservations/${b.id}/contract`, undefined],
      ['POST', `/slip-portal/reservations/${b.id}/contract/sign`, { signerName: 'A', signature: 'A', agreed: true }],
      ['GET', `/slip-portal/reservations/${b.id}/documents`, undefined],
      ['POST', `/slip-portal/reservations/${b.id}/documents`, { uploadId: 'supl_x', type: 'insurance' }],
      ['GET', `/slip-portal/reservations/${b.id}/messages`, undefined],
      ['POST', `/slip-portal/reservations/${b.id}/messages`, { body: 'hi' }],
      ['POST', `/slip-portal/reservations/${b.id}/pay`, { amountCents: 100, paymentMethodId: 'pm_card_visa' }],
      ['POST', `/slip-portal/reservations/${b.id}/create-payment-intent`, {}],
      ['GET', `/slip-portal/reservations/${b.id}/guest-access`, undefined],
      ['POST', `/slip-portal/reservations/${b.id}/guest-access`, { guestName: 'G' }],
      ['DELETE', `/slip-portal/reservations/${b.id}/guest-access/sgp_x`, undefined],
      ['GET', `/slip-portal/reservations/${b.id}/haul-services`, undefined],
      ['POST', `/slip-portal/reservations/${b.id}/haul-services`, { serviceType: 'haul_out', requestedDate: day(op, 3) }],
      ['POST', `/slip-portal/reservations/${b.id}/haul-services/haul_x/cancel`, {}],
      ['POST', `/slip-portal/reservations/${b.id}/haul-services/haul_x/confirm`, {}],
    ] as const;
    for (const [method, path, body] of other) expectError(await api(method, path, { token: alice, body }), 404, 'not_found');
    // Nothing was written to Bob's reservation.
    expect((await get(`/slip-reservations/${b.id}/messages`, key(op))).body.total).toBe(0);

    // Signing out ends the session at once; staff credentials are no tenant session.
    expect((await del('/slip-portal/session', undefined, tenant(alice))).body).toEqual({ signedOut: true });
    expectError(await get('/slip-portal/reservations', tenant(alice)), 401, 'unauthenticated');
    expectError(await get('/slip-portal/reservations', key(op)), 401, 'unauthenticated');
  });

  it('lets the tenant update the vessel, sign the contract, submit documents and write to the marina', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op, { lengthFt: 30, maxLoaFt: 40, widthFt: 14, depthFt: 8 });
    const r = (await reserve(op, slip.id, { renter: renter('vessel') })).body;
    const t = await signIn(op, r.id, r.renter.email);
    const v = await put(`/slip-portal/reservations/${r.id}/vessel`, { registration: 'FL1234AB', make: 'Catalina' }, tenant(t));
    expect(v.status, v.text).toBe(200);
    expect(v.body.boat).toMatchObject({ registration: 'FL1234AB', make: 'Catalina', loaFt: 30 });
    expect(v.body.totalCents).toBe(r.totalCents);
    expectError(await put(`/slip-portal/reservations/${r.id}/vessel`, { loaFt: 60 }, tenant(t)), 409, 'slip_does_not_fit');
    // 36 ft instead of 30 on a 30 ft slip: 6 ft more at 350 cents a night for 3 nights.
    const longer = await put(`/slip-portal/reservations/${r.id}/vessel`, { loaFt: 36 }, tenant(t));
    expect(longer.body.totalCents - r.totalCents).toBe(6 * 350 * 3);

    // Contract: none sent yet, then sent by staff, viewed, downloaded and signed.
    expectError(await get(`/slip-portal/reservations/${r.id}/contract`, tenant(t)), 404, 'not_found');
    await post(
      '/slip-contracts/templates',
      { name: 'Std', title: 'Agreement', body: 'Between {{marina.name}} and {{renter.fullName}}', isDefault: true },
      key(op),
    );
    const g = await post('/slip-contracts/generate', { reservationId: r.id }, key(op));
    expectError(await get(`/slip-portal/reservations/${r.id}/contract`, tenant(t)), 404, 'not_found');
    await post('/slip-contracts/send', { contractId: g.body.id }, key(op));
    const c = await get(`/slip-portal/reservations/${r.id}/contract`, tenant(t));
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ id: g.body.id, status: 'sent', signedAt: null });
    const pdf = await get(c.body.pdfUrl, tenant(t));
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const signed = await post(
      `/slip-portal/reservations/${r.id}/contract/sign`,
      { signerName: 'Søren Ødegård', signature: 'Søren Ødegård', agreed: true },
      tenant(t),
    );
    expect(signed.status, signed.text).toBe(200);
    expect(signed.body).toMatchObject({ status: 'signed', signerName: 'Søren Ødegård' });
    expect((await get(`/slip-reservations/${r.id}`, key(op))).body.contract.status).toBe('signed');
    expectError(
      await post(`/slip-portal/reservations/${r.id}/contract/sign`, { signerName: 'X', signature: 'X', agreed: true }, tenant(t)),
      409,
      'invalid_state',
    );

    // Documents: the type is read from the bytes; an upload is attached once.
    expectError(
      await api('POST', '/slip-portal/upload', { token: t, rawBody: uploadForm(new TextEncoder().encode('plain text'), 'x.pdf') }),
      400,
      'document_type_not_accepted',
    );
    const up = await api('POST', '/slip-portal/upload', { token: t, rawBody: uploadForm(PDF) });
    expect(up.status, up.text).toBe(201);
    expect(up.body).toMatchObject({ contentType: 'application/pdf', sizeBytes: PDF.length });
    const doc = await post(
      `/slip-portal/reservations/${r.id}/documents`,
      { uploadId: up.body.uploadId, type: 'Insurance', expiresOn: day(op, 300) },
      tenant(t),
    );
    expect(doc.status, doc.text).toBe(201);
    expect(doc.body).toMatchObject({ type: 'insurance', status: 'submitted', uploadedVia: 'portal' });
    expectError(
      await post(`/slip-portal/reservations/${r.id}/documents`, { uploadId: up.body.uploadId, type: 'registration' }, tenant(t)),
      409,
      'invalid_state',
    );
    const docs = await get(`/slip-portal/reservations/${r.id}/documents`, tenant(t));
    expect(docs.body.requirements).toEqual([
      { type: 'insurance', status: 'submitted', documentId: doc.body.id, expiresOn: day(op, 300) },
      { type: 'registration', status: 'missing', documentId: null, expiresOn: null },
    ]);
    // Staff see it on the reservation and review it; the tenant sees the review.
    expect((await get(`/slip-reservations/${r.id}`, key(op))).body.documents.map((d: any) => d.id)).toEqual([doc.body.id]);
    expect((await get(`/slip-documents/${doc.body.id}/file`, key(op))).headers.get('content-type')).toBe('application/pdf');
    await post(`/slip-documents/${doc.body.id}/review`, { decision: 'approved', note: 'Thanks' }, key(op));
    expect((await get(`/slip-portal/reservations/${r.id}/documents`, tenant(t))).body.requirements[0].status).toBe('approved');

    // Messages: the tenant's message reaches the staff thread; staff notes stay internal.
    const m = await post(`/slip-portal/reservations/${r.id}/messages`, { subject: 'Arrival', body: 'We arrive after 6 pm.' }, tenant(t));
    expect(m.status, m.text).toBe(201);
    expect(m.body).toMatchObject({ direction: 'inbound', channel: 'portal' });
    await post(`/slip-reservations/${r.id}/messages`, { channel: 'note', body: 'VIP, give the end tie' }, key(op));
    expect((await get(`/slip-reservations/${r.id}/messages`, key(op))).body.data.map((x: any) => x.channel).sort()).toEqual(['note', 'portal']);
    expect((await get(`/slip-portal/reservations/${r.id}/messages`, tenant(t))).body.data.map((x: any) => x.channel)).toEqual(['portal']);
  });

  it('pays through the payments service: saved cards, declines, card-element intents recorded once, idempotent retries', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('payer') })).body;
    const t = await signIn(op, r.id, r.renter.email);
    expect((await get('/slip-portal/payment-methods', tenant(t))).body).toEqual({ data: [] });
    const si = await post('/slip-portal/setup-intent', {}, tenant(t));
    expect(si.status, si.text).toBe(201);
    expect(si.body.clientSecret).toBeTruthy();
    const saved = await post('/slip-portal/setup-intent', { paymentMethodId: 'pm_card_visa' }, tenant(t));
    expect(saved.body.paymentMethod).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    expect((await get('/slip-portal/payment-methods', tenant(t))).body.data).toHaveLength(1);

    const idem = { token: t, headers: { 'idempotency-key': `pay-${r.id}` } };
    const paid = await api('POST', `/slip-portal/reservations/${r.id}/pay`, { ...idem, body: { amountCents: 5000 } });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'succeeded', payment: { amountCents: 5000, method: 'card', card: { brand: 'visa', last4: '4242' } } });
    const replay = await api('POST', `/slip-portal/reservations/${r.id}/pay`, { ...idem, body: { amountCents: 5000 } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.payment.id).toBe(paid.body.payment.id);
    const completed = await eventsOf(op.customerId, 'payment.completed');
    expect(completed.map((e) => [e.data.kind, e.data.amountCents, e.data.reservationId])).toEqual([['slip_payment', 5000, r.id]]);
    expectError(
      await post(`/slip-portal/reservations/${r.id}/pay`, { amountCents: 1000, paymentMethodId: 'pm_card_chargeDeclined' }, tenant(t)),
      402,
      'payment_failed',
    );
    expectError(await post(`/slip-portal/reservations/${r.id}/pay`, { amountCents: r.totalCents }, tenant(t)), 400);

    // The card element: an intent confirmed by the page, recorded once whoever records it twice.
    const intent = await post(`/slip-portal/reservations/${r.id}/create-payment-intent`, { amountCents: 2500 }, tenant(t));
    expect(intent.status, intent.text).toBe(201);
    expect(intent.body).toMatchObject({ amountCents: 2500, status: 'requires_payment_method' });
    const rec = await Promise.all([
      post(`/slip-portal/reservations/${r.id}/pay`, { paymentIntentId: intent.body.paymentIntentId, paymentMethodId: 'pm_card_visa' }, tenant(t)),
      post(`/slip-portal/reservations/${r.id}/pay`, { paymentIntentId: intent.body.paymentIntentId, paymentMethodId: 'pm_card_visa' }, tenant(t)),
    ]);
    const okRec = rec.filter((x) => x.status === 200);
    expect(okRec.length).toBeGreaterThanOrEqual(1);
    expect(new Set(okRec.map((x) => x.body.payment.id)).size).toBe(1);
    const history = await get(`/slip-reservations/${r.id}/payments`, key(op));
    expect(history.body.data.map((p: any) => p.amountCents).sort()).toEqual([2500, 5000]);
    expect((await get(`/slip-portal/reservations/${r.id}`, tenant(t))).body.balanceCents).toBe(r.totalCents - 7500);
    expect((await eventsOf(op.customerId, 'payment.completed')).map((e) => e.data.amountCents).sort()).toEqual([2500, 5000]);
  });

  it('adds and revokes guest passes and requests, confirms and cancels haul services', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('guests'), arrivalDate: day(op, 0), departureDate: day(op, 6) })).body;
    const other = (await reserve(op, await makeSlip(op).then((s) => s.id), { renter: renter('else') })).body;
    const t = await signIn(op, r.id, r.renter.email);
    const p = await post(`/slip-portal/reservations/${r.id}/guest-access`, { guestName: 'Gus Guest', guestEmail: 'gus@example.test' }, tenant(t));
    expect(p.status, p.text).toBe(201);
    expect(p.body).toMatchObject({ status: 'active', createdVia: 'tenant', reservationId: r.id });
    expect((await get(`/slip-portal/reservations/${r.id}/guest-access`, tenant(t))).body.total).toBe(1);
    const staffPass = (await post('/slips/guest-access', { reservationId: other.id, guestName: 'Other' }, key(op))).body;
    expectError(await del(`/slip-portal/reservations/${r.id}/guest-access/${staffPass.id}`, undefined, tenant(t)), 404, 'not_found');
    const revoked = await del(`/slip-portal/reservations/${r.id}/guest-access/${p.body.id}`, undefined, tenant(t));
    expect(revoked.body).toMatchObject({ status: 'revoked', revokedReason: 'revoked_by_renter' });
    expect((await get(`/slips/guest-access/verify/${p.body.accessCode}`, key(op))).body.result).toBe('revoked');

    const h = await post(
      `/slip-portal/reservations/${r.id}/haul-services`,
      { serviceType: 'haul_out', requestedDate: day(op, 2), notes: 'Prop check' },
      tenant(t),
    );
    expect(h.status, h.text).toBe(201);
    expect(h.body).toMatchObject({ status: 'requested', requestedVia: 'portal', reservationId: r.id, photoCount: 0 });
    expect(h.body.staffNotes).toBeUndefined();
    expectError(await post(`/slip-portal/reservations/${r.id}/haul-services/${h.body.id}/confirm`, {}, tenant(t)), 409, 'invalid_state');
    await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: day(op, 2), staffNotes: 'internal' }, key(op));
    const confirmed = await post(`/slip-portal/reservations/${r.id}/haul-services/${h.body.id}/confirm`, {}, tenant(t));
    expect(confirmed.body).toMatchObject({ status: 'confirmed' });
    expect((await get(`/haul-services/${h.body.id}`, key(op))).body.confirmedBy).toBe(`renter:${r.renterId}`);
    const second = await post(`/slip-portal/reservations/${r.id}/haul-services`, { serviceType: 'launch', requestedDate: day(op, 4) }, tenant(t));
    const cancelled = await post(`/slip-portal/reservations/${r.id}/haul-services/${second.body.id}/cancel`, { reason: 'Changed plans' }, tenant(t));
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelReason: 'Changed plans' });
    const list = await get(`/slip-portal/reservations/${r.id}/haul-services`, tenant(t));
    expect(list.body.total).toBe(2);
    expect(list.body.data.every((x: any) => x.staffNotes === undefined)).toBe(true);
    expectError(
      await post(`/slip-portal/reservations/${r.id}/haul-services`, { serviceType: 'haul_out', requestedDate: day(op, -1) }, tenant(t)),
      400,
      'in_the_past',
    );
  });

  it('gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('sec'), boat: boat() })).body;
    await checkSecurity(op, { method: 'POST', path: '/slip-portal/invite', body: { reservationId: r.id }, otherStatus: 404, adminOnly: true });
    const id = r.id;
    const routes: [string, string, unknown][] = [
      ['GET', '/slip-portal/session', undefined],
      ['DELETE', '/slip-portal/session', undefined],
      ['GET', '/slip-portal/reservations', undefined],
      ['GET', `/slip-portal/reservations/${id}`, undefined],
      ['PUT', `/slip-portal/reservations/${id}/vessel`, { registration: 'X' }],
      ['GET', `/slip-portal/reservations/${id}/contract`, undefined],
      ['POST', `/slip-portal/reservations/${id}/contract/sign`, { signerName: 'A', signature: 'A', agreed: true }],
      ['GET', `/slip-portal/reservations/${id}/documents`, undefined],
      ['POST', `/slip-portal/reservations/${id}/documents`, { uploadId: 'supl_x', type: 'insurance' }],
      ['POST', '/slip-portal/upload', {}],
      ['GET', `/slip-portal/reservations/${id}/messages`, undefined],
      ['POST', `/slip-portal/reservations/${id}/messages`, { body: 'hi' }],
      ['GET', '/slip-portal/payment-methods', undefined],
      ['POST', '/slip-portal/setup-intent', {}],
      ['POST', `/slip-portal/reservations/${id}/pay`, {}],
      ['POST', `/slip-portal/reservations/${id}/create-payment-intent`, {}],
      ['GET', `/slip-portal/reservations/${id}/guest-access`, undefined],
      ['POST', `/slip-portal/reservations/${id}/guest-access`, { guestName: 'G' }],
      ['DELETE', `/slip-portal/reservations/${id}/guest-access/sgp_x`, undefined],
      ['GET', `/slip-portal/reservations/${id}/haul-services`, undefined],
      ['POST', `/slip-portal/reservations/${id}/haul-services`, { serviceType: 'launch', requestedDate: day(op, 2) }],
      ['POST', `/slip-portal/reservations/${id}/haul-services/haul_x/cancel`, {}],
      ['POST', `/slip-portal/reservations/${id}/haul-services/haul_x/confirm`, {}],
    ];
    // No session, or operator credentials instead of a tenant session: 401 (another tenant: 404, tested above).
    for (const [method, path, body] of routes) {
      await checkSecurity(op, { method, path, body });
      expectError(await api(method, path, { key: op.adminKey, body }), 401, 'unauthenticated');
      expectError(await api(method, path, { token: 'sps_not_a_real_session_000000000000', body }), 401, 'unauthenticated');
    }
  });
});

describe('slip tenant portal on the marina clock', () => {
  it("a tenant's session and their haul requests run on the marina's clock", async () => {
    const t0 = Date.parse('2027-06-15T15:00:00Z');
    const op = await marinaOperator(20, { clockAt: t0 });
    const slip = await makeSlip(op);
    const who = renter('clock');
    const r = (await reserve(op, slip.id, { renter: who })).body;
    expect((await post('/slip-portal/invite', { reservationId: r.id }, key(op))).body.linkExpiresAt).toBe(new Date(t0 + 20 * 60_000).toISOString());
    const link = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(who.email, 'slip_portal.magic_link'))[0].body)![1];
    const s = await post('/slip-portal/session', { token: link });
    expect(s.status, s.text).toBe(201);
    expect(s.body.expiresAt).toBe(new Date(t0 + 12 * 3_600_000).toISOString());
    const t = s.body.sessionToken as string;
    // 14 June is past on the marina's clock (though ahead in real time).
    expectError(
      await post(`/slip-portal/reservations/${r.id}/haul-services`, { serviceType: 'haul_out', requestedDate: '2027-06-14' }, tenant(t)),
      400,
      'in_the_past',
    );
    const h = await post(`/slip-portal/reservations/${r.id}/haul-services`, { serviceType: 'haul_out', requestedDate: '2027-06-15' }, tenant(t));
    expect(h.status, h.text).toBe(201);
    // Thirteen hours later on that clock the session has ended.
    await setClock(op, t0 + 13 * 3_600_000);
    expectError(await get('/slip-portal/session', tenant(t)), 401, 'unauthenticated');
  });
});
