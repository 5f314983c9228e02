/**
 * Berth records as OCTO answers. Each mapper is typed twice: against the response schema that
 * `/openapi.json` documents (`z.output<typeof s.X>`) and against OCTO's published types
 * (`@octocloud/types`, with their string enums as literals), so a field OCTO requires cannot be
 * missing or mistyped.
 */
import type { z } from '@hono/zod-openapi';
import type * as octo from '@octocloud/types';
import type { locations } from '../../db/schema/locations';
import type { customers } from '../../db/schema/accounts';
import { dayBounds, localDate } from '../../lib/time';
import type { OctoUnitItemRow } from '../../db/schema/octo';
import type { BookingRow } from '../bookings/service';
import type * as s from './schemas';
import type { OctoCaller } from './auth';
import type { OptionDef, ProductDef, UnitDef } from './catalog';
import type { OctoBookingRow } from './queries';
import { localDateTime, pricingOut, priceOf, unitPreTaxFrom, utc, type Price, type Slot } from './slots';
import type { OctoBookingStatus, Plain } from './types';

type Out<T extends z.ZodType> = z.output<T>;
const has = (caller: Pick<OctoCaller, 'capabilities'>, c: 'octo/pricing' | 'octo/content') => caller.capabilities.includes(c);
const HOUR = 3_600_000;

function cutoffFields(hours: number) {
  return { cancellationCutoff: `${hours} hour${hours === 1 ? '' : 's'}`, cancellationCutoffAmount: hours, cancellationCutoffUnit: 'hour' as const };
}

function unitOut(def: ProductDef, option: OptionDef, u: UnitDef, caller: OctoCaller, now: number): Out<typeof s.Unit> & Plain<octo.Unit> {
  const pre = def.pricingPer === 'UNIT' ? unitPreTaxFrom(def, option, u, now) : null;
  return {
    id: u.id,
    internalName: u.name,
    reference: u.tierKey,
    type: u.type,
    restrictions: {
      minAge: u.minAge,
      maxAge: u.maxAge,
      idRequired: false,
      minQuantity: null,
      maxQuantity: def.kind === 'rental' ? def.maxUnits : null,
      paxCount: u.paxCount,
      accompaniedBy: [],
    },
    requiredContactFields: [],
    ...(has(caller, 'octo/pricing') && def.pricingPer === 'UNIT' ? { pricingFrom: pre == null ? [] : [pricingOut(priceOf(def, pre), def.currency)] } : {}),
    ...(has(caller, 'octo/content') ? { title: u.name, shortDescription: u.name, features: [] } : {}),
  };
}

