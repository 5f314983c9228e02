/** Engine results -> API responses (typed against the response schemas). */
import type { z } from '@hono/zod-openapi';
import { localDate, localTime } from '../../lib/time';
import type { DaySlot, DaySummary, DayView } from './day-month';
import type { ItemContext } from './queries';
import type { DayResult, MonthResult, Slot } from './schemas';

type Header = Pick<z.output<typeof MonthResult>, 'inventoryId' | 'locationId' | 'name' | 'type' | 'timezone' | 'displayTimezone'>;

/** A slot with its local start, and its time in the display zone when the caller asked for another. */
export const slotOut = (s: DaySlot, tz: string, displayTz: string): z.output<typeof Slot> => ({
  startTime: new Date(s.start).toISOString(),
  endTime: new Date(s.end).toISOString(),
  time: s.time,
  ...(displayTz !== tz ? { displayTime: localTime(s.start, displayTz), displayDate: localDate(s.start, displayTz) } : {}),
  available: s.available,
  unitsFree: s.unitsFree,
  ...(s.seatsFree !== undefined ? { seatsFree: s.seatsFree } : {}),
  capacity: s.capacity,
  ...(s.reasons ? { reasons: s.reasons } : {}),
});

export function itemHeader(item: ItemContext, displayTz?: string): Header {
  return {
    inventoryId: item.row.id,
    locationId: item.row.locationId,
    name: item.row.name,
    type: item.item.kind,
    timezone: item.item.timezone,
    displayTimezone: displayTz ?? item.item.timezone,
  };
}

/** The busy intervals of a day view (no renter data), with display-zone times when asked. */
export function dayBookingsOut(view: DayView, tz: string, display: string): z.output<typeof DayResult>['bookings'] {
  return view.busy.map((b) => ({
    startTime: new Date(b.start).toISOString(),
    endTime: new Date(b.end).toISOString(),
    ...(display !== tz
      ? {
          displayStart: `${localDate(b.start, display)} ${localTime(b.start, display)}`,
          displayEnd: `${localDate(b.end, display)} ${localTime(b.end, display)}`,
        }
      : {}),
    assetId: b.assetId,
    kind: b.kind,
    ...(b.seats !== undefined ? { seats: b.seats } : {}),
  }));
}

/** The days of a month view, their slots rendered when the view carries them. */
export function monthDaysOut(days: (DaySummary & { slots?: DaySlot[] })[], tz: string, display: string): z.output<typeof MonthResult>['days'] {
  return days.map(({ slots, ...d }) => ({ ...d, ...(slots ? { slots: slots.map((s) => slotOut(s, tz, display)) } : {}) }));
}
