import type { Ctx } from '../../lib/context';
import { bookingLinks, getBookingRow, mapUrlOf, type BookingRow } from '../bookings/service';
import { emailBrandOf } from '../public-settings/service';
import { DEV_ORIGIN, publicOrigin } from '../../lib/public-origin';
import { getOwnCustomer } from '../customers/service';
import { getItemInTenant } from '../inventory/service';
import { getLocationInTenant, type LocationRow } from '../locations/service';
import { getRenterInTenant } from '../renters/service';
import { VARIABLES } from './templates';
import {
  formatCalendarDate,
  formatLocalClock,
  formatLocalDateTime,
  formatLocalDay,
  formatLocalRange,
  zoneAbbreviation,
  zoneLongName,
} from '../../lib/local-time';

/** Who the message is for, as far as the template cares. */
export interface Person {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  phone?: string | null;
}

/** Everything a template is filled from. */
export interface RenderSource {
  businessName: string;
  /** The operator's logo (https), for the e-mail layout. */
  logoUrl?: string | null;
  /** Where renters' links point (lib/public-origin.ts). */
  origin?: string;
  /** The operator's "now" (ms), for the zone's name when there is no booking. */
  now?: number;
  location: LocationRow | null;
  booking: BookingRow | null;
  itemName: string | null;
  renter: Person;
  /** Renter preferences found on the booking and the renter record. */
  prefs: { smsOptIn: boolean; emailOptOut: boolean };
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Loads the location, booking, item, renter and business of a message, for the caller's operator (404 for foreign ids). */
export async function loadRenderSource(ctx: Ctx, q: { locationId?: string | null; rentalId?: string | null }): Promise<RenderSource> {
  const booking = q.rentalId ? await getBookingRow(ctx, q.rentalId) : null;
  const locationId = q.locationId ?? booking?.locationId ?? null;
  const [customer, location] = await Promise.all([getOwnCustomer(ctx), locationId ? getLocationInTenant(ctx, locationId) : Promise.resolve(null)]);
  let itemName: string | null = null;
  let renter: Person = {};
  const prefs = { smsOptIn: false, emailOptOut: false };
  if (booking) {
    const item = await getItemInTenant(ctx, booking.itemId, { includeDeleted: true }).catch(() => null);
    itemName = item?.name ?? null;
    const info = (booking.customerInfo ?? {}) as Record<string, unknown>;
    renter = { firstName: str(info.firstName), lastName: str(info.lastName), email: str(info.email), phone: str(info.phone) };
    const ext = (booking.extendedData ?? {}) as Record<string, unknown>;
    if (ext.smsOptIn === true) prefs.smsOptIn = true;
    if (ext.emailOptOut === true) prefs.emailOptOut = true;
    if (booking.renterId) {
      const r = await getRenterInTenant(ctx, booking.renterId, { includeDeleted: true }).catch(() => null);
      if (r) {
        renter = {
          firstName: renter.firstName ?? r.firstName,
          lastName: renter.lastName ?? r.lastName,
          email: renter.email ?? r.email,
          phone: renter.phone ?? r.phone,
        };
        const extra = r.additionalInfo ?? {};
        if (extra.smsOptIn === true) prefs.smsOptIn = true;
        if (extra.emailOptOut === true) prefs.emailOptOut = true;
      }
    }
  }
  const brand = emailBrandOf(customer, location?.details);
  return { businessName: brand.name, logoUrl: brand.logoUrl, origin: publicOrigin(ctx), now: ctx.clock.now(), location, booking, itemName, renter, prefs };
}

function localeOf(location: LocationRow | null): string {
  const l = str((location?.details as Record<string, unknown> | null)?.locale);
  if (l) {
    try {
      return Intl.getCanonicalLocales(l)[0] ?? 'en-US';
    } catch {
      return 'en-US';
    }
  }
  return 'en-US';
}

/**
 * Formatters in the location's time zone (times through lib/local-time.ts, the one formatter of
 * times a person reads: "Sat 12 Dec 2026, 10:00–14:00 EST") and its currency and locale (money).
 */
export function formattersFor(location: LocationRow | null) {
  const timeZone = location?.timezone || 'UTC';
  const locale = localeOf(location);
  const currency = (location?.currency || 'usd').toUpperCase();
  let moneyFmt: Intl.NumberFormat;
  try {
    moneyFmt = new Intl.NumberFormat(locale, { style: 'currency', currency });
  } catch {
    moneyFmt = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  }
  return {
    timeZone,
    currency,
    /** "Sat 12 Dec 2026" (the local day of the instant). */
    date: (ms: number) => formatLocalDay(ms, timeZone),
    /** "10:00 EST". */
    time: (ms: number) => `${formatLocalClock(ms, timeZone)} ${zoneAbbreviation(ms, timeZone)}`,
    /** "Sat 12 Dec 2026, 10:00 EST". */
    dateTime: (ms: number) => formatLocalDateTime(ms, timeZone),
    /** "Sat 12 Dec 2026, 10:00–14:00 EST". */
    range: (start: number, end: number) => formatLocalRange(start, end, timeZone),
    /** A calendar date (YYYY-MM-DD) as is, without a zone shift: "Sat 12 Dec 2026". */
    calendarDate: (d: string) => formatCalendarDate(d),
    money: (cents: number) => moneyFmt.format(cents / 100),
  };
}

/**
 * The variables of a message. `person` overrides the renter (a recipient-list entry); `extra` are
 * the caller's values of the input variables (money in dollars, dates YYYY-MM-DD or ISO instants).
 */
export function variablesFor(src: RenderSource, person: Person | null, extra: Record<string, string | number> = {}): Record<string, string> {
  const f = formattersFor(src.location);
  const who: Person = person && (person.firstName || person.lastName) ? person : { ...src.renter, ...(person ?? {}) };
  const v: Record<string, string> = {
    'renter.firstName': who.firstName ?? '',
    'renter.lastName': who.lastName ?? '',
    'renter.fullName': [who.firstName, who.lastName].filter(Boolean).join(' '),
    'renter.email': who.email ?? '',
    'renter.phone': who.phone ?? '',
    'business.name': src.businessName,
    'location.name': src.location?.name ?? '',
    'location.address': src.location?.address ?? '',
    'location.phoneNumber': src.location?.phoneNumber ?? '',
    'location.timezone': f.timeZone,
    'location.zoneName': zoneLongName(src.booking?.start ?? src.now ?? 0, f.timeZone),
    'location.mapUrl': src.location ? (mapUrlOf(src.location) ?? '') : '',
    'business.logoUrl': src.logoUrl ?? '',
  };
  const b = src.booking;
  if (b) {
    Object.assign(v, {
      'booking.rentalId': b.id,
      'booking.reference': b.id,
      'booking.manageUrl': bookingLinks(src.origin ?? DEV_ORIGIN, b.customerId, b.id).manage,
      'booking.transactionId': b.transactionId,
      'booking.itemName': src.itemName ?? '',
      'booking.date': f.date(b.start),
      'booking.startTime': f.time(b.start),
      'booking.endTime': f.time(b.end),
      'booking.start': f.dateTime(b.start),
      'booking.end': f.dateTime(b.end),
      'booking.when': f.range(b.start, b.end),
      'booking.quantity': String(b.quantity),
      'booking.participants': b.participants != null ? String(b.participants) : '',
      'booking.status': b.status,
      'booking.total': f.money(b.total),
      'booking.amountPaid': f.money(b.amountPaid),
      'booking.balanceDue': f.money(Math.max(0, b.total - b.amountPaid)),
    });
  }
  for (const def of VARIABLES) {
    if (!def.input || !(def.name in extra)) continue;
    const raw = extra[def.name];
    if (def.kind === 'money') {
      const n = typeof raw === 'number' ? raw : Number(raw);
      v[def.name] = Number.isFinite(n) ? f.money(Math.round(n * 100)) : String(raw);
    } else if (def.kind === 'date' || def.kind === 'datetime') {
      const s = String(raw);
      if (/^\d{4}-\d{2}-\d{2}$/.test(s)) v[def.name] = f.calendarDate(s);
      else if (Number.isFinite(Date.parse(s))) v[def.name] = def.kind === 'date' ? f.date(Date.parse(s)) : f.dateTime(Date.parse(s));
      else v[def.name] = s;
    } else v[def.name] = String(raw);
  }
  return v;
}
