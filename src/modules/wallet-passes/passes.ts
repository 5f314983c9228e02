/**
 * The pass of a booking: what every wallet format shows (item, date and time in the location's zone,
 * location, the renter's name as "Rita R.", party size) and the check-in QR code (an SVG made with
 * the uqr library from the signed check-in code). Cancelled bookings have no pass (404).
 */
import { renderSVG } from 'uqr';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { localDate, localTime } from '../../lib/time';
import { formatLocalClock, formatLocalDay, formatLocalRange, zoneAbbreviation } from '../../lib/local-time';
import { loadItemContext } from '../availability/service';
import { getPublicCustomer } from '../customers/service';
import { getPublicLocation } from '../locations/service';
import { partySizeOf, rentalById } from '../renter-self-service/service';
import { widgetLookOf } from '../public-settings/service';
import { checkInToken } from './token';

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface PassData {
  rentalId: string;
  /** The booking's one public reference (its id), as the e-mails and the manage page show it. */
  reference: string;
  transactionId: string;
  customerId: string;
  status: string;
  businessName: string;
  itemName: string;
  locationName: string;
  address: string;
  phoneNumber: string;
  coordinates: { latitude: number; longitude: number } | null;
  timezone: string;
  localDate: string;
  localStartTime: string;
  localEndTime: string;
  /** The date and times as people read them, in the location's zone: "Sat 12 Dec 2026, 10:00–14:00 EST". */
  when: string;
  startTime: string;
  endTime: string;
  validUntil: string;
  renterName: string;
  partySize: number;
  checkInToken: string;
  color: string;
}

export async function loadPass(ctx: Ctx, rentalId: string): Promise<PassData> {
  const b = await rentalById(ctx, rentalId);
  if (b.status === 'cancelled') throw notFound('Pass of an active booking');
  const [item, loc, customer, partySize, token] = await Promise.all([
    loadItemContext(ctx.db, b.itemId, b.customerId).catch(() => null),
    getPublicLocation(ctx, b.locationId),
    getPublicCustomer(ctx, b.customerId),
    partySizeOf(ctx, b),
    checkInToken(ctx.env, b.id, b.end),
  ]);
  const tz = loc.timezone;
  const ci = (b.customerInfo ?? {}) as { firstName?: unknown; lastName?: unknown };
  const first = typeof ci.firstName === 'string' ? ci.firstName.trim() : '';
  const last = typeof ci.lastName === 'string' ? ci.lastName.trim() : '';
  return {
    rentalId: b.id,
    reference: b.id,
    transactionId: b.transactionId,
    customerId: b.customerId,
    status: b.status,
    businessName: customer?.businessName ?? customer?.name ?? loc.name,
    itemName: item?.row.name ?? 'Booking',
    locationName: loc.name,
    address: loc.address,
    phoneNumber: loc.phoneNumber,
    coordinates: loc.latitude != null && loc.longitude != null ? { latitude: loc.latitude, longitude: loc.longitude } : null,
    timezone: tz,
    localDate: localDate(b.start, tz),
    localStartTime: localTime(b.start, tz),
    localEndTime: localTime(b.end, tz),
    when: formatLocalRange(b.start, b.end, tz),
    startTime: iso(b.start),
    endTime: iso(b.end),
    validUntil: iso(b.end + DAY),
    renterName: `${first}${last ? ` ${last.slice(0, 1)}.` : ''}`.trim() || 'Guest',
    partySize,
    checkInToken: token,
    color: widgetLookOf(customer?.integrations ?? {}).primaryColor ?? '#0b5cab',
  };
}

/**
 * The text of a pass's date and time fields, in the location's zone (lib/local-time.ts): the day
 * ("Sat 12 Dec 2026"), the times ("10:00–14:00 EST"; a booking over several days reads in full).
 */
export function passTimes(p: Pick<PassData, 'startTime' | 'endTime' | 'timezone'>): { day: string; time: string } {
  const s = Date.parse(p.startTime);
  const e = Date.parse(p.endTime);
  const tz = p.timezone;
  const oneDay = localDate(s, tz) === localDate(e, tz) && zoneAbbreviation(s, tz) === zoneAbbreviation(e, tz);
  return {
    day: formatLocalDay(s, tz),
    time: oneDay ? `${formatLocalClock(s, tz)}–${formatLocalClock(e, tz)} ${zoneAbbreviation(e, tz)}` : formatLocalRange(s, e, tz),
  };
}

/** The QR code of a check-in code as a standalone SVG document (black on white, a quiet zone of 4 modules). */
export const qrSvg = (token: string) => renderSVG(token, { ecc: 'M', border: 4, pixelSize: 6 });
