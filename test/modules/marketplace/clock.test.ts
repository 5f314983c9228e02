/**
 * The tour marketplace on a sandbox test clock: the supplier API acts for the configuration's
 * operator, so a reservation is held for 20 minutes of that operator's time, and the sweep expires
 * it when the clock advances past its expiry (the job's `nextDue`).
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { advanceClock, createOperator, db } from '../../harness';
import { rentalItem } from '../bookings/factories';
import { configureMarketplace, confirm, reserve, travelers } from './factories';
import { marketplaceReservations } from '../../../src/db/schema/marketplace';
import { wallTimeToUtc } from '../../../src/lib/time';

const TZ = 'America/New_York';
/** 09:00 in New York on a day already past on the machine's clock. */
const CLOCK = wallTimeToUtc('2025-03-05', '09:00', TZ);

describe('Tour marketplace on a test clock', () => {
  it("holds for 20 minutes of the operator's time; the sweep expires the hold as the clock advances", async () => {
    const op = await createOperator({ timezone: TZ, clockAt: CLOCK });
    const boat = await rentalItem(op, { assets: 1, data: { durations: [2] } });
    const { apiKey } = await configureMarketplace(op);

    // A start already past on the operator's clock is refused; a later one is held.
    const early = await reserve(apiKey, { productOptionId: `${boat.id}:2h`, travelDate: '2025-03-05', startTime: '08:00', totalTravelers: 2 });
    expect(early.status, early.text).toBe(409);
    expect(early.body.reasons.map((r: any) => r.code)).toEqual(['in_past']);
    const res = await reserve(apiKey, { productOptionId: `${boat.id}:2h`, travelDate: '2025-03-05', startTime: '14:00', totalTravelers: 2 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'RESERVED', expiresAt: new Date(CLOCK + 20 * 60_000).toISOString() });

    expect((await advanceClock(op.clockId!, CLOCK + 19 * 60_000, op.adminKey)).status).toBe('ready');
    const held = await db().select().from(marketplaceReservations).where(eq(marketplaceReservations.id, res.body.reservationReference)).get();
    expect(held?.status).toBe('held');
    expect((await advanceClock(op.clockId!, CLOCK + 25 * 60_000, op.adminKey)).status).toBe('ready');
    const swept = await db().select().from(marketplaceReservations).where(eq(marketplaceReservations.id, res.body.reservationReference)).get();
    expect(swept?.status).toBe('expired');
    const late = await confirm(apiKey, { reservationReference: res.body.reservationReference, bookingRef: 'MKT-CLOCK', travelers });
    expect(late.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'HOLD_EXPIRED' });
  });
});
