/**
 * Waitlist: POST /public/waitlist, the operator endpoints, and the cascade of released seats into
 * offers held with an expiry (through the inventory lock), booked / expired / closed by the sweep.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, api, createOperator, db, del, expectError, get, post, type Operator, runCron, cronJobNames } from '../../harness';
import { eq } from 'drizzle-orm';
import { testClocks } from '../../../src/db/schema/sandbox';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { checkSecurity, otherOperator } from '../../security';
import { cascadeSpot } from '../../../src/modules/waitlist/service';
import { wallTimeToUtc } from '../../../src/lib/time';
import { at, book, bookBody, dateAhead, email, rentalItem, seatsByDeparture, tourItem, HOUR, type TestItem } from '../bookings/factories';
import * as chf from '../channel/factories';

const join = (body: unknown, key?: string) => post('/public/waitlist', body, key ? { key } : {});
const person = (tag = 'wait') => ({ firstName: 'Wanda', lastName: 'Waiter', email: email(tag) });
const cancelBooking = (op: Operator, rentalId: string) => post(`/coreBooking/${rentalId}/cancel`, {}, { key: op.adminKey });
const entryOf = (op: Operator, id: string) => get(`/waitlist/${id}`, { key: op.adminKey });

const DAY_AHEAD = 5;

/** A tour with `capacity` seats at 10:00 and 14:00, sold out at 10:00 on day 5 by bookings of `parties` seats. */
async function soldOutTour(op: Operator, o: { capacity?: number; parties?: number[] } = {}) {
  const capacity = o.capacity ?? 3;
  const parties = o.parties ?? Array.from({ length: capacity }, () => 1);
  const tour = await tourItem(op, { capacity });
  const start = at(op.timezone, DAY_AHEAD, '10:00');
  const rentalIds: string[] = [];
  for (const n of parties) {
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: n }, paymentMethodId: 'pm_card_visa' }));
    expect(r.status, r.text).toBe(201);
    rentalIds.push(r.body.rentalId);
  }
  expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 } })), 409, 'unavailable');
  return { tour, start, date: dateAhead(op.timezone, DAY_AHEAD), rentalIds };
}

/** Joins for `time` (10:00 by default; null: any departure that date). */
async function joinTour(op: Operator, tour: TestItem, date: string, o: { time?: string | null; quantity?: number; tag?: string } = {}) {
  const p = person(o.tag);
  const time = o.time === null ? {} : { time: o.time ?? '10:00' };
  const r = await join({ ...p, date, ...time, inventoryId: tour.id, locationId: tour.locationId, ...(o.quantity ? { quantity: o.quantity } : {}) });
  expect(r.status, r.text).toBe(201);
  return { ...p, id: r.body.entryId as string };
}

const holdRow = (id: string) => env.DB.prepare('SELECT status, email, expires_at FROM holds WHERE id = ?').bind(id).first<any>();
const holdAllocs = (id: string) =>
  env.DB.prepare('SELECT kind, seats, active, asset_id, start, expires_at FROM allocations WHERE source_id = ?')
    .bind(id)
    .all<any>()
    .then((r) => r.results);
const offersOf = (customerId: string) =>
  env.DB.prepare('SELECT entry_id FROM waitlist_offers WHERE customer_id = ?')
    .bind(customerId)
    .all<any>()
    .then((r) => r.results.map((x: any) => x.entry_id as string));
const mails = (customerId: string, template: string) =>
  env.DB.prepare('SELECT "to", subject, body, metadata FROM message_outbox WHERE customer_id = ? AND template = ? ORDER BY created_at')
    .bind(customerId, template)
    .all<any>()
    .then((r) => r.results);
const seatsAt = async (itemId: string, startIso: string) => (await seatsByDeparture(itemId)).find((d) => d.start === Date.parse(startIso))?.seats ?? 0;

