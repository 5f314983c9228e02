import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const BaseUrlQuery = z.object({
  baseUrl: z
    .string()
    .trim()
    .url()
    .max(500)
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
    .optional()
    .openapi({ description: "The operator's public site: item URLs are `{baseUrl}/inventory/{id}`, location URLs `{baseUrl}/locations/{id}`" }),
});
export const InventoryParams = z.object({ inventoryId: zId('inv_01J0000000000000000000000') });
export const LocationParams = z.object({ locationId: zId('loc_01J0000000000000000000000') });
export const CustomerParams = z.object({ customerId: zId('cus_01J0000000000000000000000') });

const Offer = z
  .object({
    '@type': z.literal('Offer'),
    price: z.number().nullable(),
    priceCurrency: z.string(),
    availability: z.enum(['https://schema.org/InStock', 'https://schema.org/SoldOut']),
    url: z.string(),
  })
  .loose()
  .openapi('SchemaOrgOffer');

export const JsonLd = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.enum(['Product', 'Event', 'LocalBusiness']),
    '@id': z.string(),
    name: z.string(),
    url: z.string(),
    offers: Offer.optional(),
  })
  .loose()
  .openapi('SchemaOrgJsonLd', {
    description: `schema.org JSON-LD (Product or Event with an Offer for an item; LocalBusiness for a location). Embed it in the page in a script element of
type \`application/ld+json\`.`,
  });
export const JsonLdList = z.array(JsonLd).openapi('SchemaOrgJsonLdList');
