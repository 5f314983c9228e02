/**
 * Voice webhooks through HTTP, signed like the telephony provider signs them: signature checks
 * (401), the location's menu as valid TwiML with escaped text, caller identification, the menu's
 * actions, sequential ringing, voicemail.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { BASE, createOperator, get, patch, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, rentalItem } from '../bookings/factories';
import { twilioAuthToken, twilioSignature } from '../../../src/adapters/telephony-signature';
import { xmlEscape } from '../../../src/modules/voice/twiml';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

/** A webhook call as the provider makes it: form parameters, signed over the exact URL. */
async function twilio(
  path: string,
  params: Record<string, string>,
  o: { signature?: string | null; signUrl?: string; signParams?: Record<string, string> } = {},
) {
  const url = BASE + path;
  const sig = o.signature === undefined ? await twilioSignature(twilioAuthToken(env)!, o.signUrl ?? url, o.signParams ?? params) : o.signature;
  const res = await SELF.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(sig ? { 'x-twilio-signature': sig } : {}) },
    body: new URLSearchParams(params),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    type: res.headers.get('content-type') ?? '',
    json: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : null,
  };
}

function twiml(text: string) {
  expect(XMLValidator.validate(text), text).toBe(true);
  return parser.parse(text).Response as Record<string, any>;
}
const pathOf = (u: string) => u.replace(/&amp;/g, '&');

let seq = 0;
const uniqueNumber = () =>
  `+1305${String(Date.now() % 10_000_000)
    .padStart(7, '0')
    .slice(0, 3)}${String(1000 + (++seq % 9000)).padStart(4, '0')}`;

describe('voice: signature verification', () => {
  it('401 without a signature, with a wrong one, or one over other parameters or another URL; inputs checked first', async () => {
    const params = { CallSid: 'CA1', From: '+13055550000', To: '+13055550001' };
    const noSig = await twilio('/communication/voice/incoming-call', params, { signature: null });
    expect(noSig.status).toBe(401);
    expect(noSig.json.error).toBe('unauthenticated');
    expect((await twilio('/communication/voice/incoming-call', params, { signature: 'bm90LWEtc2lnbmF0dXJl' })).status).toBe(401);
    expect((await twilio('/communication/voice/incoming-call', params, { signParams: { ...params, From: '+19999999999' } })).status).toBe(401);
    expect((await twilio('/communication/voice/incoming-call', params, { signUrl: `${BASE}/communication/voice/other` })).status).toBe(401);
    const wrongToken = await twilioSignature('another-auth-token-000000', BASE + '/communication/voice/incoming-call', params);
    expect((await twilio('/communication/voice/incoming-call', params, { signature: wrongToken })).status).toBe(401);
    // Every provider endpoint checks it.
    for (const path of [
      '/communication/voice/handle-key?locationId=loc_1&callSid=CA1',
      '/communication/voice/sequential-dial-next?locationId=loc_1&callSid=CA1&currentIndex=0&ringList=%5B%5D',
      '/communication/voice/recording-webhook',
      '/communication/voice/handle-recording?locationId=loc_1',
    ]) {
      const unsigned = await twilio(path, { CallSid: 'CA1', RecordingSid: 'RE1' }, { signature: null });
      expect(unsigned.status, path).toBe(401);
      expect(unsigned.json.error).toBe('unauthenticated');
      expect((await twilio(path, { CallSid: 'CA1', RecordingSid: 'RE1' }, { signature: wrongToken })).status, path).toBe(401);
    }
    // Missing query inputs answer 400 before the signature is looked at.
    const missing = await twilio('/communication/voice/handle-key?locationId=loc_1', { Digits: '1' }, { signature: null });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('validation_failed');
    // A valid signature passes.
    const ok = await twilio('/communication/voice/incoming-call', params);
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/text\/xml/);
    expect(twiml(ok.text).Say['#text']).toMatch(/not in service/);
  });

  it('xmlEscape escapes markup and drops characters XML forbids', () => {
    expect(xmlEscape(`Tom & Jerry's <Boats> "best"\u0001\u0008`)).toBe('Tom &amp; Jerry&apos;s &lt;Boats&gt; &quot;best&quot;');
  });
});

