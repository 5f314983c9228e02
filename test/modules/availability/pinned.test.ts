/**
 * Availability "today" with the operator's clock pinned (issue 27): at five past midnight and five to
 * midnight local time in New York, Pago Pago (UTC−11) and Kiritimati (UTC+14), and on New York's DST
 * change days, today is the location's calendar date on the operator's clock: its slots are all open
 * just after midnight and all past just before the next one; yesterday is past, tomorrow open; a
 * booking before now is 400 `in_the_past`, one later today or tomorrow is taken; a hold runs from the
 * clock's now for two days.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, post } from '../../harness';
import { dayAfter, pinnedClocks } from '../../clocks';
import { addDays, localDate, localTime, wallTimeToUtc } from '../../../src/lib/time';
import { book, bookBody, email, rentalItem } from '../bookings/factories';

const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

describe.each(pinnedClocks())('availability today at $label', ({ timezone, at }) => {
  const now = Date.parse(at);
  const today = localDate(now, timezone);
  const late = localTime(now, timezone) >= '12:00';
  const local = (date: string, time: string) => new Date(wallTimeToUtc(date, time, timezone)).toISOString();

  it("today's slots, yesterday and tomorrow are read on the operator clock in the location's zone", async () => {
    const op = await createOperator({ clockAt: at, timezone });
    const item = await rentalItem(op, { assets: 1 });
    const dayView = async (date: string) => {
      const r = await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date })}`);
      expect(r.status, r.text).toBe(200);
      return r.body as { slots: { time: string; available: boolean }[] };
    };
    const todayView = await dayView(today);
    expect(todayView.slots.length).toBe(10);
    // 08:00-18:00: all ahead just after midnight, all past just before the next one.
    expect(todayView.slots.every((s) => s.available === !late)).toBe(true);
    expect((await dayView(addDays(today, -1))).slots.some((s) => s.available)).toBe(false);
    expect((await dayView(dayAfter(today))).slots.every((s) => s.available)).toBe(true);
    const month = await get(`/public/availability?${q({ inventoryId: item.id, locationId: item.locationId, month: today.slice(0, 7) })}`);
    expect(month.status, month.text).toBe(200);
    const day = month.body.days.find((d: { date: string }) => d.date === today);
    expect(day).toMatchObject(late ? { available: false, slotsAvailable: 0 } : { available: true, slotsAvailable: 10 });
  });

  it('books later today or tomorrow, refuses what is already past (400 in_the_past), holds from now', async () => {
    const op = await createOperator({ clockAt: at, timezone });
    const item = await rentalItem(op, { assets: 3 });
    const todayAt10 = bookBody({ inventoryId: item.id, startTime: local(today, '10:00'), endTime: local(today, '12:00') });
    if (late) expectError(await book(op, todayAt10), 400, 'in_the_past');
    else expect((await book(op, todayAt10)).status).toBe(201);
    expectError(
      await book(op, bookBody({ inventoryId: item.id, startTime: local(addDays(today, -1), '16:00'), endTime: local(addDays(today, -1), '17:00') })),
      400,
      'in_the_past',
    );
    const tomorrow = await book(op, bookBody({ inventoryId: item.id, startTime: local(dayAfter(today), '08:00'), endTime: local(dayAfter(today), '09:00') }));
    expect(tomorrow.status, tomorrow.text).toBe(201);
    expect(tomorrow.body.localDate).toBe(dayAfter(today));
    const h = await post('/holdAsset', { customerId: op.customerId, email: email('pinned'), inventoryId: item.id, locationId: item.locationId });
    expect(h.status, h.text).toBe(201);
    expect(h.body.expiresAt).toBe(new Date(now + 48 * 3_600_000).toISOString());
  });
});
