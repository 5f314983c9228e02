/**
 * Slip contracts: templates, generated PDFs that load back with pdf-lib and print non-Latin names
 * with the embedded font, signing with the signature record, the waiver PDFs' Unicode text.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { PDFDocument, PDFArray, PDFRawStream, decodePDFRawStream, type PDFPage } from 'pdf-lib';
import { api, expectError, get, post, put } from '../../harness';
import { glyphHexOf } from '../../../src/lib/pdf-unicode';
import { buildWaiverPdf } from '../../../src/modules/waivers/pdf';
import { makeSlip, marinaOperator, reserve } from './helpers';

const key = (op: { adminKey: string }) => ({ key: op.adminKey });

/** The decoded content streams of a page (text is drawn as hex glyph ids of the embedded font). */
function pageText(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
  return streams.map((s) => new TextDecoder().decode(decodePDFRawStream(s as PDFRawStream).decode())).join('\n');
}

async function pdfOf(op: { adminKey: string }, id: string) {
  const r = await get(`/slip-contracts/${id}/pdf`, key(op));
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/pdf');
  return r.body as Uint8Array;
}

describe('slip contract templates', () => {
  it('create with variables, unknown variables refused, duplicate with defaults, update, delete, list', async () => {
    const op = await marinaOperator();
    const vars = await get('/slip-contracts/templates/variables', key(op));
    expect(vars.body.data.map((v: any) => v.name)).toContain('renter.fullName');
    expectError(await post('/slip-contracts/templates', { name: 'x', title: 'T', body: 'Hello {{nobody.knows}}' }, key(op)), 400, 'validation_failed');
    const t = await post(
      '/slip-contracts/templates',
      {
        name: 'Seasonal',
        title: 'Agreement {{reservation.number}}',
        body: 'Minimum insurance {{insurance}}',
        defaults: { insurance: '$300,000' },
        rateTypes: ['seasonal'],
      },
      key(op),
    );
    expect(t.status, t.text).toBe(201);
    expect(t.body.variablesUsed).toEqual(['reservation.number', 'insurance']);
    const d = await post(`/slip-contracts/templates/${t.body.id}/duplicate`, {}, key(op));
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ name: 'Seasonal (copy)', defaults: { insurance: '$300,000' }, rateTypes: ['seasonal'], isDefault: false });
    expect((await put(`/slip-contracts/templates/${d.body.id}`, { isDefault: true }, key(op))).body.isDefault).toBe(true);
    expect((await get(`/slip-contracts/templates?locationId=${op.locationId}`, key(op))).body.data.map((x: any) => x.name)).toEqual([
      'Seasonal (copy)',
      'Seasonal',
    ]);
    expect((await api('DELETE', `/slip-contracts/templates/${t.body.id}`, key(op))).status).toBe(200);
    expectError(await get(`/slip-contracts/templates/${t.body.id}`, key(op)), 404);
  });
});