describe('POST /public/waitlist', () => {
  it('answers 400 on an empty body, listing every required field', async () => {
    const r = await join({});
    expectError(r, 400, 'validation_failed');
    expect(new Set(r.body.details.map((d: any) => d.field))).toEqual(new Set(['firstName', 'lastName', 'email', 'date', 'inventoryId', 'locationId']));
  });

  it('creates a waiting entry (anonymous), e-mails a confirmation, and answers a duplicate with 200', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const date = dateAhead(op.timezone, 3);
    const p = person();
    const body = {
      ...p,
      date,
      time: '14:00',
      inventoryId: tour.id,
      locationId: tour.locationId,
      customerId: op.customerId,
      quantity: 2,
      addons: [{ id: 'snorkel', qty: 1 }],
      giftCardCode: 'GIFT-1',
      refAffiliate: 'aff_9',
    };
    const r = await join(body);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      created: true,
      status: 'waiting',
      customerId: op.customerId,
      inventoryId: tour.id,
      locationId: tour.locationId,
      email: p.email,
      date,
      time: '14:00',
      quantity: 2,
      offer: null,
      addons: [{ id: 'snorkel', qty: 1 }],
      giftCardCode: 'GIFT-1',
      refAffiliate: 'aff_9',
    });
    expect(r.body.entryId).toMatch(/^wl_/);
    const joined = await mails(op.customerId, 'waitlist.joined');
    expect(joined.map((m: any) => m.to)).toEqual([p.email]);

    const again = await join({ ...body, email: p.email.toUpperCase(), quantity: 1 });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: false, entryId: r.body.entryId, quantity: 2 });
    // Another time of the same day is another entry; the same time without customerId is the same entry.
    expect((await join({ ...body, time: '10:00' })).status).toBe(201);
    const { customerId: _c, ...anonymous } = body;
    expect((await join(anonymous)).body.entryId).toBe(r.body.entryId);
    // Concurrent duplicates create one entry.
    const q = person('race');
    const rs = await Promise.all(Array.from({ length: 6 }, () => join({ ...body, ...q })));
    expect(rs.filter((x) => x.status === 201)).toHaveLength(1);
    expect(rs.filter((x) => x.status === 200)).toHaveLength(5);
    expect(new Set(rs.map((x) => x.body.entryId)).size).toBe(1);
  });

  it('validates dates, times, durations and quantities (400)', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const boat = await rentalItem(op, { assets: 1 });
    const date = dateAhead(op.timezone, 3);
    const t = { ...person(), date, inventoryId: tour.id, locationId: tour.locationId };
    const r = { ...person(), date, inventoryId: boat.id, locationId: boat.locationId };
    for (const bad of [
      { ...t, date: '2027-13-01' },
      { ...t, date: '2027-02-30' },
      { ...t, date: '06/01/2027' },
      { ...t, time: '11:00' },
      { ...t, time: '25:00' },
      { ...t, time: '10:00', quantity: 4 },
      { ...t, quantity: 0 },
      { ...t, email: 'not-an-email' },
      { ...t, firstName: '' },
      { ...r, time: '22:00' },
      { ...r, duration: 1.5 },
      { ...r, duration: '2' },
      { ...r, quantity: 2 },
    ]) {
      const res = await join(bad);
      expect(res.status, `${JSON.stringify(bad)}: ${res.text}`).toBe(400);
      expect(['validation_failed', 'bad_request']).toContain(res.body.error);
    }
    // A date already past at the location is 400 in_the_past.
    expectError(await join({ ...t, date: dateAhead(op.timezone, -1) }), 400, 'in_the_past');
    // Today's departure that has not left yet is fine; a rental with a time and duration is fine.
    expect((await join({ ...r, time: '10:00', duration: 3 })).status).toBe(201);
  });

  it('inventory, location and customer must belong together (404); a foreign customerId is 403', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const tour = await tourItem(op);
    const hidden = await rentalItem(op, { isPublic: false });
    const base = { ...person(), date: dateAhead(op.timezone, 2), inventoryId: tour.id, locationId: tour.locationId };
    expectError(await join({ ...base, locationId: other.locationId }), 404, 'not_found');
    expectError(await join({ ...base, inventoryId: 'inv_nope' }), 404, 'not_found');
    expectError(await join({ ...base, customerId: other.customerId }), 404, 'not_found');
    expectError(await join({ ...base, customerId: 'cus_nobody' }), 404, 'not_found');
    expectError(await join({ ...base, inventoryId: hidden.id, locationId: hidden.locationId }), 404, 'not_found');
    expect((await join({ ...base, inventoryId: hidden.id, locationId: hidden.locationId }, op.adminKey)).status).toBe(201);
    expectError(await join({ ...base, customerId: op.customerId }, other.adminKey), 403, 'forbidden');
    expectError(await join(base, other.adminKey), 404, 'not_found');
    expectError(await api('POST', '/public/waitlist', { body: base, key: 'brk_not_a_real_key_000000000000000000000' }), 401, 'unauthenticated');
    expect((await join(base, op.adminKey)).status).toBe(201);
  });
});

