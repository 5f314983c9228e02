/**
 * The renter's self-service change (issue 32 with issue 31's "Changes reprice"): with the session of the
 * e-mailed code, the renter quotes and makes a change of the date and time, party and add-ons; the quote
 * and the change agree; the difference is charged to the card the booking was paid with (a decline changes
 * nothing); the operator's rules (the cutoff) hold; a renter and an operator racing for the last seats of a
 * departure: one wins and both ledgers add up.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post, type Operator } from '../../harness';
import { locations } from '../../../src/db/schema/locations';
import { at, book, bookBody, ledgerBalance, rentalItem, seatsByDeparture, tourItem, type TestItem } from '../bookings/factories';
import { ALL_DAY, paidBooking, sessionToken } from './factories';

let op: Operator;
let boat: TestItem;
beforeAll(async () => {
  op = await createOperator();
  boat = await rentalItem(op, { data: { ...ALL_DAY, capacity: 4, addons: [{ addonId: 'cooler', name: 'Cooler', price: 20, priceType: 'flat' }] } });
});

const headers = (token?: string): Record<string, string> => (token ? { 'x-renter-token': token } : {});
const quote = (rentalId: string, body: Record<string, unknown>, token?: string) =>
  post(`/public/bookings/${rentalId}/change-quote`, body, { headers: headers(token) });
const change = (rentalId: string, body: Record<string, unknown>, token?: string) =>
  post(`/public/bookings/${rentalId}/change`, body, { headers: headers(token) });

/** The booking's ledger balance and the operator's view of it (cents): they must agree. */
async function money(rentalId: string) {
  const [view, balance] = await Promise.all([get(`/coreBooking/${rentalId}`, { key: op.adminKey }), ledgerBalance(rentalId)]);
  return { balance, viewBalance: Math.round((view.body.pricing.total - view.body.pricing.amountPaid) * 100), view: view.body };
}

describe('POST /public/bookings/{rentalId}/change-quote and /change', () => {
  it('quotes a new time, party and add-on, then makes exactly that change: the difference charged to the card, every view following', async () => {
    const { rentalId } = await paidBooking(op, { item: boat, day: 3 });
    const token = await sessionToken(op, rentalId);
    const now = await quote(rentalId, {}, token);
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({ unchanged: true, kind: 'rental', inventoryId: boat.id, current: { total: 200, addons: [] } });
    const body = { startTime: at(op.timezone, 4, '09:00'), endTime: at(op.timezone, 4, '12:00'), participants: 3, addons: [{ addonId: 'cooler' }] };
    const q = await quote(rentalId, body, token);
    expect(q.status, q.text).toBe(200);
    expect(q.body).toMatchObject({ unchanged: false, proposed: { participants: 3, total: 320, addons: [{ addonId: 'cooler', name: 'Cooler', quantity: 1 }] } });
    expect(q.body.change).toMatchObject({ previousTotal: 200, newTotal: 320, difference: 120, settlement: 'charged', amount: 120 });
    expect(Date.parse(q.body.changeableUntil)).toBe(Date.parse(at(op.timezone, 3, '10:00')));

    const c = await change(rentalId, body, token);
    expect(c.status, c.text).toBe(200);
    const fields = ['previousTotal', 'newTotal', 'difference', 'settlement', 'amount'];
    expect(Object.fromEntries(fields.map((f) => [f, c.body.change[f]]))).toEqual(Object.fromEntries(fields.map((f) => [f, q.body.change[f]])));
    expect(c.body.booking).toEqual({ ...q.body.proposed, startTime: new Date(body.startTime).toISOString(), endTime: new Date(body.endTime).toISOString() });
    expect(c.body.pricing).toMatchObject({ total: 320, amountPaid: 320, balanceDue: 0 });
    const m = await money(rentalId);
    expect(m.balance).toBe(0);
    expect(m.view).toMatchObject({ participants: 3, startTime: new Date(body.startTime).toISOString(), version: 2 });
    const renterView = await get(`/public/order/${rentalId}`);
    const t = renterView.body.totals ?? renterView.body;
    expect([t.total, t.amountPaid, t.balanceDue]).toEqual([320, 320, 0]);
    // The session stays usable: the same change again changes nothing.
    const same = await change(rentalId, body, token);
    expect(same.status, same.text).toBe(200);
    expect(same.body.change).toMatchObject({ difference: 0, settlement: 'none' });
    expect((await money(rentalId)).view.version).toBe(2);
  });

  it('needs a verified-code session (401), refuses after the cutoff (409 not_changeable), and a declined card changes nothing (402)', async () => {
    const { rentalId } = await paidBooking(op, { item: boat, day: 5 });
    for (const r of [await quote(rentalId, { participants: 2 }), await change(rentalId, { participants: 2 }, 'rst_' + 'x'.repeat(40))])
      expectError(r, 401, 'renter_session_invalid');
    // Online changes close 48 hours before the start at this dock.
    const dock = await rentalItem(op, { timezone: 'America/Chicago', data: { ...ALL_DAY, addons: [{ addonId: 'cooler', name: 'Cooler', price: 20 }] } });
    await db()
      .update(locations)
      .set({ details: { cancellationPolicy: { cutoffHours: 48 } } })
      .where(eq(locations.id, dock.locationId));
    const soon = await paidBooking(op, { item: dock, start: at(dock.timezone, 1, '10:00'), end: at(dock.timezone, 1, '12:00') });
    const late = await quote(soon.rentalId, { participants: 2 }, await sessionToken(op, soon.rentalId));
    expectError(late, 409, 'not_changeable');
    expect(late.body.reason).toBe('past_cutoff');
    // The card the booking was paid with now declines: the higher price is refused, nothing changes.
    const token = await sessionToken(op, rentalId);
    const { paymentIntentId } = (await money(rentalId)).view;
    await env.DB.prepare("UPDATE sim_payment_intents SET payment_method_id = 'pm_card_chargeDeclined' WHERE id = ?").bind(paymentIntentId).run();
    const declined = await change(rentalId, { addons: [{ addonId: 'cooler' }] }, token);
    expectError(declined, 402, 'payment_failed');
    const after = await money(rentalId);
    expect(after.view).toMatchObject({ version: 1, addons: [], pricing: { total: 200 } });
    expect(after.balance).toBe(0);
  });

  it('a renter and the operator racing for the last seats of a departure: exactly one wins, and both ledgers add up', async () => {
    const tour = await tourItem(op, { capacity: 4 });
    const start = at(op.timezone, 6, '10:00');
    const mine = await paidBooking(op, { item: tour, start, end: at(op.timezone, 6, '12:00') });
    const theirs = await book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 } }));
    expect(theirs.status, theirs.text).toBe(201);
    const token = await sessionToken(op, mine.rentalId);
    const rs = await Promise.all([
      change(mine.rentalId, { participants: 3 }, token),
      post(`/coreBooking/${theirs.body.rentalId}/modify`, { tickets: { Adult: 3 }, chargeDifference: true }, { key: op.adminKey }),
    ]);
    expect(rs.map((r) => r.status).sort(), rs.map((r) => r.text).join('\n')).toEqual([200, 409]);
    expect(rs.find((r) => r.status === 409)!.body.error).toBe('unavailable');
    expect(await seatsByDeparture(tour.id)).toEqual([expect.objectContaining({ seats: 4 })]);
    for (const id of [mine.rentalId, theirs.body.rentalId]) {
      const m = await money(id);
      expect(m.balance, id).toBe(m.viewBalance);
      expect(m.balance, id).toBe(0);
    }
  });
});