describe('slip contracts', () => {
  it('generates a PDF that loads back and prints non-Latin names; signs with SHA-256, IP and user agent', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const name = { firstName: 'Дмитрий', lastName: 'Ødegård', email: `dmitri-${Date.now()}@example.test` };
    const r = await reserve(op, s.id, { renter: name, boat: { vesselName: 'Zoë', loaFt: 30 } });
    await post(
      '/slip-contracts/templates',
      {
        name: 'Std',
        title: 'Slip agreement {{reservation.number}}',
        body: 'Between {{marina.name}} and {{renter.fullName}} for {{vessel.name}}. {{settings.cancellationPolicy}}',
        isDefault: true,
      },
      key(op),
    );
    const g = await post('/slip-contracts/generate', { reservationId: r.body.id }, key(op));
    expect(g.status, g.text).toBe(201);
    expect(g.body).toMatchObject({ status: 'generated', missingVariables: ['settings.cancellationPolicy'] });
    expect(g.body.body).toContain('Дмитрий Ødegård');
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.contract).toMatchObject({ status: 'pending', contractId: g.body.id });

    const bytes = await pdfOf(op, g.body.id);
    const hex = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(hex).toBe(g.body.documentSha256);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe(`Slip agreement ${r.body.reservationNumber}`);
    const text = doc
      .getPages()
      .map((p) => pageText(doc, p))
      .join('\n');
    expect(text).toContain(`<${glyphHexOf('Дмитрий Ødegård')}>`);
    expect(glyphHexOf('Дмитрий')).not.toContain(glyphHexOf('?'));

    const send = await post('/slip-contracts/send', { contractId: g.body.id }, key(op));
    expect(send.body).toMatchObject({ status: 'sent', sentTo: name.email, sendCount: 1 });
    const mail = await env.DB.prepare("SELECT body FROM message_outbox WHERE customer_id = ? AND template = 'slip_contract.sign_request'")
      .bind(op.customerId)
      .first<any>();
    expect(mail.body).toMatch(/token=[A-Za-z0-9]{40}/);
    expect((await post('/slip-contracts/resend', { contractId: g.body.id }, key(op))).body.sendCount).toBe(2);
    expect((await get(`/slip-contracts/pending?locationId=${op.locationId}`, key(op))).body.data[0].reservation.renterName).toBe('Дмитрий Ødegård');

    const sign = await api('POST', '/slip-contracts/sign', {
      ...key(op),
      body: { contractId: g.body.id, signerName: 'Дмитрий Ødegård', signature: 'Дмитрий Ødegård', agreed: true },
      headers: { 'cf-connecting-ip': '203.0.113.7', 'user-agent': 'MarinaTablet/1.0' },
    });
    expect(sign.status, sign.text).toBe(200);
    expect(sign.body.signature).toMatchObject({
      signerName: 'Дмитрий Ødegård',
      ip: '203.0.113.7',
      userAgent: 'MarinaTablet/1.0',
      signatureType: 'typed',
      signedVia: 'staff',
    });
    expectError(await post('/slip-contracts/sign', { contractId: g.body.id, signerName: 'x', signature: 'x', agreed: true }, key(op)), 409, 'invalid_state');
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.contract.status).toBe('signed');
    const signed = await PDFDocument.load(await pdfOf(op, g.body.id));
    expect(signed.getPageCount()).toBe(doc.getPageCount() + 1);
    const last = pageText(signed, signed.getPages().at(-1)!);
    expect(last).toContain(`<${glyphHexOf(g.body.documentSha256)}>`);
    expect(last).toContain(`<${glyphHexOf('IP address: 203.0.113.7')}>`);
    const regen = await post('/slip-contracts/regenerate-pdf', { contractId: g.body.id }, key(op));
    expect(regen.body.pdfRegeneratedAt).toBeTruthy();
    expect((await get(`/slip-contracts/signed`, key(op))).body.total).toBe(1);
    expectError(await post('/slip-contracts/generate', { reservationId: r.body.id }, key(op)), 409, 'invalid_state');
    const stats = await get('/slip-contracts/stats', key(op));
    expect(stats.body).toMatchObject({ byStatus: { signed: 1 }, signedLast30Days: 1 });
    const v = await post('/slip-contracts/void', { contractId: g.body.id, reason: 'new terms' }, key(op));
    expect(v.body.status).toBe('voided');
    expect((await get(`/slip-reservations/${r.body.id}`, key(op))).body.contract.status).toBe('none');
  });

  it('a drawn signature is embedded; a new contract supersedes an unsigned one; deleting the reservation deletes its contracts', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id);
    const t = await post('/slip-contracts/templates', { name: 'Std', title: 'Agreement', body: 'For {{renter.fullName}}' }, key(op));
    const c1 = await post('/slip-contracts/generate', { reservationId: r.body.id, templateId: t.body.id }, key(op));
    const c2 = await post('/slip-contracts/generate', { reservationId: r.body.id, templateId: t.body.id }, key(op));
    const both = await get(`/slip-contracts/reservation/${r.body.id}`, key(op));
    expect(both.body.data.map((c: any) => [c.id, c.status])).toEqual([
      [c2.body.id, 'generated'],
      [c1.body.id, 'voided'],
    ]);
    // A 1x1 PNG.
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const sign = await post('/slip-contracts/sign', { contractId: c2.body.id, signerName: 'Zoë Martin', signature: png, agreed: true }, key(op));
    expect(sign.status, sign.text).toBe(200);
    expect(sign.body.signature.signatureType).toBe('drawn');
    await post(`/slip-reservations/${r.body.id}/cancel`, {}, key(op));
    expect((await api('DELETE', `/slip-reservations/${r.body.id}`, key(op))).status).toBe(200);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM slip_contracts WHERE reservation_id = ?').bind(r.body.id).first<any>();
    expect(left.n).toBe(0);
    expect(await env.FILES.get(`slip-contracts/${op.customerId}/${c2.body.id}/contract.pdf`)).toBeNull();
  });
});

describe('waiver PDFs', () => {
  it('print non-Latin signer names with the embedded font', async () => {
    const bytes = await buildWaiverPdf({
      signatureId: 'wsig_test',
      templateId: 'wtpl_test',
      title: 'Liability waiver',
      description: null,
      businessName: 'Demo Marina',
      locationName: 'Miami',
      sections: [{ type: 'text', id: 's1', content: 'I accept the risks.' }],
      values: {},
      images: [],
      signer: { firstName: 'Łukasz', lastName: 'Żółć-Ζωή' },
      waiverNumber: null,
      transactionId: null,
      bookingData: null,
      signedAt: new Date().toISOString(),
      ipAddress: null,
      userAgent: null,
      contentHash: 'abc',
    });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getAuthor()).toBe('Łukasz Żółć-Ζωή');
    expect(
      doc
        .getPages()
        .map((p) => pageText(doc, p))
        .join('\n'),
    ).toContain(glyphHexOf('Name: Łukasz Żółć-Ζωή'));
  });
});
