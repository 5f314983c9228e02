/**
 * The channel API acting for a seller on a sandbox test clock: once the seller is known, "now" is
 * its clock's time. A day already past on the machine's clock is still ahead on the seller's (and
 * the other way round), and the booking is stamped with the seller's time.
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, post } from '../../harness';
import { ch, idem, partnerKey, rentalItem } from './factories';
import { bookings } from '../../../src/db/schema/bookings';
import { wallTimeToUtc } from '../../../src/lib/time';

const TZ = 'America/New_York';
/** 10:30 in New York on a day already past on the machine's clock. */
const CLOCK = wallTimeToUtc('2025-03-05', '10:30', TZ);
const local = (time: string) => new Date(wallTimeToUtc('2025-03-05', time, TZ)).toISOString();

describe('Channel API on a test clock', () => {
  it("checks and books on the seller's clock", async () => {
    const op = await createOperator({ timezone: TZ, clockAt: CLOCK });
    const item = await rentalItem(op, { assets: 1, hourly: 50 });
    const { key } = await partnerKey(op, { commissionRate: 15 });

    const check = async (from: string, to: string) =>
      (await post('/channel/v1/availability', { productIds: [item.id], startTime: local(from), endTime: local(to) }, ch(key))).body.data[0];
    expect(await check('12:00', '14:00')).toMatchObject({ available: true, unitsFree: 1 });
    expect(await check('09:00', '10:00')).toMatchObject({ available: false, reason: 'in_past' });

    const body = (from: string, to: string) => ({
      productId: item.id,
      startTime: local(from),
      endTime: local(to),
      quantity: 1,
      totalPrice: 100,
      reference: `REF-${crypto.randomUUID().slice(0, 6)}`,
      guest: { firstName: 'Gail', lastName: 'Guest', email: 'gail@example.test' },
    });
    const made = await post('/channel/v1/bookings', body('12:00', '14:00'), idem(key, 'clock-1'));
    expect(made.status, made.text).toBe(201);
    const row = await db().select().from(bookings).where(eq(bookings.transactionId, made.body.bookingId)).get();
    expect(row?.createdAt).toBe(new Date(CLOCK).toISOString());
    expect((await check('12:00', '14:00')).available).toBe(false);

    const past = await post('/channel/v1/bookings', body('09:00', '10:00'), idem(key, 'clock-2'));
    expect(past.status, past.text).toBe(400);
    expect(past.body.error).toBe('in_the_past');
  });
});