function contentOf(def: ProductDef, loc: typeof locations.$inferSelect | null, title: string, minutes: [number, number | null]) {
  const m = def.it.item.model;
  const images = (m.images ?? []).filter((src) => /^https?:\/\//.test(src));
  return {
    title,
    shortDescription: m.description ?? null,
    features: [],
    faqs: [],
    media: images.map((src, i) => ({
      src,
      type: /\.png(\?|$)/i.test(src) ? ('image/png' as const) : ('image/jpeg' as const),
      rel: i === 0 ? ('COVER' as const) : ('GALLERY' as const),
      title: null,
      caption: null,
      copyright: null,
    })),
    locations:
      loc && loc.latitude != null && loc.longitude != null
        ? [
            {
              title: loc.name,
              shortDescription: loc.address,
              types: ['START' as const, 'REDEMPTION' as const],
              minutesTo: null,
              minutesAt: null,
              place: {
                latitude: loc.latitude,
                longitude: loc.longitude,
                postalAddress: {
                  streetAddress: loc.address,
                  addressLocality: null,
                  addressRegion: null,
                  postalCode: null,
                  addressCountry: null,
                  postOfficeBoxNumber: null,
                },
                identifiers: {
                  googlePlaceId: null,
                  applePlaceId: null,
                  tripadvisorLocationId: null,
                  yelpPlaceId: null,
                  facebookPlaceId: null,
                  foursquarePlaceId: null,
                  baiduPlaceId: null,
                  amapPlaceId: null,
                },
                sameAs: [],
              },
            },
          ]
        : [],
    categoryLabels: (def.kind === 'tour' ? (def.privateCharter ? ['boat-tours', 'private-tours'] : ['boat-tours']) : ['outdoors']) as (
      'boat-tours' | 'private-tours' | 'outdoors'
    )[],
    durationMinutesFrom: minutes[0],
    durationMinutesTo: minutes[1],
    commentary: [],
  };
}

/** Minutes an option lasts (from, to): departures by their slots, durations as set, a full day by the opening hours. */
function minutesOf(def: ProductDef, option: OptionDef): [number, number | null] {
  const m = def.it.item.model;
  if (option.kind === 'departure') {
    const d = (m.timeSlots ?? []).map((t) => t.durationMinutes);
    return d.length ? [Math.min(...d), Math.max(...d)] : [0, null];
  }
  if (option.kind === 'duration') return [option.minutes ?? 0, option.minutes];
  const days = Object.values(m.operatingHours ?? {}).flatMap((h) => {
    if (!h || h.closed) return [];
    const len = Number(h.close.slice(0, 2)) * 60 + Number(h.close.slice(3)) - (Number(h.open.slice(0, 2)) * 60 + Number(h.open.slice(3)));
    return [len > 0 ? len : len + 1440];
  });
  return days.length ? [Math.min(...days), Math.max(...days)] : [600, 600];
}

function optionOut(
  def: ProductDef,
  option: OptionDef,
  caller: OctoCaller,
  cutoffHours: number,
  loc: typeof locations.$inferSelect | null,
  now: number,
): Out<typeof s.Option> & Plain<octo.Option> {
  const charterFrom = def.pricingPer === 'BOOKING' ? unitPreTaxFrom(def, option, def.units[0], now) : null;
  return {
    id: option.id,
    default: option.isDefault,
    internalName: option.name,
    reference: null,
    availabilityLocalStartTimes: def.availabilityType === 'OPENING_HOURS' ? [] : option.startTimes,
    ...cutoffFields(cutoffHours),
    requiredContactFields: [],
    restrictions: { minUnits: def.minUnits, maxUnits: def.maxUnits },
    units: def.units.map((u) => unitOut(def, option, u, caller, now)),
    ...(has(caller, 'octo/pricing') && def.pricingPer === 'BOOKING'
      ? { pricingFrom: charterFrom == null ? [] : [pricingOut(priceOf(def, charterFrom), def.currency)] }
      : {}),
    ...(has(caller, 'octo/content') ? contentOf(def, loc, option.name, minutesOf(def, option)) : {}),
  };
}

/**
 * An item as an OCTO product (its options and units); pricing and content fields when their
 * capability was asked for. `now` is the seller's (prices "from" look at the week ahead of it).
 */
export function productOut(def: ProductDef, caller: OctoCaller, cutoffHours: number, now: number): Out<typeof s.Product> & Plain<octo.Product> {
  const loc = def.it.location ?? null;
  const options = def.options.map((o) => optionOut(def, o, caller, cutoffHours, loc, now));
  const minutes = def.options.map((o) => minutesOf(def, o));
  return {
    id: def.it.row.id,
    internalName: def.it.row.name,
    reference: def.it.item.model.category ?? null,
    locale: 'en',
    timeZone: def.it.item.timezone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: def.availabilityType,
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['VOUCHER'],
    redemptionMethod: 'MANIFEST',
    options,
    ...(has(caller, 'octo/pricing')
      ? { defaultCurrency: def.currency.toUpperCase(), availableCurrencies: [def.currency.toUpperCase()], pricingPer: def.pricingPer }
      : {}),
    ...(has(caller, 'octo/content')
      ? contentOf(def, loc, def.it.row.name, [Math.min(...minutes.map((x) => x[0])), Math.max(...minutes.map((x) => x[1] ?? x[0]))])
      : {}),
  };
}

/** Unit prices of a slot (octo/pricing): per unit for UNIT products, per booking for a private charter. */
export function slotPricing(def: ProductDef, slot: Pick<Slot, 'start' | 'end'>, unitPrice: (u: UnitDef) => number | null, charter: number | null) {
  if (def.pricingPer === 'BOOKING') return charter == null ? {} : { pricing: pricingOut(priceOf(def, charter), def.currency) };
  const unitPricing = def.units.flatMap((u) => {
    const pre = unitPrice(u);
    return pre == null ? [] : [{ ...pricingOut(priceOf(def, pre), def.currency), unitId: u.id }];
  });
  return { unitPricing };
}

export function availabilityOut(slot: Slot, pricing: Record<string, unknown>, caller: OctoCaller): Out<typeof s.Availability> & Plain<octo.Availability> {
  return {
    id: slot.id,
    localDateTimeStart: slot.localStart,
    localDateTimeEnd: slot.localEnd,
    utcCutoffAt: slot.utcCutoffAt,
    allDay: slot.allDay,
    available: slot.available,
    status: slot.status,
    vacancies: slot.vacancies,
    capacity: slot.capacity,
    maxUnits: slot.vacancies,
    openingHours: slot.openingHours,
    ...(has(caller, 'octo/pricing') ? pricing : {}),
  } as Out<typeof s.Availability> & Plain<octo.Availability>;
}

export function supplierOut(
  c: typeof customers.$inferSelect,
  locs: (typeof locations.$inferSelect)[],
  caller: OctoCaller,
): Out<typeof s.Supplier> & Plain<octo.Supplier> {
  const main = locs[0];
  return {
    id: c.id,
    name: c.businessName ?? c.name,
    endpoint: caller.endpoint,
    contact: { website: null, email: c.email ?? null, telephone: main?.phoneNumber ?? null, address: main?.address ?? null },
    ...(has(caller, 'octo/content') ? { shortDescription: null, media: [] } : {}),
  };
}

function contactOut(c: Record<string, unknown> | null | undefined): Out<typeof s.Contact> & Plain<octo.Contact> {
  const str = (k: string) => (typeof c?.[k] === 'string' && c[k] !== '' ? (c[k] as string) : null);
  const first = str('firstName');
  const last = str('lastName');
  return {
    fullName: str('fullName') ?? ([first, last].filter(Boolean).join(' ') || null),
    firstName: first,
    lastName: last,
    emailAddress: str('emailAddress'),
    phoneNumber: str('phoneNumber'),
    locales: Array.isArray(c?.locales) ? (c.locales as unknown[]).filter((l): l is string => typeof l === 'string') : [],
    postalCode: str('postalCode'),
    country: str('country'),
    notes: str('notes'),
  };
}

/** What a booking view needs beyond the row: the item's zone, its product kind, the policy and the operator's booking once confirmed. */
export interface BookingFacts {
  tz: string;
  allDay: boolean;
  openingHours: { from: string; to: string }[];
  noticeMs: number;
  cutoffHours: number;
  pricingPer: 'UNIT' | 'BOOKING';
  rental: Pick<BookingRow, 'status' | 'start' | 'end' | 'cancelledAt' | 'cancellationReason' | 'checkedInAt'> | null;
  /** The seller's "now" (ms), against which the status and the cancellation cut-off are read. */
  now: number;
}

/** The OCTO status of a booking now: a lapsed hold is EXPIRED, an operator's cancellation or check-in shows through. */
export function statusOf(row: OctoBookingRow, facts: Pick<BookingFacts, 'rental'>, now: number): OctoBookingStatus | 'REDEEMED' {
  if (row.status === 'ON_HOLD' && row.expiresAt != null && row.expiresAt <= now) return 'EXPIRED';
  if (row.status === 'CONFIRMED' && facts.rental) {
    if (facts.rental.status === 'cancelled') return 'CANCELLED';
    if (facts.rental.status === 'checked_in' || facts.rental.status === 'completed') return 'REDEEMED';
  }
  return row.status;
}

export function bookingOut(row: OctoBookingRow, facts: BookingFacts, caller: OctoCaller): Out<typeof s.Booking> & Plain<octo.Booking> {
  const now = facts.now;
  const status = statusOf(row, facts, now);
  const start = facts.rental?.start ?? row.start;
  const end = facts.rental?.end ?? row.end;
  const day = facts.allDay ? dayBounds(localDate(start, facts.tz), facts.tz) : null;
  const localStart = localDateTime(day ? day.start : start, facts.tz);
  const localEnd = localDateTime(day ? day.end : end, facts.tz);
  const cancelledAt = row.cancelledAt ?? (status === 'CANCELLED' ? (facts.rental?.cancelledAt ?? null) : null);
  const quote = row.quote;
  const unitPrices = new Map<number, Price>();
  quote.units.forEach((u, i) => unitPrices.set(i, { pre: u.retail - u.tax, retail: u.retail, net: u.net, tax: u.tax, taxes: u.taxes }));
  const active = status === 'ON_HOLD' || status === 'CONFIRMED';
  const cancellable = status === 'ON_HOLD' || (status === 'CONFIRMED' && now < start - facts.cutoffHours * HOUR);
  return {
    id: row.id,
    uuid: row.uuid,
    testMode: row.testMode,
    resellerReference: row.resellerReference,
    supplierReference: row.transactionId,
    status,
    utcCreatedAt: utc(Date.parse(row.createdAt)),
    utcUpdatedAt: utc(Date.parse(row.updatedAt)),
    utcExpiresAt: status === 'ON_HOLD' || status === 'EXPIRED' ? (row.expiresAt != null ? utc(row.expiresAt) : null) : null,
    utcRedeemedAt: status === 'REDEEMED' && facts.rental?.checkedInAt ? utc(Date.parse(facts.rental.checkedInAt)) : null,
    utcConfirmedAt: row.confirmedAt ? utc(Date.parse(row.confirmedAt)) : null,
    productId: row.productId,
    optionId: row.optionId,
    cancellable,
    cancellation:
      status === 'CANCELLED' || (status === 'EXPIRED' && cancelledAt)
        ? {
            refund: row.cancellationRefund ?? 'FULL',
            reason: row.cancellationReason ?? facts.rental?.cancellationReason ?? null,
            utcCancelledAt: utc(Date.parse(cancelledAt ?? row.updatedAt)),
          }
        : null,
    freesale: false,
    availabilityId: localStart,
    availability: {
      id: localStart,
      localDateTimeStart: localStart,
      localDateTimeEnd: localEnd,
      utcCutoffAt: utc(start - facts.noticeMs),
      allDay: facts.allDay,
      available: active,
      status: active ? 'AVAILABLE' : 'CLOSED',
      vacancies: null,
      capacity: null,
      maxUnits: null,
      openingHours: facts.allDay ? facts.openingHours : [],
    },
    contact: contactOut(row.contact),
    notes: row.notes,
    deliveryMethods: ['VOUCHER'],
    voucher: {
      redemptionMethod: 'MANIFEST',
      utcRedeemedAt: null,
      deliveryOptions: status === 'CONFIRMED' || status === 'REDEEMED' ? [{ deliveryFormat: 'QRCODE', deliveryValue: row.transactionId }] : [],
    },
    unitItems: row.unitItems.map((u: OctoUnitItemRow, i) => ({
      uuid: u.uuid,
      resellerReference: u.resellerReference,
      supplierReference: null,
      unitId: u.unitId,
      status,
      utcRedeemedAt: null,
      contact: contactOut(u.contact),
      ticket: null,
      ...(has(caller, 'octo/pricing') && facts.pricingPer === 'UNIT' && unitPrices.has(i) ? { pricing: pricingOut(unitPrices.get(i)!, quote.currency) } : {}),
    })),
    ...(has(caller, 'octo/pricing')
      ? { pricing: pricingOut({ pre: quote.retail - quote.tax, retail: quote.retail, net: quote.net, tax: quote.tax, taxes: quote.taxes }, quote.currency) }
      : {}),
  };
}
