/**
 * Issue 34: a tour's minimum party is refused naming the request's own fields on every path that
 * produces it: the operator's `rentalDetails.tickets` / `rentalDetails.quantity` (a multi-item order's
 * `rentalDetails.items.<i>.tickets`), the channel's and the widget's top-level `tickets` / `quantity`.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, post, type ApiResult } from '../../harness';
import { at, book, bookBody, dateAhead, tourItem } from './factories';
import { connect, idem, platform } from '../channel/factories';
import { configureMarketplace, reserve } from '../marketplace/factories';

const TZ = 'America/New_York';
const MIN = { tourPricing: { priceTiers: [{ name: 'Adult', price: 50 }], minParticipants: 3, isPrivate: false } };

/** A 400 whose details name exactly `field` for the party, and never the operator's internals on another path. */
function expectPartyRefusal(r: ApiResult, field: string) {
  expectError(r, 400, 'bad_request');
  expect(r.body.message).toBe('This tour runs for parties of at least 3');
  expect(r.body.details).toEqual([expect.objectContaining({ field, message: 'at least 3 participants' })]);
}

describe('The tour minimum-party refusal names the request fields', () => {
  it('operator booking: rentalDetails.tickets, rentalDetails.quantity, rentalDetails.items.<i>.tickets', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 20, data: MIN });
    const startTime = at(TZ, 5, '10:00');
    expectPartyRefusal(await book(op, bookBody({ inventoryId: tour.id, startTime, tickets: { Adult: 2 } })), 'rentalDetails.tickets');
    expectPartyRefusal(await book(op, bookBody({ inventoryId: tour.id, startTime, quantity: 1 })), 'rentalDetails.quantity');
    const items = bookBody({ rentalDetails: { items: [{ inventoryId: tour.id, startTime, tickets: { Adult: 1 } }] } });
    expectPartyRefusal(await book(op, items), 'rentalDetails.items.0.tickets');
    const ok = await book(op, bookBody({ inventoryId: tour.id, startTime, tickets: { Adult: 3 } }));
    expect(ok.status, ok.text).toBe(201);
  });

  it('channel booking: the body fields tickets and quantity', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 20, data: MIN });
    const p = await platform();
    await connect(op, p.channelId, 10);
    const startTime = at(TZ, 5, '14:00');
    const sale = (o: Record<string, unknown>) => ({ productId: tour.id, startTime, totalPrice: 50, reference: 'MIN-PARTY', ...o });
    expectPartyRefusal(await post('/channel/v1/bookings', sale({ quantity: 1 }), idem(p.keys.live, 'min-q')), 'quantity');
    expectPartyRefusal(
      await post('/channel/v1/bookings', sale({ quantity: 2, tickets: { Adult: 2 }, totalPrice: 100 }), idem(p.keys.live, 'min-t')),
      'tickets',
    );
  });

  it('widget quote: the order fields tickets and quantity', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 20, data: MIN });
    const order = { customerId: op.customerId, inventoryId: tour.id, startTime: at(TZ, 5, '10:00') };
    expectPartyRefusal(await post('/public/widget/quote', { ...order, tickets: { Adult: 1 } }), 'tickets');
    expectPartyRefusal(await post('/public/widget/quote', { ...order, quantity: 2 }), 'quantity');
    const ok = await post('/public/widget/quote', { ...order, tickets: { Adult: 3 } });
    expect(ok.status, ok.text).toBe(200);
  });

  it('marketplace reserve: the request fields tickets and totalTravelers', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 20, data: MIN });
    const { apiKey } = await configureMarketplace(op);
    const order = { productOptionId: tour.id, travelDate: dateAhead(TZ, 5), startTime: '10:00' };
    expectPartyRefusal(await reserve(apiKey, { ...order, totalTravelers: 2 }), 'totalTravelers');
    expectPartyRefusal(await reserve(apiKey, { ...order, tickets: [{ ageBand: 'Adult', quantity: 1 }] }), 'tickets');
    const ok = await reserve(apiKey, { ...order, totalTravelers: 3 });
    expect(ok.status, ok.text).toBe(200);
  });
});