describe('voice: calls', () => {
  let op: Operator;
  let number: string;
  let rentalId: string;
  const team = ['+13055550111', '+13055550122'];
  beforeAll(async () => {
    op = await createOperator();
    number = uniqueNumber();
    await env.DB.prepare('UPDATE locations SET phone_number = ? WHERE id = ?').bind(number, op.locationId).run();
    const ivr = await patch(
      '/location/ivr',
      {
        locationId: op.locationId,
        ivrConfig: {
          enabled: true,
          greeting: 'Welcome to Tom & Jerry\'s <Boats> "on the bay"',
          menu: [
            { key: '1', label: 'Bookings', action: 'ring_group' },
            { key: '2', label: 'Directions & hours', action: 'message', target: 'We are at 1 Harbour Way & open 8 to 6.' },
            { key: '3', label: 'the harbour master', action: 'forward', target: '+13055550999' },
            { key: '0', label: 'a message', action: 'voicemail' },
          ],
          ringList: team,
          voicemailEmail: 'frontdesk@marina.test',
        },
      },
      { key: op.adminKey },
    );
    expect(ivr.status, ivr.text).toBe(200);
    const item = await rentalItem(op, { data: { name: 'Pontoon <Deluxe>' } });
    const body = bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') });
    (body.customerInfo as any).phone = '(786) 555-0199';
    (body.customerInfo as any).firstName = 'Jane';
    const b = await book(op, body);
    expect(b.status, b.text).toBe(201);
    rentalId = b.body.rentalId;
  });

  it('incoming call: location by the number called, caller identified with their booking, the menu as valid TwiML', async () => {
    const r = await twilio('/communication/voice/incoming-call', { CallSid: 'CA_known_1', From: '+17865550199', To: number });
    expect(r.status).toBe(200);
    const doc = twiml(r.text);
    const gather = doc.Gather;
    expect(pathOf(gather['@action'])).toBe(`/communication/voice/handle-key?locationId=${op.locationId}&callSid=CA_known_1`);
    const says = [gather.Say].flat().map((s: any) => s['#text']);
    expect(says[0]).toBe('Hello Jane.');
    expect(says[1]).toMatch(/^You have a booking for Pontoon <Deluxe> on /);
    expect(says[2]).toBe('Welcome to Tom & Jerry\'s <Boats> "on the bay"');
    expect(says[3]).toMatch(/To talk about your booking, press 9\. For Bookings, press 1\./);
    expect(r.text).toContain('Tom &amp; Jerry&apos;s &lt;Boats&gt;');
    expect(pathOf(doc.Redirect['#text'])).toContain('attempt=1');
    const row = await env.DB.prepare('SELECT renter_id, rental_id, location_id FROM voice_calls WHERE call_sid = ?').bind('CA_known_1').first<any>();
    expect(row).toMatchObject({ rental_id: rentalId, location_id: op.locationId });
    expect(row.renter_id).toBeTruthy();
    // An unknown caller gets the plain menu.
    const anon = twiml((await twilio('/communication/voice/incoming-call', { CallSid: 'CA_anon_1', From: '+14155550000', To: number })).text);
    expect([anon.Gather.Say].flat()[0]['#text']).toBe('Welcome to Tom & Jerry\'s <Boats> "on the bay"');
    // A number bought for the location finds it too.
    const bought = uniqueNumber();
    await env.DB.prepare('INSERT INTO phone_numbers (id, customer_id, location_id, phone_number, created_at) VALUES (?, ?, ?, ?, ?)')
      .bind(`pn_${crypto.randomUUID()}`, op.customerId, op.locationId, bought, new Date().toISOString())
      .run();
    expect(
      pathOf(twiml((await twilio('/communication/voice/incoming-call', { CallSid: 'CA_b', From: '+14155550000', To: bought })).text).Gather['@action']),
    ).toContain(`locationId=${op.locationId}`);
  });

  it('key presses: ring group (sequential dial), booking (9), message, forward, unknown key and no key', async () => {
    const q = `locationId=${op.locationId}&callSid=CA_known_1`;
    const ring = twiml((await twilio(`/communication/voice/handle-key?${q}`, { Digits: '1', CallSid: 'CA_known_1' })).text);
    const next = pathOf(ring.Redirect['#text']);
    expect(next).toBe(`/communication/voice/sequential-dial-next?${q}&currentIndex=0&ringList=${encodeURIComponent(JSON.stringify(team))}`);
    // Sequential dial: first number, then the second when nobody answered, then voicemail.
    const d0 = twiml((await twilio(next, { CallSid: 'CA_known_1' })).text);
    expect(d0.Dial.Number).toBe(team[0]);
    const d1path = pathOf(d0.Dial['@action']);
    expect(d1path).toContain('currentIndex=1');
    const d1 = twiml((await twilio(d1path, { CallSid: 'CA_known_1', DialCallStatus: 'no-answer' })).text);
    expect(d1.Dial.Number).toBe(team[1]);
    const done = twiml((await twilio(pathOf(d1.Dial['@action']), { CallSid: 'CA_known_1', DialCallStatus: 'busy' })).text);
    expect(done.Record['@action']).toBe(`/communication/voice/handle-recording?locationId=${op.locationId}`);
    const answered = await twilio(d1path, { CallSid: 'CA_known_1', DialCallStatus: 'completed' });
    expect(twiml(answered.text)).toHaveProperty('Hangup');
    const bad = await twilio(`/communication/voice/sequential-dial-next?${q}&currentIndex=0&ringList=notjson`, {});
    expect(bad.status).toBe(400);

    const booking = twiml((await twilio(`/communication/voice/handle-key?${q}`, { Digits: '9' })).text);
    expect([booking.Say].flat()[0]['#text']).toMatch(/Your booking .* is for Pontoon <Deluxe> on/);
    expect(pathOf(booking.Redirect['#text'])).toContain('sequential-dial-next');

    const msg = twiml((await twilio(`/communication/voice/handle-key?${q}`, { Digits: '2' })).text);
    expect([msg.Say].flat()[0]['#text']).toBe('We are at 1 Harbour Way & open 8 to 6.');
    expect(msg).toHaveProperty('Gather');

    const fwd = twiml((await twilio(`/communication/voice/handle-key?${q}`, { Digits: '3' })).text);
    expect(fwd.Dial.Number).toBe('+13055550999');

    const wrong = twiml((await twilio(`/communication/voice/handle-key?${q}`, { Digits: '7' })).text);
    expect([wrong.Gather.Say].flat()[0]['#text']).toBe('Sorry, that is not an option.');
    const silent = twiml((await twilio(`/communication/voice/handle-key?${q}&attempt=3`, {})).text);
    expect(silent).toHaveProperty('Record');
  });

  it('voicemail: recorded, completed, e-mailed; the recording notice is checked; operators list voicemails', async () => {
    await twilio('/communication/voice/incoming-call', { CallSid: 'CA_vm_1', From: '+17865550199', To: number });
    const vm = twiml((await twilio(`/communication/voice/handle-key?locationId=${op.locationId}&callSid=CA_vm_1`, { Digits: '0' })).text);
    expect(vm.Record['@recordingStatusCallback']).toBe(`/communication/voice/recording-webhook?locationId=${op.locationId}`);
    const done = await twilio(`/communication/voice/handle-recording?locationId=${op.locationId}`, {
      CallSid: 'CA_vm_1',
      RecordingSid: 'RE_1',
      RecordingUrl: 'https://api.twilio.example/recordings/RE_1',
      RecordingDuration: '14',
    });
    expect(twiml(done.text)).toHaveProperty('Hangup');
    const status = await twilio('/communication/voice/recording-webhook', {
      CallSid: 'CA_vm_1',
      RecordingSid: 'RE_1',
      RecordingStatus: 'completed',
      RecordingUrl: 'https://api.twilio.example/recordings/RE_1',
      RecordingDuration: '14',
    });
    expect(status.status).toBe(200);
    expect(status.json).toMatchObject({ success: true, status: 'completed' });
    expect((await twilio('/communication/voice/recording-webhook', { CallSid: 'CA_vm_1' })).status).toBe(400);
    expect((await twilio('/communication/voice/recording-webhook', { CallSid: 'CA_nobody', RecordingSid: 'RE_2' })).json.error).toBe('unknown_call');
    const mail = await env.DB.prepare("SELECT `to`, body FROM message_outbox WHERE customer_id = ? AND template = 'voicemail.received'")
      .bind(op.customerId)
      .first<any>();
    expect(mail.to).toBe('frontdesk@marina.test');
    expect(mail.body).toContain('RE_1');

    await checkSecurity(op, { method: 'GET', path: '/communication/voice/voicemails', adminOnly: true });
    const list = await get('/communication/voice/voicemails', { key: op.adminKey });
    expect(list.body).toMatchObject({ total: 1, data: [{ callSid: 'CA_vm_1', status: 'completed', durationSeconds: 14, fromNumber: '+17865550199' }] });
    expect(list.body.data[0].renterId).toBeTruthy();
    const other = await createOperator();
    expect((await get('/communication/voice/voicemails', { key: other.adminKey })).body.total).toBe(0);
  });

  it("the provider's calls run on the clock of the operator called (a sandbox test clock)", async () => {
    const t0 = '2027-01-14T15:00:00.000Z';
    const pinned = await createOperator({ clockAt: t0 });
    const called = uniqueNumber();
    await env.DB.prepare('UPDATE locations SET phone_number = ? WHERE id = ?').bind(called, pinned.locationId).run();
    await twilio('/communication/voice/incoming-call', { CallSid: 'CA_clock_1', From: '+17865550142', To: called });
    await twilio(`/communication/voice/handle-recording?locationId=${pinned.locationId}`, {
      CallSid: 'CA_clock_1',
      RecordingSid: 'RE_clock_1',
      RecordingUrl: 'https://api.twilio.example/recordings/RE_clock_1',
      RecordingDuration: '9',
    });
    const call = await env.DB.prepare('SELECT created_at AS createdAt FROM voice_calls WHERE call_sid = ?').bind('CA_clock_1').first<any>();
    expect(call.createdAt).toBe(t0);
    const list = await get('/communication/voice/voicemails', { key: pinned.adminKey });
    expect(list.body.data).toMatchObject([{ callSid: 'CA_clock_1', status: 'completed', createdAt: t0 }]);
    const updated = await env.DB.prepare('SELECT updated_at AS updatedAt FROM voicemails WHERE call_sid = ?').bind('CA_clock_1').first<any>();
    expect(updated.updatedAt).toBe(t0);
  });
});
