/**
 * OCTO acting for a seller on a sandbox test clock: once the seller is known, "now" is its clock's
 * time. Past departures are those before the clock, holds expire at the clock's time plus their
 * minutes, and the expiry sweep tidies them when the clock advances past them.
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { advanceClock, createOperator, db } from '../../harness';
import { tourItem } from '../bookings/factories';
import { partnerKey } from '../channel/factories';
import { octoBookings } from '../../../src/db/schema/octo';
import { localDateTime } from '../../../src/modules/octo/slots';
import { wallTimeToUtc } from '../../../src/lib/time';
import { expectOctoError, octo, TZ, unitItems } from './factories';

/** 10:30 in New York on a day already past on the machine's clock: the tour's 10:00 departure has left, its 14:00 one is ahead. */
const CLOCK = wallTimeToUtc('2025-03-05', '10:30', TZ);
const DAY = '2025-03-05';
const departure = (date: string, time: string) => localDateTime(wallTimeToUtc(date, time, TZ), TZ);

describe('OCTO on a test clock', () => {
  it("reads the seller's clock: past departures, hold expiry, the sweep as the clock advances", async () => {
    const op = await createOperator({ timezone: TZ, clockAt: CLOCK });
    const { key } = await partnerKey(op);
    const tour = await tourItem(op, { capacity: 6 });

    // The 10:00 departure is not in the future on the seller's clock (the 14:00 one is past on the machine's clock, yet on sale).
    const av = await octo('POST', '/availability', key, { body: { productId: tour.id, optionId: 'DEFAULT', localDate: DAY } });
    expect(av.status, av.text).toBe(200);
    expect(av.body.map((a: any) => a.id)).toEqual([departure(DAY, '14:00')]);

    const r = await octo('POST', '/bookings', key, {
      body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: departure(DAY, '14:00'), unitItems: unitItems('adult', 2) },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('ON_HOLD');
    expect(r.body.utcCreatedAt).toBe(new Date(CLOCK).toISOString().replace('.000Z', 'Z'));
    expect(Date.parse(r.body.utcExpiresAt)).toBe(CLOCK + 30 * 60_000);

    // An extension counts from the seller's "now".
    const ext = await octo('POST', `/bookings/${r.body.uuid}/extend`, key, { body: { expirationMinutes: 45 } });
    expect(ext.status, ext.text).toBe(200);
    expect(Date.parse(ext.body.utcExpiresAt)).toBe(CLOCK + 45 * 60_000);

    // Still on hold 44 minutes later; expired (and swept) once the clock passes the expiry.
    expect((await advanceClock(op.clockId!, CLOCK + 44 * 60_000, op.adminKey)).status).toBe('ready');
    expect((await octo('GET', `/bookings/${r.body.uuid}`, key)).body.status).toBe('ON_HOLD');
    expect((await advanceClock(op.clockId!, CLOCK + 50 * 60_000, op.adminKey)).status).toBe('ready');
    const row = await db().select().from(octoBookings).where(eq(octoBookings.uuid, r.body.uuid)).get();
    expect(row?.status).toBe('EXPIRED');
    expect(row?.updatedAt).toBe(new Date(CLOCK + 45 * 60_000).toISOString());
    expect((await octo('GET', `/bookings/${r.body.uuid}`, key)).body.status).toBe('EXPIRED');
    expectOctoError(await octo('POST', `/bookings/${r.body.uuid}/confirm`, key, { body: { contact: {} } }), 'INVALID_BOOKING_UUID');
  });
});
