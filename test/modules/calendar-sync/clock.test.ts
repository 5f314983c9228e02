/**
 * Calendar files and synced events on a sandbox test clock: DTSTART/DTEND stay machine instants
 * (UTC), the text a person reads gives the booking's times in its location's zone, and the feed's
 * window and the provider sync read the operator's clock (here a day long past on the machine's).
 */
import { describe, it, expect } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import ICAL from 'ical.js';
import { eq } from 'drizzle-orm';
import { BASE, advanceClock, createOperator, db, get, post, type Operator } from '../../harness';
import { book, bookBody, rentalItem } from '../bookings/factories';
import { unseal } from '../../../src/lib/sealed';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { wallTimeToUtc } from '../../../src/lib/time';
import { SimulatedCalendar } from '../../../src/adapters/calendar';
import { calendarConnections } from '../../../src/db/schema/calendar-sync';

const local = (op: Operator, date: string, time: string) => new Date(wallTimeToUtc(date, time, op.timezone)).toISOString();

describe('calendar files on a test clock', () => {
  it.each([
    ['America/New_York', 'Fri 7 Mar 2025, 12:00–14:00 EST'],
    ['Pacific/Kiritimati', 'Fri 7 Mar 2025, 12:00–14:00 UTC+14'],
  ])("%s: DTSTART in UTC, the description in the location's time; the feed reads the operator's clock", async (timezone, when) => {
    const op = await createOperator({ timezone, clockAt: wallTimeToUtc('2025-03-05', '10:00', timezone) });
    const item = await rentalItem(op, { assets: 1 });
    const a = await book(op, bookBody({ inventoryId: item.id, startTime: local(op, '2025-03-07', '12:00'), endTime: local(op, '2025-03-07', '14:00') }));
    expect(a.status, a.text).toBe(201);

    const feed = await post('/integrations/calendar/feeds', { userId: op.adminId }, { key: op.adminKey });
    expect(feed.status, feed.text).toBe(201);
    const res = await SELF.fetch(BASE + new URL(feed.body.url).pathname);
    expect(res.status).toBe(200);
    const text = (await res.text()).replace(/\r\n /g, '');
    // Two days ahead on the operator's clock (long past on the machine's): in the feed.
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    expect(events).toHaveLength(1);
    const e = events[0];
    expect((e.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString()).toBe(a.body.startTime);
    expect(text).toMatch(new RegExp(`DTSTART:${a.body.startTime.replace(/[-:]/g, '').replace('.000', '')}`));
    const description = String(e.getFirstPropertyValue('description'));
    const summary = String(e.getFirstPropertyValue('summary'));
    expect(description).toContain(`When: ${when}`);
    expect(description).not.toMatch(ISO_TIMESTAMP);
    expect(summary).not.toMatch(ISO_TIMESTAMP);
  });

  it("the provider sync runs for the operator as its clock advances, with the local time in the event's text", async () => {
    const tz = 'America/New_York';
    const clockAt = wallTimeToUtc('2025-03-05', '10:00', tz);
    const op = await createOperator({ timezone: tz, clockAt });
    const c = await get(`/integrations/calendar/connect?userId=${op.adminId}&customerId=${op.customerId}`, { key: op.adminKey });
    const url = new URL(c.body.authorizationUrl);
    expect((await SELF.fetch(BASE + url.pathname + url.search, { redirect: 'manual' })).status).toBe(200);
    const conn = await db().select().from(calendarConnections).where(eq(calendarConnections.userId, op.adminId)).get();
    expect(conn?.updatedAt).toBe(new Date(clockAt).toISOString());

    const item = await rentalItem(op, { assets: 1 });
    const a = await book(op, bookBody({ inventoryId: item.id, startTime: local(op, '2025-03-07', '12:00'), endTime: local(op, '2025-03-07', '14:00') }));
    expect(a.status, a.text).toBe(201);
    expect((await advanceClock(op.clockId!, clockAt + 10 * 60_000, op.adminKey)).status).toBe('ready');

    const token = await unseal(env, conn!.accessToken);
    const events = (await new SimulatedCalendar(env).events(token, 'primary')).filter((e) => e.status !== 'cancelled');
    expect(events.map((e) => e.rentalId)).toEqual([a.body.rentalId]);
    expect(events[0].description).toContain('When: Fri 7 Mar 2025, 12:00–14:00 EST');
    const status = (await get(`/integrations/calendar/status?userId=${op.adminId}`, { key: op.adminKey })).body;
    expect(Date.parse(status.lastSyncAt)).toBeGreaterThan(clockAt);
    expect(Date.parse(status.lastSyncAt)).toBeLessThanOrEqual(clockAt + 10 * 60_000);
  });
});
