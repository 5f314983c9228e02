/**
 * Rates the public slip pages offer (issue 31): the monthly rate needs at least a month online too,
 * in the price calculator and in a booking (refused before anything is charged or held).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { expectError, post } from '../../harness';
import { addDays } from '../../../src/lib/time';
import { boat, day, makeSlip, marinaOperator, renter } from '../marina/helpers';

let ipN = 0;
/** A fresh client address per test, so the per-IP limits of one test do not leak into another. */
const ip = () => ({ headers: { 'cf-connecting-ip': `198.51.100.${++ipN}` } });

describe('public slip rates', () => {
  it('the monthly rate is not offered for three nights: the calculator and a booking answer 400, a month is priced', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op, { lengthFt: 40 });
    const c = ip();
    const arrivalDate = day(op, 20);
    const stay = { slipId: s.id, rateType: 'monthly', arrivalDate, departureDate: day(op, 23), boat: { loaFt: 30 } };
    const price = await post('/public/slips/calculate-price', stay, c);
    expectError(price, 400, 'stay_too_short');
    expect(price.body.details).toEqual([{ field: 'departureDate', message: expect.stringContaining('month') }]);
    const book = await post('/public/slips/book', { ...stay, boat: boat(), renter: renter('pub'), paymentMethodId: 'pm_card_visa' }, c);
    expectError(book, 400, 'stay_too_short');
    const held = await env.DB.prepare('SELECT count(*) AS n FROM slip_reservations WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(held!.n).toBe(0);
    // From the 20th day ahead to the same day of the next month: one month at 2500 cents × 40 ft, pro-rated by the calendar months it spans.
    const [y, m, d] = arrivalDate.split('-').map(Number);
    const next = new Date(Date.UTC(y, m, Math.min(d, new Date(Date.UTC(y, m + 1, 0)).getUTCDate()))).toISOString().slice(0, 10);
    const month = await post('/public/slips/calculate-price', { ...stay, departureDate: next }, c);
    expect(month.status, month.text).toBe(200);
    expect(month.body.baseCents).toBeGreaterThan(90_000);
    // Nightly stays of any length are still offered.
    expect((await post('/public/slips/calculate-price', { ...stay, rateType: 'nightly', departureDate: addDays(arrivalDate, 1) }, c)).status).toBe(200);
  });
});
