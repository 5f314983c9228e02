/** The booking as an iCalendar (RFC 5545) event: instants in UTC, the location and the booking reference; lines folded at 75 octets. */
import type { PassData } from './passes';

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const enc = new TextEncoder();

/** Folds a content line into 75-octet pieces (continuation lines start with a space), never splitting a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  for (const ch of line) {
    if (enc.encode(cur + ch).length > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
    }
    cur += ch;
  }
  out.push(cur);
  return out.join('\r\n ');
}

/** `now` (ms) stamps the event (DTSTAMP); the description reads the times in the location's zone. */
export function bookingIcs(p: PassData, origin: string, now: number): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Berth//Booking widget//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${p.rentalId}@berth`,
    `DTSTAMP:${stamp(new Date(now).toISOString())}`,
    `DTSTART:${stamp(p.startTime)}`,
    `DTEND:${stamp(p.endTime)}`,
    `SUMMARY:${esc(`${p.itemName} – ${p.businessName}`)}`,
    `LOCATION:${esc(`${p.locationName}, ${p.address}`)}`,
    `DESCRIPTION:${esc(
      `Booking reference ${p.rentalId}, for ${p.partySize} ${p.partySize === 1 ? 'person' : 'people'}.\n` +
        `${p.when}.\nPhone: ${p.phoneNumber}\nYour pass: ${origin}/widget?pass=${p.rentalId}`,
    )}`,
    `URL:${origin}/widget?pass=${encodeURIComponent(p.rentalId)}`,
    'STATUS:CONFIRMED',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${esc(`${p.itemName} tomorrow`)}`,
    'TRIGGER:-PT24H',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
