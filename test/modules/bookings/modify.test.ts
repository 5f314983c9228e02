/**
 * POST /coreBooking/{rentalId}/modify (issue 31 "Changes reprice"): a change of the party, the add-ons
 * (and the time) is repriced like a new booking of the changed shape; the ledger follows (the old
 * charges reversed, the new ones written); the difference is charged to the card on file or refunded to
 * it; `keepPrice` keeps the price and says so; a tour's extra seats are taken inside the item's lock; the
 * renter is e-mailed what changed; bad input changes nothing.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { ModifyResult } from '../../../src/modules/bookings/schemas';
import { at, book, bookBody, eventsOf, everyDay, ledgerBalance, rentalItem, seatsByDeparture, tourItem, type TestItem } from './factories';

const ADDONS = [
  { addonId: 'cooler', name: 'Cooler', price: 20, priceType: 'flat' as const },
  { addonId: 'photos', name: 'Photo package', price: 15, priceType: 'flat' as const },
];

let op: Operator;
let boat: TestItem;
let tour: TestItem;
beforeAll(async () => {
  op = await createOperator();
  // 100 an hour, 4 people a boat; the tour: 4 seats a departure, Adult 50.
  boat = await rentalItem(op, { data: { capacity: 4, addons: ADDONS } });
  tour = await tourItem(op, { capacity: 4, data: { addons: ADDONS } });
});

const modify = (rentalId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  post(`/coreBooking/${rentalId}/modify`, body, { key: op.adminKey, headers });

async function bookBoat(day: number, extra: Record<string, unknown> = {}) {
  const r = await book(op, bookBody({ inventoryId: boat.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00'), extra }));
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function bookTour(day: number, tickets: Record<string, number>) {
  const r = await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, day, '10:00'), tickets }));
  expect(r.status, r.text).toBe(201);
  return r.body;
}

const changeMails = async (rentalId: string) =>
  (
    await env.DB.prepare("SELECT body FROM message_outbox WHERE template = 'booking.changed' AND json_extract(metadata, '$.rentalId') = ?")
      .bind(rentalId)
      .all<{ body: string }>()
  ).results;

describe('POST /coreBooking/{rentalId}/modify', () => {
  it("a tour's party grows: more seats in the lock, the higher price charged to the card, the renter told; a replayed key charges once", async () => {
    const b = await bookTour(3, { Adult: 2 });
    expect(b.pricing).toMatchObject({ total: 100, amountPaid: 100 });
    const key = { 'idempotency-key': `modify-${b.rentalId}` };
    const r = await modify(b.rentalId, { tickets: { Adult: 3 }, chargeDifference: true }, key);
    expect(r.status, r.text).toBe(200);
    expect(ModifyResult.safeParse(r.body).success).toBe(true);
    expect(r.body).toMatchObject({ participants: 3, quantity: 3, rentalDetails: { tickets: { Adult: 3 } } });
    expect(r.body.pricing).toMatchObject({ total: 150, amountPaid: 150, balanceDue: 0 });
    expect(r.body.pricing.change).toMatchObject({ priceKept: false, previousTotal: 100, newTotal: 150, difference: 50, settlement: 'charged', amount: 50 });
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    expect(await seatsByDeparture(tour.id)).toEqual([expect.objectContaining({ seats: 3 })]);
    const [mail] = await changeMails(b.rentalId);
    expect(mail.body).toContain('Party: 3 Adult (was 2 Adult)');
    expect(mail.body).toContain('We charged 50.00 USD to the card on file.');
    const updated = (await eventsOf(op.customerId, 'booking.updated')).find((e) => e.payload.data.rentalId === b.rentalId)!;
    expect(updated.payload.data.change.price).toMatchObject({ previousTotal: 100, newTotal: 150 });

    const again = await modify(b.rentalId, { tickets: { Adult: 3 }, chargeDifference: true }, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.pricing.change.paymentIntentId).toBe(r.body.pricing.change.paymentIntentId);
    const charges = (await eventsOf(op.customerId, 'payment.completed')).filter(
      (e) => e.payload.data.rentalId === b.rentalId && e.payload.data.kind === 'booking_change',
    );
    expect(charges).toHaveLength(1);
  });

  it("an add-on removed: the lower price refunded to the card; the rental's party changes within its capacity", async () => {
    const b = await bookBoat(4, { selectedBoatAddons: [{ addonId: 'cooler' }] });
    expect(b.pricing.total).toBe(220);
    const r = await modify(b.rentalId, { addons: [], participants: 3 });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ participants: 3, addons: [], rentalDetails: { participants: 3, addons: [] } });
    expect(r.body.pricing).toMatchObject({ total: 200, amountPaid: 200, balanceDue: 0 });
    expect(r.body.pricing.change).toMatchObject({ difference: -20, settlement: 'refunded', amount: 20 });
    expect(r.body.pricing.change.refundId).toBeTruthy();
    const intent = await env.DB.prepare('SELECT amount_refunded FROM sim_payment_intents WHERE id = ?')
      .bind(b.paymentIntentId)
      .first<{ amount_refunded: number }>();
    expect(intent!.amount_refunded).toBe(2000);
    expect(await ledgerBalance(b.rentalId)).toBe(0);
    // The old add-on's charge is reversed in the ledger; the rental's own is rewritten.
    const cooler = await env.DB.prepare("SELECT amount FROM ledger_entries WHERE rental_id = ? AND description LIKE '%Cooler%' ORDER BY amount")
      .bind(b.rentalId)
      .all<{ amount: number }>();
    expect(cooler.results.map((e) => e.amount)).toEqual([-2000, 2000]);
  });

  it('keepPrice: true keeps the price while the add-ons change, and says so; a later change reprices them', async () => {
    const b = await bookBoat(5);
    const kept = await modify(b.rentalId, { addons: [{ addonId: 'photos' }], keepPrice: true });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.pricing).toMatchObject({ total: 200, balanceDue: 0 });
    expect(kept.body.pricing.change).toMatchObject({ priceKept: true, keptReason: 'requested', difference: 0, settlement: 'none' });
    expect(kept.body.extendedData).toMatchObject({ priceKept: true });
    expect(kept.body.addons).toEqual([expect.objectContaining({ addonId: 'photos', quantity: 1, amount: 15 })]);
    const repriced = await modify(b.rentalId, { participants: 2 });
    expect(repriced.status, repriced.text).toBe(200);
    expect(repriced.body.pricing).toMatchObject({ total: 215, balanceDue: 15 });
    expect(repriced.body.pricing.change).toMatchObject({ priceKept: false, difference: 15, settlement: 'balance_due' });
    expect(repriced.body.extendedData.priceKept).toBeUndefined();
    expect(await ledgerBalance(b.rentalId)).toBe(1500);
  });

  it('bad input is refused and changes nothing: unknown add-on, a party over capacity, tickets on a rental, both party fields', async () => {
    const b = await bookBoat(6);
    const unknown = await modify(b.rentalId, { addons: [{ addonId: 'jetpack' }] });
    expectError(unknown, 400, 'bad_request');
    expect(unknown.body.details).toEqual([expect.objectContaining({ field: 'addons' })]);
    const crowd = await modify(b.rentalId, { participants: 5 });
    expectError(crowd, 400, 'bad_request');
    expect(crowd.body.details).toEqual([expect.objectContaining({ field: 'participants' })]);
    expectError(await modify(b.rentalId, { tickets: { Adult: 2 } }), 400, 'bad_request');
    expectError(await modify(b.rentalId, { tickets: { Adult: 2 }, participants: 2 }), 400, 'validation_failed');
    const t = await bookTour(6, { Adult: 3 });
    expectError(await modify(t.rentalId, { tickets: { Adult: 0 } }), 400, 'bad_request');
    const full = await modify(t.rentalId, { tickets: { Adult: 5 } });
    expectError(full, 409, 'unavailable');
    for (const id of [b.rentalId, t.rentalId]) expect((await get(`/coreBooking/${id}`, { key: op.adminKey })).body.version).toBe(1);
    expect([...(await changeMails(b.rentalId)), ...(await changeMails(t.rentalId))]).toEqual([]);
  });

  it("another item: reserved in its lock and priced at its prices, the old item's time released; taken answers 409 like a sale", async () => {
    // One bigger boat at 150 an hour.
    const big = await rentalItem(op, {
      data: { name: 'Cruiser 30', capacity: 8, seasons: [{ name: 'Default', dailyPrices: everyDay(600), hourlyPrices: everyDay({ basePrice: 150 }) }] },
    });
    const b = await bookBoat(8);
    const r = await modify(b.rentalId, { inventoryId: big.id, chargeDifference: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ inventoryId: big.id, assetIds: big.assetIds, rentalDetails: { inventoryId: big.id, itemName: 'Cruiser 30' } });
    expect(r.body.pricing.change).toMatchObject({ previousTotal: 200, newTotal: 300, settlement: 'charged', amount: 100 });
    expect(r.body.money).toMatchObject({ total: 300, paid: 300, balance: 0 });
    const active = await env.DB.prepare('SELECT item_id FROM allocations WHERE source_id = ? AND active = 1').bind(b.rentalId).all<{ item_id: string }>();
    expect(active.results.map((a) => a.item_id)).toEqual([big.id]);
    const [mail] = await changeMails(b.rentalId);
    expect(mail.body).toContain('Cruiser 30');
    // The cruiser is taken at that time now: another booking moved onto it is refused, nothing written; the old boat is free again.
    const other = await bookBoat(8);
    expectError(await modify(other.rentalId, { inventoryId: big.id }), 409, 'unavailable');
    expect((await get(`/coreBooking/${other.rentalId}`, { key: op.adminKey })).body).toMatchObject({ inventoryId: boat.id, version: 1 });
    expectError(await modify(other.rentalId, { inventoryId: tour.id }), 400, 'bad_request');
  });

  it('needs credentials, the operator and the bookings permission', async () => {
    const b = await bookBoat(7);
    await checkSecurity(op, { method: 'POST', path: `/coreBooking/${b.rentalId}/modify`, body: { participants: 2 }, otherStatus: 404, adminOnly: true });
    expect((await get(`/coreBooking/${b.rentalId}`, { key: op.adminKey })).body.version).toBe(1);
  });

  it('/openapi.json documents the operator change and the renter change and its quote', async () => {
    const doc = (await get('/openapi.json')).body;
    const modifyOp = doc.paths['/coreBooking/{rentalId}/modify'].post;
    expect(modifyOp.description).toMatch(/keepPrice/);
    expect(Object.keys(doc.components.schemas.ModifyBooking.properties)).toEqual(expect.arrayContaining(['participants', 'tickets', 'addons', 'startTime']));
    for (const path of ['/public/bookings/{rentalId}/change-quote', '/public/bookings/{rentalId}/change'])
      expect(doc.paths[path].post.description, path).toMatch(/not_changeable/);
  });
});
