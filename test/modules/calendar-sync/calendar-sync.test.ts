/**
 * Calendar sync through HTTP with the offline provider simulator: the OAuth round trip (signed,
 * expiring state; HTML page posting to the opener; 302 on denial; 400 on a missing or forged
 * state), tokens stored encrypted, calendars, pushing bookings and keeping them in step (change,
 * cancellation, a 410 from the provider), disconnect, and the private RFC 5545 feeds.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import ICAL from 'ical.js';
import { BASE, api, createOperator, db, del, eventually, expectError, get, post, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, rentalItem } from '../bookings/factories';
import { signToken, unseal } from '../../../src/lib/sealed';
import { SimulatedCalendar } from '../../../src/adapters/calendar';
import { ProviderError } from '../../../src/adapters/simulators';
import { calendarConnections } from '../../../src/db/schema/calendar-sync';
import { eq } from 'drizzle-orm';

const raw = (path: string) => SELF.fetch(BASE + path, { redirect: 'manual' });

/** The full OAuth round trip with the simulator: connect, "consent" (the URL), callback. */
async function connectCalendar(op: Operator, userId = op.adminId) {
  const c = await get(`/integrations/calendar/connect?userId=${userId}&customerId=${op.customerId}`, { key: op.adminKey });
  expect(c.status, c.text).toBe(200);
  const url = new URL(c.body.authorizationUrl);
  const res = await raw(url.pathname + url.search);
  expect(res.status).toBe(200);
  return { connect: c.body, page: await res.text(), res };
}

async function storedToken(userId: string) {
  const row = await db().select().from(calendarConnections).where(eq(calendarConnections.userId, userId)).get();
  return { row: row!, token: row ? await unseal(env, row.accessToken) : '' };
}

const sim = new SimulatedCalendar(env);

describe('calendar sync: security', () => {
  it('every operator route refuses anonymous and bad credentials, and other operators', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    const routes = [
      { method: 'GET', path: `/integrations/calendar/connect?userId=${op.adminId}&customerId=${op.customerId}`, otherStatus: 403 as const },
      { method: 'POST', path: '/integrations/calendar/disconnect', body: { userId: op.adminId }, otherStatus: 404 as const },
      { method: 'GET', path: `/integrations/calendar/status?userId=${op.adminId}`, otherStatus: 404 as const },
      { method: 'GET', path: `/integrations/calendar/calendars?userId=${op.adminId}`, otherStatus: 404 as const },
      { method: 'POST', path: '/integrations/calendar/update-calendar', body: { userId: op.adminId, calendarId: 'primary' }, otherStatus: 404 as const },
      { method: 'POST', path: '/integrations/calendar/sync', adminOnly: true },
      { method: 'POST', path: '/integrations/calendar/feeds', body: { userId: op.adminId }, otherStatus: 404 as const },
      { method: 'GET', path: '/integrations/calendar/feeds' },
      { method: 'DELETE', path: '/integrations/calendar/feeds/cfd_01J00000000000000000000000', otherStatus: 404 as const },
    ];
    for (const rc of routes) await checkSecurity(op, rc);
    // A staff member manages their own calendar only.
    const mine = await get(`/integrations/calendar/status?userId=${staff.userId}`, { key: staff.key });
    expect(mine.status).toBe(200);
    expectError(await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: staff.key }), 403, 'forbidden');
    expectError(await post('/integrations/calendar/feeds', {}, { key: staff.key }), 403, 'forbidden');
  });
});