describe('operator endpoints', () => {
  it('are documented in /openapi.json with the statuses', async () => {
    const r = await get('/openapi.json');
    for (const p of ['/public/waitlist', '/waitlist', '/waitlist/{id}', '/waitlist/{id}/offer']) expect(r.body.paths[p], p).toBeDefined();
    expect(r.body.paths['/waitlist/{id}'].delete.description).toContain('`waiting`');
    expect(r.body.paths['/public/waitlist'].post.description).toContain('waitlist.offer');
  });

  it('GET /waitlist filters and paginates; GET /waitlist/{id}; both tenant-scoped', async () => {
    const op = await createOperator();
    const tour = await tourItem(op);
    const d2 = dateAhead(op.timezone, 2);
    const d3 = dateAhead(op.timezone, 3);
    const a = await joinTour(op, tour, d2);
    const b = await joinTour(op, tour, d2, { time: '14:00' });
    const c = await joinTour(op, tour, d3);
    const all = await get(`/waitlist?inventoryId=${tour.id}`, { key: op.adminKey });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((e: any) => e.entryId)).toEqual([a.id, b.id, c.id]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1 });
    const byDate = await get(`/waitlist?date=${d3}&status=waiting`, { key: op.adminKey });
    expect(byDate.body.data.map((e: any) => e.entryId)).toEqual([c.id]);
    const page2 = await get(`/waitlist?inventoryId=${tour.id}&limit=1&page=2`, { key: op.adminKey });
    expect(page2.body.data.map((e: any) => e.entryId)).toEqual([b.id]);
    expect(page2.body.pagination).toMatchObject({ total: 3, totalPages: 3 });
    expect((await get(`/waitlist?email=${encodeURIComponent(a.email)}`, { key: op.adminKey })).body.data.map((e: any) => e.entryId)).toEqual([a.id]);
    expectError(await get('/waitlist?status=pending', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/waitlist?limit=500', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/waitlist?date=2027-02-30', { key: op.adminKey }), 400, 'validation_failed');

    const one = await entryOf(op, a.id);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ entryId: a.id, status: 'waiting', email: a.email, firstName: 'Wanda', time: '10:00' });
    expectError(await entryOf(op, 'wl_nope'), 404, 'not_found');
    const intruder = await otherOperator();
    expect((await get(`/waitlist?inventoryId=${tour.id}`, { key: intruder.adminKey })).body.data).toEqual([]);

    await checkSecurity(op, { method: 'GET', path: '/waitlist' });
    await checkSecurity(op, { method: 'GET', path: `/waitlist/${a.id}`, otherStatus: 404 });
  });

  it('DELETE /waitlist/{id} cancels once; security', async () => {
    const op = await createOperator();
    const tour = await tourItem(op);
    const a = await joinTour(op, tour, dateAhead(op.timezone, 2));
    await checkSecurity(op, { method: 'DELETE', path: `/waitlist/${a.id}`, otherStatus: 404, adminOnly: true });
    const rs = await Promise.all(Array.from({ length: 4 }, () => del(`/waitlist/${a.id}`, undefined, { key: op.adminKey })));
    expect(rs.every((r) => r.status === 200)).toBe(true);
    expect(rs.filter((r) => r.body.alreadyCancelled === false)).toHaveLength(1);
    expect((await entryOf(op, a.id)).body).toMatchObject({ status: 'cancelled' });
    expect((await del(`/waitlist/${a.id}`, undefined, { key: op.adminKey })).body).toMatchObject({ status: 'cancelled', alreadyCancelled: true });
    // A cancelled entry no longer blocks joining again.
    const again = await join({
      firstName: 'Wanda',
      lastName: 'Waiter',
      email: a.email,
      date: dateAhead(op.timezone, 2),
      time: '10:00',
      inventoryId: tour.id,
      locationId: tour.locationId,
    });
    expect(again.status).toBe(201);
    expect(again.body.entryId).not.toBe(a.id);
    const audit = await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_logs WHERE customer_id = ? AND action = 'waitlist.cancel'")
      .bind(op.customerId)
      .first<any>();
    expect(audit.n).toBeGreaterThanOrEqual(1);
  });

  it('POST /waitlist/{id}/offer holds a free spot for the entry; 409 when offered already or sold out', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 1 });
    const date = dateAhead(op.timezone, 4);
    const a = await joinTour(op, tour, date, { time: '14:00' });
    await checkSecurity(op, { method: 'POST', path: `/waitlist/${a.id}/offer`, body: {}, otherStatus: 404, adminOnly: true });
    const r = await post(`/waitlist/${a.id}/offer`, {}, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'offered', offer: { startTime: at(op.timezone, 4, '14:00'), quantity: 1 } });
    expect(await holdRow(r.body.offer.offerId)).toMatchObject({ status: 'active', email: a.email });
    expectError(await post(`/waitlist/${a.id}/offer`, {}, { key: op.adminKey }), 409, 'invalid_state');
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '14:00'), tickets: { Adult: 1 } })), 409, 'unavailable');
    // Sold out: nothing to offer.
    const b = await joinTour(op, tour, date, { time: '14:00' });
    expectError(await post(`/waitlist/${b.id}/offer`, {}, { key: op.adminKey }), 409, 'unavailable');
    expect((await entryOf(op, b.id)).body.status).toBe('waiting');
    // Without a time a tour entry gets the first upcoming departure with room (10:00 here).
    const c = await joinTour(op, tour, date, { time: null });
    expect((await post(`/waitlist/${c.id}/offer`, {}, { key: op.adminKey })).body.offer.startTime).toBe(at(op.timezone, 4, '10:00'));
    // A rental entry without a time needs one.
    const boat = await rentalItem(op, { assets: 1 });
    const e = await join({ ...person(), date, inventoryId: boat.id, locationId: boat.locationId });
    expectError(await post(`/waitlist/${e.body.entryId}/offer`, {}, { key: op.adminKey }), 400, 'bad_request');
    const ok = await post(`/waitlist/${e.body.entryId}/offer`, { time: '09:00', duration: 2 }, { key: op.adminKey });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.offer).toMatchObject({ startTime: at(op.timezone, 4, '09:00'), endTime: at(op.timezone, 4, '11:00'), assetIds: boat.assetIds });
    expectError(await post(`/waitlist/${e.body.entryId}/offer`, { time: '9am' }, { key: op.adminKey }), 400, 'validation_failed');
  });
});

