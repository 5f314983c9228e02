/**
 * Structured data (`/schema/*`) through HTTP, validated against the schema.org shapes search
 * engines read (Product and Event with an Offer, LocalBusiness with an OfferCatalog), with prices
 * and InStock/SoldOut from the live availability engine.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { z } from 'zod';
import { createOperator, expectError, get, type Operator } from '../../harness';
import { book, bookBody, rentalItem, tourItem, type TestItem } from '../bookings/factories';

const Availability = z.enum(['https://schema.org/InStock', 'https://schema.org/SoldOut']);
const PostalAddress = z.object({ '@type': z.literal('PostalAddress'), streetAddress: z.string().min(1) }).strict();
const Place = z
  .object({
    '@type': z.literal('Place'),
    name: z.string().min(1),
    address: PostalAddress,
    geo: z
      .object({ '@type': z.literal('GeoCoordinates'), latitude: z.number(), longitude: z.number() })
      .strict()
      .optional(),
  })
  .strict();
const Organization = z.object({ '@type': z.literal('Organization'), name: z.string().min(1), url: z.string().url() }).strict();
const QuantitativeValue = z.object({ '@type': z.literal('QuantitativeValue'), value: z.number(), unitCode: z.string() }).strict();
const Offer = z
  .object({
    '@type': z.literal('Offer'),
    price: z.number().min(0),
    priceCurrency: z.string().regex(/^[A-Z]{3}$/),
    availability: Availability,
    url: z.string().url(),
    seller: Organization,
    priceSpecification: z
      .object({
        '@type': z.literal('UnitPriceSpecification'),
        price: z.number(),
        priceCurrency: z.string().regex(/^[A-Z]{3}$/),
        unitCode: z.enum(['HUR', 'DAY']),
        referenceQuantity: QuantitativeValue,
      })
      .strict()
      .optional(),
    validFrom: z.string().datetime().optional(),
    availabilityEnds: z.string().datetime().optional(),
  })
  .strict();
const base = { '@context': z.literal('https://schema.org'), '@id': z.string().url(), name: z.string().min(1), url: z.string().url(), offers: Offer };
const Product = z
  .object({
    ...base,
    '@type': z.literal('Product'),
    sku: z.string(),
    brand: z.object({ '@type': z.literal('Brand'), name: z.string() }).strict(),
    description: z.string().optional(),
    image: z.array(z.string()).optional(),
    category: z.string().optional(),
  })
  .strict();
const Event = z
  .object({
    ...base,
    '@type': z.literal('Event'),
    startDate: z.string().datetime(),
    endDate: z.string().datetime(),
    eventStatus: z.literal('https://schema.org/EventScheduled'),
    eventAttendanceMode: z.literal('https://schema.org/OfflineEventAttendanceMode'),
    location: Place,
    organizer: Organization,
    maximumAttendeeCapacity: z.number().int(),
    remainingAttendeeCapacity: z.number().int().min(0),
    description: z.string().optional(),
    image: z.array(z.string()).optional(),
  })
  .strict();
const LocalBusiness = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('LocalBusiness'),
    '@id': z.string().url(),
    name: z.string(),
    url: z.string().url(),
    telephone: z.string(),
    address: PostalAddress,
    geo: z.object({ '@type': z.literal('GeoCoordinates'), latitude: z.number(), longitude: z.number() }).optional(),
    parentOrganization: Organization,
    hasOfferCatalog: z
      .object({
        '@type': z.literal('OfferCatalog'),
        name: z.string(),
        itemListElement: z.array(
          Offer.extend({
            itemOffered: z.union([
              z.object({ '@type': z.literal('Product'), name: z.string(), url: z.string().url(), sku: z.string() }).strict(),
              z.object({ '@type': z.literal('Event'), name: z.string(), url: z.string().url(), startDate: z.string().datetime(), location: Place }).strict(),
            ]),
          }).strict(),
        ),
      })
      .strict(),
  })
  .strict();

function valid<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  expect(r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), JSON.stringify(body, null, 1)).toEqual([]);
  return r.data as T;
}

describe('structured data', () => {
  let op: Operator;
  let boat: TestItem;
  let tour: TestItem;
  let hidden: TestItem;
  beforeAll(async () => {
    op = await createOperator({ name: 'Sunny Boats' });
    boat = await rentalItem(op, { data: { description: 'A 22 ft pontoon', category: 'Pontoons', images: ['https://img.example/p.jpg'] } });
    tour = await tourItem(op, { capacity: 4 });
    hidden = await rentalItem(op, { isPublic: false });
  });

  it('a rental: Product with an Offer (starting price, currency, InStock), public and anonymous; baseUrl builds the URLs', async () => {
    const r = await get(`/schema/inventory/${boat.id}?baseUrl=${encodeURIComponent('https://sunny.example/')}`);
    expect(r.status, r.text).toBe(200);
    const p = valid(Product, r.body);
    expect(p).toMatchObject({
      name: 'Pontoon 22',
      url: `https://sunny.example/inventory/${boat.id}`,
      sku: boat.id,
      category: 'Pontoons',
      offers: { price: 100, priceCurrency: 'USD', availability: 'https://schema.org/InStock', priceSpecification: { unitCode: 'HUR' } },
    });
    expect(p.offers.seller.name).toBe('Sunny Boats');
    // Without baseUrl: this service's origin.
    expect((await get(`/schema/inventory/${boat.id}`)).body.url).toBe(`http://berth.test/inventory/${boat.id}`);
    expectError(await get(`/schema/inventory/${boat.id}?baseUrl=notaurl`), 400, 'validation_failed');
  });

  it('403 for an item that is not publicly visible, 404 unknown', async () => {
    expectError(await get(`/schema/inventory/${hidden.id}`), 403, 'forbidden');
    expectError(await get('/schema/inventory/inv_unknown'), 404, 'not_found');
  });

  it('sold out by the live engine: a rental blocked for the next month, a tour whose next departure is full', async () => {
    const blocked = await rentalItem(op, {
      data: {
        maintenanceBlocks: [
          { start: new Date(Date.now() - 86_400_000).toISOString(), end: new Date(Date.now() + 40 * 86_400_000).toISOString(), reason: 'Refit' },
        ],
      },
    });
    expect(valid(Product, (await get(`/schema/inventory/${blocked.id}`)).body).offers.availability).toBe('https://schema.org/SoldOut');

    const before = valid(Event, (await get(`/schema/inventory/${tour.id}`)).body);
    expect(before).toMatchObject({
      maximumAttendeeCapacity: 4,
      remainingAttendeeCapacity: 4,
      offers: { price: 50, availability: 'https://schema.org/InStock' },
    });
    expect(Date.parse(before.startDate)).toBeGreaterThan(Date.now());
    expect(before.location.address.streetAddress).toBe('1 Harbour Way');
    const full = await book(op, bookBody({ inventoryId: tour.id, startTime: before.startDate, tickets: { Adult: 4 } }));
    expect(full.status, full.text).toBe(201);
    const after = valid(Event, (await get(`/schema/inventory/${tour.id}`)).body);
    expect(after.startDate).toBe(before.startDate);
    expect(after).toMatchObject({ remainingAttendeeCapacity: 0, offers: { availability: 'https://schema.org/SoldOut' } });
  });

  it('a location: LocalBusiness with its public inventory; all items of an operator', async () => {
    const r = await get(`/schema/location/${op.locationId}?baseUrl=https://sunny.example`);
    expect(r.status, r.text).toBe(200);
    const lb = valid(LocalBusiness, r.body);
    expect(lb).toMatchObject({ name: 'Main dock', url: `https://sunny.example/locations/${op.locationId}`, telephone: '+15555550100' });
    const offered = lb.hasOfferCatalog.itemListElement.map((o) => o.itemOffered.url);
    expect(offered).toContain(`https://sunny.example/inventory/${boat.id}`);
    expect(offered).toContain(`https://sunny.example/inventory/${tour.id}`);
    expect(offered).not.toContain(`https://sunny.example/inventory/${hidden.id}`);
    expectError(await get('/schema/location/loc_unknown'), 404);

    const all = await get(`/schema/all/${op.customerId}`);
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    for (const doc of all.body) {
      if (doc['@type'] === 'Event') valid(Event, doc);
      else valid(Product, doc);
    }
    expect(all.body.map((d: any) => d.sku ?? d['@id'])).not.toContain(hidden.id);
    expect(all.body.length).toBeGreaterThanOrEqual(2);
    expectError(await get('/schema/all/cus_unknown'), 404);
  });

  it("reads the operator's clock: the next departure and the offer's validFrom follow a pinned clock", async () => {
    // Thu 14 Jan 2027, 10:30 in New York: the 10:00 departure has left, the 14:00 one is next.
    const pinned = await createOperator({ name: 'Pinned Boats', clockAt: '2027-01-14T15:30:00Z', timezone: 'America/New_York' });
    const t = await tourItem(pinned, { capacity: 4 });
    const ev = valid(Event, (await get(`/schema/inventory/${t.id}`)).body);
    expect(ev).toMatchObject({ startDate: '2027-01-14T19:00:00.000Z', endDate: '2027-01-14T21:00:00.000Z' });
    expect(ev.offers).toMatchObject({ validFrom: '2027-01-14T15:30:00.000Z', availabilityEnds: '2027-01-14T19:00:00.000Z' });
  });
});