describe('calendar sync: OAuth connection', () => {
  it('connects through the provider: signed expiring state, popup page, tokens encrypted', async () => {
    const op = await createOperator();
    const { connect, page, res } = await connectCalendar(op);
    expect(connect.provider).toBe('simulator');
    expect(Date.parse(connect.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(connect.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
    expect(page).toContain('postMessage');
    expect(page).toContain('"status":"connected"');
    expect(page).toContain('window.close()');
    expect(page).toContain('"http://localhost:5173"');
    const status = await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey });
    expect(status.body).toMatchObject({ connected: true, status: 'connected', provider: 'simulator', calendarId: 'primary' });
    // Stored sealed: the column is not the token, and it opens with the key.
    const { row, token } = await storedToken(op.adminId);
    expect(row.accessToken.startsWith('v1.')).toBe(true);
    expect(row.accessToken).not.toContain(token);
    expect(row.refreshToken?.startsWith('v1.')).toBe(true);
    expect((await sim.listCalendars(token)).length).toBeGreaterThan(0);
  });

  it('callback: 400 without state, with a forged, expired or foreign-purpose state; 302 on denial; a code works once', async () => {
    const op = await createOperator();
    const c = await get(`/integrations/calendar/connect?userId=${op.adminId}&customerId=${op.customerId}`, { key: op.adminKey });
    const url = new URL(c.body.authorizationUrl);
    const code = url.searchParams.get('code')!;
    const state = url.searchParams.get('state')!;
    expectError(await api('GET', `/integrations/calendar/callback?code=${encodeURIComponent(code)}`), 400, 'invalid_oauth_state');
    const forged = `${state.slice(0, -4)}${state.endsWith('aaaa') ? 'bbbb' : 'aaaa'}`;
    expectError(
      await api('GET', `/integrations/calendar/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(forged)}`),
      400,
      'invalid_oauth_state',
    );
    const expired = await signToken(env, 'calendar.state', { customerId: op.customerId, userId: op.adminId, redirectUri: 'x' }, -1000);
    expectError(await api('GET', `/integrations/calendar/callback?code=x&state=${encodeURIComponent(expired)}`), 400, 'invalid_oauth_state');
    const other = await signToken(env, 'acct.state', { customerId: op.customerId, userId: op.adminId, redirectUri: 'x' }, 60_000);
    expectError(await api('GET', `/integrations/calendar/callback?code=x&state=${encodeURIComponent(other)}`), 400, 'invalid_oauth_state');
    // Even a denial needs a valid state.
    expectError(await api('GET', `/integrations/calendar/callback?error=access_denied&state=${encodeURIComponent(forged)}`), 400);
    const denied = await raw(`/integrations/calendar/callback?error=access_denied&state=${encodeURIComponent(state)}`);
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toBe('http://localhost:5173/settings/integrations?integration=calendar&status=denied&reason=access_denied');
    expect((await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body.connected).toBe(false);
    const ok = await raw(url.pathname + url.search);
    expect(ok.status).toBe(200);
    // The provider refuses a used code.
    expectError(await api('GET', url.pathname + url.search), 400, 'bad_request');
  });

  it('calendars, choosing one (read-only and unknown refused), and disconnect revoking the tokens', async () => {
    const op = await createOperator();
    expectError(await get(`/integrations/calendar/calendars?userId=${op.adminId}`, { key: op.adminKey }), 400, 'calendar_not_connected');
    await connectCalendar(op);
    const list = await get(`/integrations/calendar/calendars?userId=${op.adminId}`, { key: op.adminKey });
    expect(list.status).toBe(200);
    expect(list.body.data.find((c: any) => c.selected).id).toBe('primary');
    const readOnly = list.body.data.find((c: any) => !c.writable);
    expectError(await post('/integrations/calendar/update-calendar', { userId: op.adminId, calendarId: readOnly.id }, { key: op.adminKey }), 400);
    expectError(await post('/integrations/calendar/update-calendar', { userId: op.adminId, calendarId: 'nope' }, { key: op.adminKey }), 400);
    const chosen = await post('/integrations/calendar/update-calendar', { userId: op.adminId, calendarId: 'sim_rentals' }, { key: op.adminKey });
    expect(chosen.body).toMatchObject({ calendarId: 'sim_rentals', calendarName: 'Rentals' });

    const { token } = await storedToken(op.adminId);
    const off = await post('/integrations/calendar/disconnect', { userId: op.adminId }, { key: op.adminKey });
    expect(off.body).toMatchObject({ success: true, revoked: true });
    expect(await db().select().from(calendarConnections).where(eq(calendarConnections.userId, op.adminId)).get()).toBeUndefined();
    // Revoked at the provider.
    await expect(sim.listCalendars(token)).rejects.toBeInstanceOf(ProviderError);
    expect((await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body.status).toBe('not_connected');
    // Idempotent.
    expect((await post('/integrations/calendar/disconnect', { userId: op.adminId }, { key: op.adminKey })).body.revoked).toBe(false);
  });
});

describe('calendar sync: bookings pushed and kept in step', () => {
  let op: Operator;
  let itemId: string;
  beforeAll(async () => {
    op = await createOperator();
    itemId = (await rentalItem(op, { assets: 3 })).id;
    await connectCalendar(op);
  });

  it('a full sync writes the schedule; changes, cancellations and a 410 keep it in step', async () => {
    const tz = op.timezone;
    const a = await book(op, bookBody({ inventoryId: itemId, startTime: at(tz, 3, '10:00'), endTime: at(tz, 3, '12:00') }));
    const b = await book(op, bookBody({ inventoryId: itemId, startTime: at(tz, 4, '10:00'), endTime: at(tz, 4, '12:00') }));
    expect([a.status, b.status]).toEqual([201, 201]);
    const sync = await post('/integrations/calendar/sync', {}, { key: op.adminKey });
    expect(sync.status).toBe(200);
    expect(sync.body.results[0]).toMatchObject({ created: 2, deleted: 0, error: null, full: true });
    const { token } = await storedToken(op.adminId);
    const live = async () => (await sim.events(token, 'primary')).filter((e) => e.status !== 'cancelled');
    expect((await live()).map((e) => e.rentalId).sort()).toEqual([a.body.rentalId, b.body.rentalId].sort());
    const evA = (await live()).find((e) => e.rentalId === a.body.rentalId)!;
    expect(evA).toMatchObject({ uid: `${a.body.rentalId}@berth`, sequence: 0, start: a.body.startTime });

    // A change (reschedule) is pushed by the incremental job with SEQUENCE bumped.
    const moved = await post(
      `/coreBooking/${a.body.rentalId}/reschedule`,
      { startTime: at(tz, 5, '13:00'), endTime: at(tz, 5, '15:00') },
      { key: op.adminKey },
    );
    expect(moved.status, moved.text).toBe(200);
    const before = (await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body;
    await runCron('*/5 * * * *');
    const evA2 = (await live()).find((e) => e.rentalId === a.body.rentalId)!;
    expect(evA2.id).toBe(evA.id);
    expect(evA2.sequence).toBe(1);
    expect(evA2.start).toBe(new Date(at(tz, 5, '13:00')).toISOString());
    const after = (await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body;
    expect(after.lastFullSyncAt).toBe(before.lastFullSyncAt); // incremental, with the sync token

    // A cancellation leaves the calendar at once (hook), without waiting for the job.
    await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey });
    await eventually(async () => !(await live()).some((e) => e.rentalId === b.body.rentalId));

    // The user deletes Berth's event in their calendar: the next sync writes it again, once.
    await sim.deleteAsUser(token, 'primary', evA.id);
    await runCron('*/5 * * * *');
    expect((await live()).filter((e) => e.rentalId === a.body.rentalId)).toHaveLength(1);

    // The provider expires the sync token (410): the next incremental run lists everything again.
    await sim.expireSyncTokens(token, 'primary');
    await runCron('*/5 * * * *');
    const resynced = (await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body;
    expect(resynced.lastError).toBeNull();
    expect(Date.parse(resynced.lastFullSyncAt)).toBeGreaterThan(Date.parse(after.lastFullSyncAt));
    expect((await live()).filter((e) => e.rentalId === a.body.rentalId)).toHaveLength(1);
    expect(resynced.eventsSynced).toBe(1);
  });
});

describe('private iCalendar feeds (RFC 5545)', () => {
  it('folds at 75 octets without splitting UTF-8, CRLF, UID/DTSTAMP per event, SEQUENCE on change, STATUS:CANCELLED; revocable', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2, data: { name: 'Ångström Pontoon ⛵ with a very long name that needs folding in iCalendar' } });
    const tz = op.timezone;
    const body = bookBody({ inventoryId: item.id, startTime: at(tz, 2, '10:00'), endTime: at(tz, 2, '12:00') });
    (body.customerInfo as any).firstName = 'Zoë';
    (body.customerInfo as any).lastName = 'Ünderwood-Łukasiewicz 🚤🚤🚤 Ñandú';
    const a = await book(op, body);
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(tz, 3, '10:00'), endTime: at(tz, 3, '12:00') }));
    expect([a.status, b.status]).toEqual([201, 201]);

    const created = await post('/integrations/calendar/feeds', { userId: op.adminId }, { key: op.adminKey });
    expect(created.status, created.text).toBe(201);
    expect(created.body.url).toMatch(/^http:\/\/berth\.test\/integrations\/calendar\/feeds\/bcf_[A-Za-z0-9]{40}\/calendar\.ics$/);
    const path = new URL(created.body.url).pathname;

    const fetchFeed = async () => {
      const res = await SELF.fetch(BASE + path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
      return new Uint8Array(await res.arrayBuffer());
    };
    const bytes = await fetchFeed();
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes); // valid UTF-8 as a whole
    expect(text.endsWith('\r\n') || text.endsWith('END:VCALENDAR')).toBe(true);
    expect(/[^\r]\n/.test(text)).toBe(false); // every line ends with CRLF
    // Lines of at most 75 octets; each physical line is valid UTF-8 on its own (no character split by a fold).
    let folded = 0;
    for (const line of text.split('\r\n')) {
      const octets = new TextEncoder().encode(line);
      expect(octets.length, line).toBeLessThanOrEqual(75);
      expect(() => new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(octets)).not.toThrow();
      if (line.startsWith(' ')) folded++;
    }
    expect(folded).toBeGreaterThan(0);
    const unfold = (t: string) => t.replace(/\r\n /g, '');
    expect(unfold(text)).toContain('Zoë Ünderwood-Łukasiewicz 🚤🚤🚤 Ñandú');

    const parse = (t: string) => new ICAL.Component(ICAL.parse(t));
    const cal = parse(text);
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(cal.getFirstPropertyValue('prodid')).toBeTruthy();
    const events = cal.getAllSubcomponents('vevent');
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e.getAllProperties('uid')).toHaveLength(1);
      expect(e.getAllProperties('dtstamp')).toHaveLength(1);
      expect(e.getFirstPropertyValue('status')).toBe('CONFIRMED');
      expect(e.getFirstPropertyValue('sequence')).toBe(0);
    }
    const byUid = (c: ICAL.Component, rentalId: string) => c.getAllSubcomponents('vevent').find((e) => e.getFirstPropertyValue('uid') === `${rentalId}@berth`)!;
    expect((byUid(cal, a.body.rentalId).getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(a.body.startTime);

    // The same feed fetched again without changes: same SEQUENCE and DTSTAMP.
    const again = parse(new TextDecoder().decode(await fetchFeed()));
    expect(byUid(again, a.body.rentalId).getFirstPropertyValue('dtstamp')!.toString()).toBe(
      byUid(cal, a.body.rentalId).getFirstPropertyValue('dtstamp')!.toString(),
    );

    // A change bumps SEQUENCE once; a cancellation shows STATUS:CANCELLED.
    await post(`/coreBooking/${a.body.rentalId}/reschedule`, { startTime: at(tz, 6, '09:00'), endTime: at(tz, 6, '11:00') }, { key: op.adminKey });
    await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey });
    const changed = parse(new TextDecoder().decode(await fetchFeed()));
    expect(byUid(changed, a.body.rentalId).getFirstPropertyValue('sequence')).toBe(1);
    expect(byUid(changed, b.body.rentalId).getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(byUid(changed, b.body.rentalId).getFirstPropertyValue('sequence')).toBe(1);
    const twice = parse(new TextDecoder().decode(await fetchFeed()));
    expect(byUid(twice, a.body.rentalId).getFirstPropertyValue('sequence')).toBe(1);

    // Listed without the token; revoked: 404.
    const listed = await get('/integrations/calendar/feeds', { key: op.adminKey });
    expect(listed.body.data[0]).toMatchObject({ feedId: created.body.feedId, scope: 'user', revokedAt: null });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    const revoked = await del(`/integrations/calendar/feeds/${created.body.feedId}`, undefined, { key: op.adminKey });
    expect(revoked.body.revokedAt).toBeTruthy();
    expect((await SELF.fetch(BASE + path)).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/integrations/calendar/feeds/bcf_unknown_token_0000/calendar.ics`)).status).toBe(404);
  });

  it("a staff member's feed has the bookings of their locations only; the operator feed all", async () => {
    const op = await createOperator();
    const far = await rentalItem(op, { timezone: 'Europe/Berlin' });
    const near = await rentalItem(op);
    const staff = await op.addUser({ role: 'staff' });
    await env.DB.prepare('UPDATE users SET locations = ? WHERE id = ?')
      .bind(JSON.stringify([op.locationId]), staff.userId)
      .run();
    const x = await book(op, bookBody({ inventoryId: near.id, startTime: at(op.timezone, 2, '10:00'), endTime: at(op.timezone, 2, '11:00') }));
    const y = await book(op, bookBody({ inventoryId: far.id, startTime: at('Europe/Berlin', 2, '10:00'), endTime: at('Europe/Berlin', 2, '11:00') }));
    expect([x.status, y.status]).toEqual([201, 201]);
    const mine = await post('/integrations/calendar/feeds', { userId: staff.userId }, { key: staff.key });
    expect(mine.status).toBe(201);
    const all = await post('/integrations/calendar/feeds', {}, { key: op.adminKey });
    expect(all.body.scope).toBe('operator');
    const uids = async (url: string) => {
      const t = await (await SELF.fetch(BASE + new URL(url).pathname)).text();
      return new ICAL.Component(ICAL.parse(t)).getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'));
    };
    expect(await uids(mine.body.url)).toEqual([`${x.body.rentalId}@berth`]);
    expect((await uids(all.body.url)).sort()).toEqual([`${x.body.rentalId}@berth`, `${y.body.rentalId}@berth`].sort());
    // Only admins list everyone's feeds.
    expect((await get('/integrations/calendar/feeds', { key: staff.key })).body.data.map((f: any) => f.feedId)).toEqual([mine.body.feedId]);
  });
});