describe('the cascade', () => {
  it('a cancelled seat is offered to exactly the first entry, held against everyone else, bookable by that e-mail', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op);
    const first = await joinTour(op, tour, date, { tag: 'first' });
    const second = await joinTour(op, tour, date, { tag: 'second' });
    const otherTime = await joinTour(op, tour, date, { time: '14:00', tag: 'later' });

    expect((await cancelBooking(op, rentalIds[0])).status).toBe(200);
    const a = (await entryOf(op, first.id)).body;
    expect(a.status).toBe('offered');
    expect(a.offer).toMatchObject({ startTime: start, quantity: 1, assetIds: [] });
    const ttl = Date.parse(a.offer.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * HOUR);
    expect(ttl).toBeLessThanOrEqual(24 * HOUR);
    expect((await entryOf(op, second.id)).body.status).toBe('waiting');
    expect((await entryOf(op, otherTime.id)).body.status).toBe('waiting');
    expect(await holdRow(a.offer.offerId)).toMatchObject({ status: 'active', email: first.email });
    expect(await holdAllocs(a.offer.offerId)).toEqual([expect.objectContaining({ kind: 'hold', seats: 1, active: 1, start: Date.parse(start) })]);
    expect(await seatsAt(tour.id, start)).toBe(3);

    const offerMails = await mails(op.customerId, 'waitlist.offer');
    expect(offerMails).toHaveLength(1);
    expect(offerMails[0].to).toBe(first.email);
    expect(offerMails[0].body).toContain(a.offer.bookingUrl);
    for (const part of [`inventoryId=${tour.id}`, `date=${date}`, 'time=10%3A00', `waitlistEntryId=${first.id}`]) expect(a.offer.bookingUrl).toContain(part);

    // Nobody else can take the held seat, not even the next person on the waitlist.
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, email: email('third') })), 409, 'unavailable');
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, email: second.email })), 409, 'unavailable');
    // The offered person books it.
    const mine = await book(
      op,
      bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, email: first.email, paymentMethodId: 'pm_card_visa' }),
    );
    expect(mine.status, mine.text).toBe(201);
    expect(await seatsAt(tour.id, start)).toBe(3);
    expect((await holdRow(a.offer.offerId)).status).toBe('consumed');
    expect((await entryOf(op, first.id)).body).toMatchObject({ status: 'booked', bookedRentalId: mine.body.rentalId });
    expect((await get(`/waitlist?status=booked&inventoryId=${tour.id}`, { key: op.adminKey })).body.data.map((e: any) => e.entryId)).toEqual([first.id]);
    // The booked entry is final.
    expectError(await del(`/waitlist/${first.id}`, undefined, { key: op.adminKey }), 409, 'invalid_state');
    expect(await offersOf(op.customerId)).toEqual([first.id]);
  });

  it('an expired offer passes the spot to the next entry (cron), and the sweep marks booked offers', async () => {
    expect(cronJobNames('*/5 * * * *')).toContain('waitlist.sweep');
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op);
    const first = await joinTour(op, tour, date, { tag: 'first' });
    const second = await joinTour(op, tour, date, { tag: 'second' });
    await cancelBooking(op, rentalIds[0]);
    const offerA = (await entryOf(op, first.id)).body.offer;
    expect(offerA).not.toBeNull();

    const later = new Date(Date.now() + 25 * HOUR);
    const res = await runCron('*/5 * * * *', later);
    expect(res['waitlist.sweep']).toMatchObject({ expired: expect.any(Number) });
    const a = (await entryOf(op, first.id)).body;
    expect(a).toMatchObject({ status: 'expired' });
    expect(a.expiredAt).toBe(later.toISOString());
    expect((await holdAllocs(offerA.offerId)).every((x: any) => x.active === 0)).toBe(true);
    const b = (await entryOf(op, second.id)).body;
    expect(b.status).toBe('offered');
    expect(b.offer.startTime).toBe(start);
    expect(await seatsAt(tour.id, start)).toBe(3);
    expect((await mails(op.customerId, 'waitlist.offer')).map((m: any) => m.to)).toEqual([first.email, second.email]);
    // The first person's offer is gone: the seat is the second person's.
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, email: first.email })), 409, 'unavailable');
    expect((await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, email: second.email }))).status).toBe(201);
    await runCron('*/5 * * * *');
    const row = await env.DB.prepare('SELECT status FROM waitlist_entries WHERE id = ?').bind(second.id).first<any>();
    expect(row.status).toBe('booked');
    // An entry is offered once: the expired one never comes back.
    expect((await offersOf(op.customerId)).sort()).toEqual([first.id, second.id].sort());
  });

  it('closes waiting entries whose date has passed', async () => {
    const op = await createOperator();
    const tour = await tourItem(op);
    const soon = await joinTour(op, tour, dateAhead(op.timezone, 1));
    const far = await joinTour(op, tour, dateAhead(op.timezone, 10));
    await runCron('*/5 * * * *', new Date(wallTimeToUtc(dateAhead(op.timezone, 2), '12:00', op.timezone)));
    expect((await entryOf(op, soon.id)).body).toMatchObject({ status: 'closed' });
    expect((await entryOf(op, far.id)).body.status).toBe('waiting');
  });

  it('cancelling twice or concurrently never produces two offers for one seat', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op);
    const ids = [];
    for (const tag of ['a', 'b', 'c', 'd']) ids.push((await joinTour(op, tour, date, { tag })).id);

    const first = await Promise.all(Array.from({ length: 5 }, () => cancelBooking(op, rentalIds[0])));
    expect(first.every((r) => r.status === 200)).toBe(true);
    expect(await offersOf(op.customerId)).toEqual([ids[0]]);

    // Two different bookings cancelled at once (and repeated): two more offers, one per seat.
    await Promise.all([rentalIds[1], rentalIds[2], rentalIds[1], rentalIds[2]].map((id) => cancelBooking(op, id)));
    expect((await offersOf(op.customerId)).sort()).toEqual(ids.slice(0, 3).sort());
    expect((await entryOf(op, ids[3])).body.status).toBe('waiting');
    expect(await seatsAt(tour.id, start)).toBe(3);
    // One hold and one offer e-mail per offered entry, never two.
    const emails = (await Promise.all(ids.slice(0, 3).map((id) => entryOf(op, id)))).map((r) => r.body.email).sort();
    const holdsByEmail = await env.DB.prepare(
      "SELECT email, COUNT(*) AS n FROM holds WHERE customer_id = ? AND status = 'active' GROUP BY email ORDER BY email",
    )
      .bind(op.customerId)
      .all<any>();
    expect(holdsByEmail.results).toEqual(emails.map((e) => ({ email: e, n: 1 })));
    expect((await mails(op.customerId, 'waitlist.offer')).map((m: any) => m.to).sort()).toEqual(emails);

    // The cascade itself racing for the same spot: nothing more is free, nothing more is offered.
    const spot = {
      customerId: op.customerId,
      itemId: tour.id,
      start: Date.parse(start),
      end: Date.parse(start) + 2 * HOUR,
      trigger: 'released' as const,
      triggerSourceId: rentalIds[0],
    };
    const rs = await Promise.all(Array.from({ length: 5 }, () => cascadeSpot(env, spot)));
    expect(rs.flatMap((r) => r.offered)).toEqual([]);
    expect(await seatsAt(tour.id, start)).toBe(3);
  });

  it('parallel cascades for one freed seat offer it once', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op);
    const ids = [];
    for (const tag of ['a', 'b', 'c']) ids.push((await joinTour(op, tour, date, { tag })).id);
    // Free one seat without the hook (as if the release and the cascade were separate), then race cascades.
    await env.DB.prepare('UPDATE allocations SET active = 0 WHERE source_id = ?').bind(rentalIds[0]).run();
    const spot = {
      customerId: op.customerId,
      itemId: tour.id,
      start: Date.parse(start),
      end: Date.parse(start) + 2 * HOUR,
      trigger: 'released' as const,
      triggerSourceId: rentalIds[0],
    };
    const rs = await Promise.all(Array.from({ length: 6 }, () => cascadeSpot(env, spot)));
    expect(rs.flatMap((r) => r.offered)).toEqual([ids[0]]);
    expect(await offersOf(op.customerId)).toEqual([ids[0]]);
    expect(await seatsAt(tour.id, start)).toBe(3);
  });

  it('the queue is strict and respects party sizes', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op, { capacity: 3, parties: [1, 2] });
    const pair = await joinTour(op, tour, date, { quantity: 2, tag: 'pair' });
    const solo = await joinTour(op, tour, date, { tag: 'solo' });
    // One seat back: the pair at the head does not fit, and the solo behind it waits its turn.
    await cancelBooking(op, rentalIds[0]);
    expect((await entryOf(op, pair.id)).body.status).toBe('waiting');
    expect((await entryOf(op, solo.id)).body.status).toBe('waiting');
    // Two more: the pair gets two seats, then the solo the last one.
    await cancelBooking(op, rentalIds[1]);
    const p = (await entryOf(op, pair.id)).body;
    expect(p).toMatchObject({ status: 'offered', offer: { quantity: 2 } });
    expect((await holdAllocs(p.offer.offerId)).length).toBe(2);
    expect((await entryOf(op, solo.id)).body.status).toBe('offered');
    expect(await seatsAt(tour.id, start)).toBe(3);
    // The pair books both held seats.
    expect((await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 2 }, email: pair.email }))).status).toBe(201);
    expect(await seatsAt(tour.id, start)).toBe(3);
  });

  it('cancelling an offered entry releases its hold to the next entry', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op, { capacity: 1 });
    const a = await joinTour(op, tour, date, { tag: 'a' });
    const b = await joinTour(op, tour, date, { tag: 'b' });
    await cancelBooking(op, rentalIds[0]);
    const offerA = (await entryOf(op, a.id)).body.offer;
    const r = await del(`/waitlist/${a.id}`, undefined, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'cancelled', alreadyCancelled: false });
    expect((await holdRow(offerA.offerId)).status).toBe('released');
    expect((await entryOf(op, b.id)).body).toMatchObject({ status: 'offered', offer: { startTime: start } });
    expect(await seatsAt(tour.id, start)).toBe(1);
  });

  it('an entry without a time is offered whichever departure of its date frees a seat', async () => {
    const op = await createOperator();
    const { tour, start, date, rentalIds } = await soldOutTour(op, { capacity: 1 });
    const other = await joinTour(op, tour, dateAhead(op.timezone, DAY_AHEAD + 1), { time: null, tag: 'other-day' });
    const any = await joinTour(op, tour, date, { time: null, tag: 'any' });
    await cancelBooking(op, rentalIds[0]);
    expect((await entryOf(op, any.id)).body).toMatchObject({ status: 'offered', time: null, offer: { startTime: start } });
    expect((await entryOf(op, other.id)).body.status).toBe('waiting');
  });

  it('rentals: a released window is offered to a matching entry with the unit held', async () => {
    const op = await createOperator();
    const boat = await rentalItem(op, { assets: 1 });
    const from = at(op.timezone, DAY_AHEAD, '10:00');
    const to = at(op.timezone, DAY_AHEAD, '12:00');
    const b = await book(op, bookBody({ inventoryId: boat.id, startTime: from, endTime: to }));
    expect(b.status, b.text).toBe(201);
    const date = dateAhead(op.timezone, DAY_AHEAD);
    const elsewhere = await join({ ...person('evening'), date, time: '15:00', duration: 2, inventoryId: boat.id, locationId: boat.locationId });
    const w = person('rental');
    const e = await join({ ...w, date, time: '10:00', duration: 2, inventoryId: boat.id, locationId: boat.locationId });
    expect(e.status, e.text).toBe(201);
    await cancelBooking(op, b.body.rentalId);
    const offered = (await entryOf(op, e.body.entryId)).body;
    expect(offered).toMatchObject({ status: 'offered', offer: { startTime: from, endTime: to, assetIds: boat.assetIds } });
    // The 15:00 entry does not overlap the freed window: it keeps waiting.
    expect((await entryOf(op, elsewhere.body.entryId)).body.status).toBe('waiting');
    expectError(await book(op, bookBody({ inventoryId: boat.id, startTime: from, endTime: to, email: email('walkin') })), 409, 'unavailable');
    expect((await book(op, bookBody({ inventoryId: boat.id, startTime: from, endTime: to, email: w.email }))).status).toBe(201);
    expect((await entryOf(op, e.body.entryId)).body.status).toBe('booked');
  });

  it('a reseller channel cancellation cascades too', async () => {
    const op = await createOperator({ timezone: 'America/New_York' });
    const tour = await chf.tourItem(op, { capacity: 1, slots: ['10:00'] });
    const { key } = await chf.partnerKey(op);
    const startTime = chf.at('America/New_York', 6, '10:00');
    const sale = await post(
      '/channel/v1/bookings',
      {
        productId: tour.id,
        startTime,
        quantity: 1,
        totalPrice: 45,
        reference: 'OTA-W1',
        guest: { firstName: 'Gail', lastName: 'Guest', email: email('gail') },
      },
      chf.idem(key, `wl-${crypto.randomUUID()}`),
    );
    expect(sale.status, sale.text).toBe(201);
    const date = new Date(Date.parse(startTime)).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    const w = person('channel');
    const e = await join({ ...w, date, time: '10:00', inventoryId: tour.id, locationId: op.locationId });
    expect(e.status, e.text).toBe(201);
    const c = await del(`/channel/v1/bookings/${sale.body.bookingId}`, undefined, chf.ch(key));
    expect(c.status, c.text).toBe(200);
    const offered = (await entryOf(op, e.body.entryId)).body;
    expect(offered).toMatchObject({ status: 'offered', offer: { startTime } });
    expect((await mails(op.customerId, 'waitlist.offer')).map((m: any) => m.to)).toEqual([w.email]);
  });
});

