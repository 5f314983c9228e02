/**
 * schema.org JSON-LD builders: a rental is a Product, a tour an Event (its next departure), each
 * with an Offer (price = the starting price, currency, availability from the live engine); a
 * location is a LocalBusiness whose OfferCatalog lists its public inventory.
 */
import type { Event, LocalBusiness, Offer, Product, WithContext } from 'schema-dts';
import type { InventoryModel } from '../inventory/types';
import { startingPrice } from '../inventory/service';
import type { ItemContext, LiveOffer } from './live';
import type { LocationRow } from './queries';

export interface ItemFacts {
  id: string;
  name: string;
  kind: 'rental' | 'tour';
  model: InventoryModel;
  currency: string;
  url: string;
  operator: { name: string; url: string };
  location: LocationFacts;
}

export interface LocationFacts {
  id: string;
  name: string;
  address: string;
  phoneNumber: string;
  latitude: number | null;
  longitude: number | null;
  url: string;
}

const IN_STOCK = 'https://schema.org/InStock' as const;
const SOLD_OUT = 'https://schema.org/SoldOut' as const;

function place(l: LocationFacts) {
  return {
    '@type': 'Place' as const,
    name: l.name,
    address: { '@type': 'PostalAddress' as const, streetAddress: l.address },
    ...(l.latitude != null && l.longitude != null ? { geo: { '@type': 'GeoCoordinates' as const, latitude: l.latitude, longitude: l.longitude } } : {}),
  };
}

function offerOf(f: ItemFacts, live: LiveOffer): Offer & { '@type': 'Offer' } {
  const { startingPrice: price, priceUnit } = startingPrice(f.model);
  const unitCode = priceUnit === 'hr' ? 'HUR' : priceUnit === 'day' ? 'DAY' : null;
  return {
    '@type': 'Offer',
    price: price ?? 0,
    priceCurrency: f.currency.toUpperCase(),
    availability: live.inStock ? IN_STOCK : SOLD_OUT,
    url: f.url,
    seller: { '@type': 'Organization', name: f.operator.name, url: f.operator.url },
    ...(unitCode && price != null
      ? {
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price,
            priceCurrency: f.currency.toUpperCase(),
            unitCode,
            referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode },
          },
        }
      : {}),
    ...(live.departure ? { validFrom: live.asOf, availabilityEnds: live.departure.start } : {}),
  };
}

export function itemJsonLd(f: ItemFacts, live: LiveOffer): WithContext<Product> | WithContext<Event> {
  const common = {
    '@id': `${f.url}#${f.kind === 'tour' && live.departure ? 'event' : 'product'}`,
    name: f.name,
    ...(f.model.description ? { description: f.model.description } : {}),
    ...(f.model.images?.length ? { image: f.model.images } : {}),
    url: f.url,
    offers: offerOf(f, live),
  };
  if (f.kind === 'tour' && live.departure) {
    const ev: WithContext<Event> = {
      '@context': 'https://schema.org',
      '@type': 'Event',
      ...common,
      startDate: live.departure.start,
      endDate: live.departure.end,
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: place(f.location),
      organizer: { '@type': 'Organization', name: f.operator.name, url: f.operator.url },
      maximumAttendeeCapacity: live.departure.capacity,
      remainingAttendeeCapacity: live.departure.seatsFree,
    };
    return ev;
  }
  const product: WithContext<Product> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    ...common,
    sku: f.id,
    ...(f.model.category ? { category: f.model.category } : {}),
    brand: { '@type': 'Brand', name: f.operator.name },
  };
  return product;
}

export function locationJsonLd(
  l: LocationFacts,
  operator: { name: string; url: string },
  items: { facts: ItemFacts; live: LiveOffer }[],
): WithContext<LocalBusiness> {
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${l.url}#business`,
    name: l.name,
    url: l.url,
    telephone: l.phoneNumber,
    address: { '@type': 'PostalAddress', streetAddress: l.address },
    ...(l.latitude != null && l.longitude != null ? { geo: { '@type': 'GeoCoordinates', latitude: l.latitude, longitude: l.longitude } } : {}),
    parentOrganization: { '@type': 'Organization', name: operator.name, url: operator.url },
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: `${l.name}: rentals and tours`,
      itemListElement: items.map(({ facts, live }) => ({
        ...offerOf(facts, live),
        itemOffered:
          facts.kind === 'tour' && live.departure
            ? { '@type': 'Event', name: facts.name, url: facts.url, startDate: live.departure.start, location: place(l) }
            : { '@type': 'Product', name: facts.name, url: facts.url, sku: facts.id },
      })),
    },
  };
}

/** The facts of a location the JSON-LD states (its page under `base`). */
export function locationFacts(l: LocationRow, base: string): LocationFacts {
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    phoneNumber: l.phoneNumber,
    latitude: l.latitude,
    longitude: l.longitude,
    url: `${base}/locations/${l.id}`,
  };
}

/** The facts of an item the JSON-LD states (its page under `base`). */
export function itemFacts(item: ItemContext, operatorName: string, base: string): ItemFacts {
  return {
    id: item.row.id,
    name: item.row.name,
    kind: item.item.kind,
    model: item.item.model,
    currency: item.currency,
    url: `${base}/inventory/${item.row.id}`,
    operator: { name: operatorName, url: base },
    location: locationFacts(item.location, base),
  };
}
