/**
 * RFC 5545 rendering of a schedule with ical-generator: CRLF line ends, lines folded at 75 octets
 * without splitting a UTF-8 character, one UID and DTSTAMP per event, SEQUENCE from the event's
 * version, `STATUS:CANCELLED` for cancelled and no-show bookings. Times are UTC (`...Z`).
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { EventContent, EventVersion } from './events';

export function renderCalendar(name: string, events: { content: EventContent; version: EventVersion }[]): string {
  const cal = ical({
    name,
    prodId: { company: 'Berth', product: 'Berth schedule', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 15 * 60,
  });
  for (const { content: e, version: v } of events) {
    cal.createEvent({
      id: e.uid,
      sequence: v.sequence,
      stamp: new Date(v.changedAt),
      lastModified: new Date(v.changedAt),
      created: new Date(e.createdAt),
      start: new Date(e.start),
      end: new Date(e.end),
      summary: e.summary,
      description: e.description,
      location: e.location,
      status: e.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