// ------------------------------------------------------------------------------------------------
// On the operator's clock (a sandbox test clock): the past is refused, offers expire at their time.

describe("on the operator's clock", () => {
  const NY = 'America/New_York';
  const T0 = '2027-01-14T17:00:00.000Z'; // Thu 14 Jan 2027, 12:00 in New York
  const wall = (date: string, time: string) => new Date(wallTimeToUtc(date, time, NY)).toISOString();

  it('joins and offers for a date, departure or time already past answer 400 in_the_past', async () => {
    const op = await createOperator({ clockAt: T0, timezone: NY });
    const tour = await tourItem(op);
    const boat = await rentalItem(op, { assets: 1 });
    const onTour = { inventoryId: tour.id, locationId: tour.locationId };
    const onBoat = { inventoryId: boat.id, locationId: boat.locationId };
    expectError(await join({ ...person(), ...onTour, date: '2027-01-13' }), 400, 'in_the_past');
    expectError(await join({ ...person(), ...onTour, date: '2027-01-14', time: '10:00' }), 400, 'in_the_past'); // left at 10:00; it is 12:00
    expectError(await join({ ...person(), ...onBoat, date: '2027-01-14', time: '09:00' }), 400, 'in_the_past');
    expect((await join({ ...person(), ...onTour, date: '2027-01-14', time: '14:00' })).status).toBe(201);

    // Manual offers of a departure or a start already past.
    const anyDeparture = await join({ ...person('any'), ...onTour, date: '2027-01-14' });
    expect(anyDeparture.status, anyDeparture.text).toBe(201);
    expectError(await post(`/waitlist/${anyDeparture.body.entryId}/offer`, { time: '10:00' }, { key: op.adminKey }), 400, 'in_the_past');
    const boatToday = await join({ ...person('boat'), ...onBoat, date: '2027-01-14' });
    expect(boatToday.status, boatToday.text).toBe(201);
    expectError(await post(`/waitlist/${boatToday.body.entryId}/offer`, { time: '09:00', duration: 2 }, { key: op.adminKey }), 400, 'in_the_past');

    // An entry whose date passed before the sweep closed it (the clock moved on without its jobs): in_the_past, nothing held.
    const tomorrow = await join({ ...person('tomorrow'), ...onBoat, date: '2027-01-15', time: '10:00', duration: 2 });
    expect(tomorrow.status, tomorrow.text).toBe(201);
    await db().update(testClocks).set({ frozenTime: '2027-01-16T17:00:00.000Z' }).where(eq(testClocks.id, op.clockId!));
    expectError(await post(`/waitlist/${tomorrow.body.entryId}/offer`, {}, { key: op.adminKey }), 400, 'in_the_past');
    expect((await entryOf(op, tomorrow.body.entryId)).body.status).toBe('waiting');
  });

  it('an offer expires at its expiry as the clock advances and passes to the next entry; the e-mails read local time', async () => {
    const op = await createOperator({ clockAt: T0, timezone: NY });
    const tour = await tourItem(op, { capacity: 1 });
    const start = wall('2027-01-17', '10:00');
    const sold = await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 }, paymentMethodId: 'pm_card_visa' }));
    expect(sold.status, sold.text).toBe(201);
    const first = await joinTour(op, tour, '2027-01-17', { tag: 'first' });
    const second = await joinTour(op, tour, '2027-01-17', { tag: 'second' });
    const joined = await mails(op.customerId, 'waitlist.joined');
    expect(joined[0].subject).toBe('You are on the waitlist: Dolphin tour on Sun 17 Jan 2027, 10:00 EST');

    expect((await cancelBooking(op, sold.body.rentalId)).status).toBe(200);
    const offer = (await entryOf(op, first.id)).body.offer;
    expect(offer).toMatchObject({ startTime: start, expiresAt: '2027-01-15T17:00:00.000Z' }); // 24 hours on the operator's clock
    const [mail] = await mails(op.customerId, 'waitlist.offer');
    expect(mail.subject).toBe('A spot opened up: Dolphin tour on Sun 17 Jan 2027, 10:00 EST');
    expect(mail.body).toContain('is held for you until Fri 15 Jan 2027, 12:00 EST.');
    for (const m of [...joined, mail]) expect(`${m.subject} ${m.body}`).not.toMatch(ISO_TIMESTAMP);

    expect((await advanceClock(op.clockId!, '2027-01-15T18:00:00.000Z', op.adminKey)).status).toBe('ready');
    expect((await entryOf(op, first.id)).body).toMatchObject({ status: 'expired', expiredAt: offer.expiresAt });
    const next = (await entryOf(op, second.id)).body;
    expect(next).toMatchObject({ status: 'offered', offer: { startTime: start, expiresAt: '2027-01-16T17:00:00.000Z' } });
    // After the departure's day the sweep closes what still waits (at the end of that local day).
    const late = await joinTour(op, tour, '2027-01-17', { time: '14:00', tag: 'late' });
    expect((await advanceClock(op.clockId!, '2027-01-18T06:00:00.000Z', op.adminKey)).status).toBe('ready');
    expect((await entryOf(op, late.id)).body.status).toBe('closed');
  });
});
