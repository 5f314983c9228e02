/**
 * Slip documents for staff through HTTP: documents submitted in the tenant portal and after a public
 * booking, listed by location or reservation with filters, downloaded with the type read from the
 * content, reviewed (approve, reject; not before the file is there), removed with a deleted
 * reservation, and the shared security checks on every route.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, appHooks, del, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import documentsModule from '../../../src/modules/slip-documents/module';
import { day, makeSlip, marinaOperator, renter, reserve } from '../marina/helpers';
import { key, mailsTo } from '../marina/marina2-helpers';
import { pngBytes } from '../inventory/helpers';

const PDF = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n%%EOF\n');

async function portalDocument(op: { adminKey: string }, reservationId: string, email: string, bytes: Uint8Array, name: string, type: string) {
  await post('/slip-portal/invite', { reservationId }, { key: op.adminKey });
  const token = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(email, 'slip_portal.magic_link'))[0].body)![1];
  const session = (await post('/slip-portal/session', { token })).body.sessionToken as string;
  const fd = new FormData();
  fd.append('file', new File([bytes], name, { type: 'application/octet-stream' }));
  const up = await api('POST', '/slip-portal/upload', { token: session, rawBody: fd });
  expect(up.status, up.text).toBe(201);
  const doc = await post(`/slip-portal/reservations/${reservationId}/documents`, { uploadId: up.body.uploadId, type }, { token: session });
  expect(doc.status, doc.text).toBe(201);
  return doc.body;
}

describe('slip documents', () => {
  it('lists, downloads and reviews the documents renters submitted', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('docs') })).body;
    const ins = await portalDocument(op, r.id, r.renter.email, PDF, 'insurance.bin', 'insurance');
    const reg = await portalDocument(op, r.id, r.renter.email, pngBytes(2, 2), 'registration.heic', 'registration');
    // The type comes from the bytes, not from the name or the declared type.
    expect(ins).toMatchObject({ contentType: 'application/pdf', fileName: 'insurance.bin', status: 'submitted' });
    expect(reg.contentType).toBe('image/png');
    const byLocation = await get(`/slip-documents?locationId=${op.locationId}`, key(op));
    expect(byLocation.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect((await get(`/slip-documents?reservationId=${r.id}&type=insurance`, key(op))).body.data.map((d: any) => d.id)).toEqual([ins.id]);
    expectError(await get('/slip-documents', key(op)), 400, 'validation_failed');
    const file = await get(`/slip-documents/${ins.id}/file`, key(op));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(file.body)).toEqual(PDF);
    const approved = await post(`/slip-documents/${ins.id}/review`, { decision: 'approved' }, key(op));
    expect(approved.body).toMatchObject({ status: 'approved', reviewedBy: op.adminId });
    const rejected = await post(`/slip-documents/${reg.id}/review`, { decision: 'rejected', note: 'Expired registration' }, key(op));
    expect(rejected.body).toMatchObject({ status: 'rejected', reviewNote: 'Expired registration' });
    expect((await get(`/slip-documents?locationId=${op.locationId}&status=rejected`, key(op))).body.total).toBe(1);
    expect((await get(`/slip-documents/${reg.id}`, key(op))).body.status).toBe('rejected');
  });

  it('refuses a review before the file is uploaded and deletes documents with their reservation', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const c = { headers: { 'cf-connecting-ip': '203.0.113.201' } };
    const booked = await post(
      '/public/slips/book',
      {
        slipId: slip.id,
        rateType: 'nightly',
        arrivalDate: day(op, 20),
        departureDate: day(op, 22),
        boat: { vesselName: 'Doc', loaFt: 30 },
        renter: renter('pubdoc'),
      },
      c,
    );
    expect(booked.status, booked.text).toBe(201);
    const rid = booked.body.reservation.id;
    const meta = await api('POST', `/public/slips/reservations/${rid}/documents`, {
      headers: { ...c.headers, 'x-booking-token': booked.body.bookingToken },
      body: { type: 'insurance', fileName: 'p.pdf', contentType: 'application/pdf', sizeBytes: PDF.length },
    });
    expectError(await post(`/slip-documents/${meta.body.document.id}/review`, { decision: 'approved' }, key(op)), 409, 'invalid_state');
    expectError(await get(`/slip-documents/${meta.body.document.id}/file`, key(op)), 404, 'not_found');
    // A wrong size is refused; the right file goes through.
    const url = new URL(meta.body.upload.url);
    expectError(await api('PUT', `${url.pathname}${url.search}`, { ...c, rawBody: new Uint8Array([...PDF, 0x0a]) }), 400, 'upload_size_mismatch');
    expect((await api('PUT', `${url.pathname}${url.search}`, { ...c, rawBody: PDF })).status).toBe(200);
    expect((await post(`/slip-documents/${meta.body.document.id}/review`, { decision: 'approved' }, key(op))).status).toBe(200);
    // A cancelled reservation deleted for good takes its documents with it.
    await post(`/slip-reservations/${rid}/cancel`, { reason: 'test' }, key(op));
    expect((await del(`/slip-reservations/${rid}`, undefined, key(op))).status).toBe(200);
    expectError(await get(`/slip-documents/${meta.body.document.id}`, key(op)), 404, 'not_found');
  });

  it('gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('docsec') })).body;
    const d = await portalDocument(op, r.id, r.renter.email, PDF, 'i.pdf', 'insurance');
    for (const path of [`/slip-documents?locationId=${op.locationId}`, `/slip-documents/${d.id}`, `/slip-documents/${d.id}/file`])
      await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: `/slip-documents/${d.id}/review`, body: { decision: 'approved' }, otherStatus: 404, adminOnly: true });
  });
});

describe('stale upload purge on the clock', () => {
  it('purges an upload never attached a day after it was made on its clock, and only in its scope', async () => {
    const t0 = Date.parse('2027-02-01T15:00:00Z');
    const op = await marinaOperator(20, { clockAt: t0 });
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { renter: renter('stale') })).body;
    await post('/slip-portal/invite', { reservationId: r.id }, key(op));
    const token = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(r.renter.email, 'slip_portal.magic_link'))[0].body)![1];
    const session = (await post('/slip-portal/session', { token })).body.sessionToken as string;
    const fd = new FormData();
    fd.append('file', new File([PDF], 'left.pdf', { type: 'application/pdf' }));
    const up = await api('POST', '/slip-portal/upload', { token: session, rawBody: fd });
    expect(up.status, up.text).toBe(201);
    expect(up.body.createdAt).toBe(new Date(t0).toISOString());
    const job = documentsModule.jobs!.find((j) => j.name === 'slip-documents.purge_stale_uploads')!;
    const on = (ms: number) => systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(ms, op.clockId) });
    const due = t0 + 86_400_000;
    expect(await job.nextDue!(on(t0))).toBe(due);
    await job.run(systemCtx(env, { hooks: appHooks, clock: fixedClock(Date.parse('2030-01-01T00:00:00Z')) }));
    expect(await job.run(on(due - 1))).toEqual({ uploads: 0, announced: 0 });
    expect(await job.run(on(due))).toEqual({ uploads: 1, announced: 0 });
    expect(await job.nextDue!(on(due))).toBeNull();
  });
});
