/**
 * Wallet passes: the pass data with a QR code of a signed check-in code, the signed Apple Wallet file
 * (the test pool binds test-only certificates; 501 without them), the Google Wallet save link (a
 * signed JWT when configured, Berth's pass page otherwise), the .ics event, and the operator's
 * check-in by the scanned code.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { unzipSync, strFromU8 } from 'fflate';
import * as pkijs from 'pkijs';
import { decodeJwt, decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { otherOperator } from '../../security';
import { systemCtx } from '../../../src/lib/context';
import type { Env } from '../../../src/env';
import { loadPass, walletPassFile, walletSaveLink } from '../../../src/modules/wallet-passes/service';
import { at, book, bookBody, everyDay, rentalItem } from '../bookings/factories';
import { formatLocalDay, ISO_TIMESTAMP } from '../../../src/lib/local-time';

const TZ = 'America/Los_Angeles';

async function booked(op: Operator, o: { day?: number; start?: string; end?: string } = {}) {
  // Open round the clock: the check-in test books a few hours from now, whatever the time of day.
  const item = await rentalItem(op, { timezone: TZ, data: { name: 'Bay Runner', operatingHours: everyDay({ open: '00:00', close: '00:00' }) } });
  const r = await book(
    op,
    bookBody({
      inventoryId: item.id,
      startTime: o.start ?? at(TZ, o.day ?? 3, '10:00'),
      endTime: o.end ?? at(TZ, o.day ?? 3, '12:00'),
      quantity: 1,
      extra: { customerInfo: { firstName: 'Rita', lastName: 'Renter', email: 'rita@renter.test' } },
      rentalDetails: { participants: 3 },
    }),
  );
  expect(r.status, r.text).toBe(201);
  return { item, rentalId: r.body.rentalId as string, transactionId: r.body.order.transactionId as string };
}

const sha1Hex = async (b: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-1', b))].map((x) => x.toString(16).padStart(2, '0')).join('');

describe('GET /public/bookings/{rentalId}/wallet-pass-a', () => {
  it("answers the pass with the location's local time, the renter's first name and initial, and a QR SVG of a signed check-in code", async () => {
    const op = await createOperator();
    const { rentalId, transactionId } = await booked(op);
    const r = await get(`/public/bookings/${rentalId}/wallet-pass-a`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      rentalId,
      transactionId,
      status: 'confirmed',
      itemName: 'Bay Runner',
      timezone: TZ,
      localStartTime: '10:00',
      localEndTime: '12:00',
      renterName: 'Rita R.',
      partySize: 3,
      download: { available: true, contentType: 'application/vnd.apple.pkpass' },
    });
    expect(r.body.startTime).toBe(at(TZ, 3, '10:00'));
    expect(r.body.when).toMatch(new RegExp(`^${formatLocalDay(Date.parse(at(TZ, 3, '10:00')), TZ)}, 10:00–12:00 P[SD]T$`));
    expect(r.body.barcode.format).toBe('QR');
    expect(r.body.barcode.message).toMatch(new RegExp(`^bci1\\.${rentalId}\\.\\d+\\.[A-Za-z0-9_-]{22}$`));
    expect(r.body.barcode.svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(r.body.download.url).toMatch(new RegExp(`/public/bookings/${rentalId}/wallet-pass-a/download$`));
    expect(r.text).not.toContain('rita@renter.test');
  });

  it('answers 404 for an unknown or cancelled booking', async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    expectError(await get('/public/bookings/bk_unknown_0000/wallet-pass-a'), 404, 'not_found');
    expect((await post(`/coreBooking/${rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/public/bookings/${rentalId}/wallet-pass-a`), 404, 'not_found');
    expectError(await get(`/public/bookings/${rentalId}/wallet-pass-a/download`), 404, 'not_found');
    expectError(await get(`/public/bookings/${rentalId}/wallet-pass-b`), 404, 'not_found');
    expectError(await get(`/public/bookings/${rentalId}/calendar.ics`), 404, 'not_found');
  });
});

describe('GET /public/bookings/{rentalId}/wallet-pass-a/download', () => {
  it('builds a .pkpass whose manifest lists every file and whose signature is a detached CMS signature by the pass certificate', async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    const pass = await get(`/public/bookings/${rentalId}/wallet-pass-a`);
    const r = await get(`/public/bookings/${rentalId}/wallet-pass-a/download`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="booking-${rentalId}.pkpass"`);
    const files = unzipSync(r.body as Uint8Array);
    expect(Object.keys(files).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo.png', 'manifest.json', 'pass.json', 'signature']);
    const passJson = JSON.parse(strFromU8(files['pass.json']));
    expect(passJson).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.test.berth.booking',
      teamIdentifier: 'ABCDE12345',
      serialNumber: rentalId,
      voided: false,
      barcodes: [{ format: 'PKBarcodeFormatQR', message: pass.body.barcode.message, altText: rentalId }],
    });
    // The date and time fields read the location's time (lib/local-time.ts), never an ISO timestamp.
    expect(passJson.eventTicket.secondaryFields[0]).toEqual({ key: 'date', label: 'DATE', value: formatLocalDay(Date.parse(at(TZ, 3, '10:00')), TZ) });
    expect(passJson.eventTicket.secondaryFields[1]).toEqual({ key: 'time', label: 'TIME', value: expect.stringMatching(/^10:00–12:00 P[SD]T$/) });
    expect(JSON.stringify(passJson.eventTicket)).not.toMatch(ISO_TIMESTAMP);
    // The manifest: SHA-1 of every other file.
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    expect(Object.keys(manifest).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo.png', 'pass.json']);
    for (const [name, hash] of Object.entries(manifest)) expect(hash, name).toBe(await sha1Hex(files[name]));
    expect([...files['icon.png'].subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // The signature verifies over the manifest with the signer certificate chained to the (test) WWDR certificate.
    const sig = files.signature;
    const info = pkijs.ContentInfo.fromBER(sig.buffer.slice(sig.byteOffset, sig.byteOffset + sig.byteLength) as ArrayBuffer);
    expect(info.contentType).toBe('1.2.840.113549.1.7.2');
    const signed = new pkijs.SignedData({ schema: info.content });
    expect(signed.encapContentInfo.eContent).toBeUndefined();
    expect(signed.certificates).toHaveLength(2);
    const wwdr = pkijs.Certificate.fromBER(pemDer(env.APPLE_WWDR_CERT_PEM!));
    const m = files['manifest.json'];
    const ok = await signed.verify({
      signer: 0,
      data: m.buffer.slice(m.byteOffset, m.byteOffset + m.byteLength) as ArrayBuffer,
      trustedCerts: [wwdr],
      checkChain: true,
      extendedMode: true,
    });
    expect(ok.signatureVerified).toBe(true);
    // The signature is over this manifest only: another manifest fails (its digest differs from the signed one).
    const forged = await signed
      .verify({ signer: 0, data: new TextEncoder().encode('{}').buffer as ArrayBuffer, trustedCerts: [wwdr], extendedMode: true })
      .catch((e: { signatureVerified?: boolean | null }) => e);
    expect(forged.signatureVerified).not.toBe(true);
  });

  it('answers 501 wallet_pass_not_configured without the pass certificates (after 404 for an unknown booking)', async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    const bare = { ...(env as unknown as Env), APPLE_PASS_CERT_PEM: undefined } as Env;
    const ctx = systemCtx(bare);
    await expect(walletPassFile(ctx, rentalId)).rejects.toMatchObject({ code: 'wallet_pass_not_configured', status: 501 });
    await expect(walletPassFile(ctx, 'bk_unknown_0000')).rejects.toMatchObject({ status: 404 });
  });
});

describe('GET /public/bookings/{rentalId}/wallet-pass-b', () => {
  it("answers Berth's pass page while Google Wallet is not configured", async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    const r = await get(`/public/bookings/${rentalId}/wallet-pass-b`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ rentalId, provider: 'berth', configured: false, saveUrl: `http://berth.test/widget?pass=${rentalId}` });
  });

  it('answers a Google Wallet save link with an RS256 JWT of a generic pass carrying the check-in code when configured', async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    // A service account key of the test's own.
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const googleKeyPem = await exportPKCS8(privateKey);
    const cfg = {
      ...(env as unknown as Env),
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: 'wallet@berth-test.iam.gserviceaccount.com',
      GOOGLE_WALLET_PRIVATE_KEY_PEM: googleKeyPem,
    } as Env;
    const ctx = systemCtx(cfg);
    const link = await walletSaveLink(ctx, rentalId, 'https://book.example.test');
    expect(link).toMatchObject({ rentalId, provider: 'google_wallet', configured: true });
    expect(link.saveUrl).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);
    const jwt = link.saveUrl.split('/').pop()!;
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, publicKey, { issuer: 'wallet@berth-test.iam.gserviceaccount.com', audience: 'google' });
    expect(payload).toMatchObject({ typ: 'savetowallet', origins: ['https://book.example.test'] });
    const obj = (payload as any).payload.genericObjects[0];
    const pass = await loadPass(ctx, rentalId);
    expect(obj).toMatchObject({ id: `3388000000012345678.${rentalId}`, state: 'ACTIVE', barcode: { type: 'QR_CODE', value: pass.checkInToken } });
    expect(obj.subheader.defaultValue.value).toBe(pass.when); // local time, e.g. "Tue 1 Dec 2026, 10:00–12:00 PST"
    expect(obj.subheader.defaultValue.value).not.toMatch(ISO_TIMESTAMP);
    expect((payload as any).payload.genericClasses[0].id).toBe(obj.classId);
    expect(decodeJwt(jwt).iat).toBeGreaterThan(0);
  });
});

describe('GET /public/bookings/{rentalId}/calendar.ics', () => {
  it('answers an iCalendar event with UTC instants, the local time labelled in the description, and a reminder', async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op);
    const r = await get(`/public/bookings/${rentalId}/calendar.ics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = r.text.replace(/\r\n /g, '');
    expect(r.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(r.text.split('\r\n').every((l) => new TextEncoder().encode(l).length <= 75)).toBe(true);
    const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(text).toContain(`DTSTART:${stamp(at(TZ, 3, '10:00'))}`);
    expect(text).toContain(`DTEND:${stamp(at(TZ, 3, '12:00'))}`);
    expect(text).toContain(`UID:${rentalId}@berth`);
    const description = text.split('\r\n').find((l) => l.startsWith('DESCRIPTION:'))!;
    expect(description).toContain(`${formatLocalDay(Date.parse(at(TZ, 3, '10:00')), TZ)}\\, 10:00–12:00 P`);
    expect(description).toMatch(/10:00–12:00 P[SD]T\./);
    expect(description).not.toMatch(ISO_TIMESTAMP);
    expect(text).toContain('TRIGGER:-PT24H');
  });
});

describe('POST /coreBooking/check-in/scan', () => {
  it("checks the booking in with its pass's code, twice harmlessly, and refuses forged, foreign and unknown codes", async () => {
    const op = await createOperator();
    const { rentalId } = await booked(op, {
      day: 0,
      start: new Date(Date.now() + 3_600_000).toISOString(),
      end: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    });
    const token = (await get(`/public/bookings/${rentalId}/wallet-pass-a`)).body.barcode.message as string;
    // Another operator scanning it: 404 (never reveal the booking).
    const intruder = await otherOperator();
    expectError(await post('/coreBooking/check-in/scan', { token }, { key: intruder.adminKey }), 404, 'not_found');
    // A forged signature or another rental id under the same signature.
    const [p, id, exp, mac] = token.split('.');
    expectError(await post('/coreBooking/check-in/scan', { token: `${p}.${id}.${exp}.${'A'.repeat(22)}` }, { key: op.adminKey }), 400, 'invalid_pass_token');
    expectError(await post('/coreBooking/check-in/scan', { token: `${p}.bk_other_0000.${exp}.${mac}` }, { key: op.adminKey }), 400, 'invalid_pass_token');
    expectError(await post('/coreBooking/check-in/scan', { token: 'not a berth code at all' }, { key: op.adminKey }), 400, 'invalid_pass_token');
    // A staff member without the bookings permission.
    const staff = await op.addUser({ role: 'staff', permissions: [] });
    expectError(await post('/coreBooking/check-in/scan', { token }, { key: staff.key }), 403, 'forbidden');
    const first = await post('/coreBooking/check-in/scan', { token, notes: 'Gate 2' }, { key: op.adminKey });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ rentalId, status: 'checked_in', alreadyCheckedIn: false });
    expect(first.body.checkedInAt).toEqual(expect.any(String));
    const again = await post('/coreBooking/check-in/scan', { token }, { key: op.adminKey });
    expect(again.body).toMatchObject({ rentalId, status: 'checked_in', alreadyCheckedIn: true });
    expect((await get(`/coreBooking/${rentalId}`, { key: op.adminKey })).body.status).toBe('checked_in');
  });

  it('needs credentials', async () => {
    expectError(await post('/coreBooking/check-in/scan', { token: 'bci1.bk_x.1893456000.AbCdEfGhIjKlMnOpQrStUv' }), 401, 'unauthenticated');
  });
});

function pemDer(pem: string): ArrayBuffer {
  const b64 = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out.buffer;
}
