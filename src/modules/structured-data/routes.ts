import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Structured data'];

export const inventorySchema = route({
  method: 'get',
  path: '/schema/inventory/{inventoryId}',
  operationId: 'getInventoryStructuredData',
  tags,
  access: 'public',
  summary: 'schema.org JSON-LD of an inventory item (Product, or Event for a tour) with its Offer',
  params: s.InventoryParams,
  query: s.BaseUrlQuery,
  ok: s.JsonLd,
  errors: [403, 404],
  description: `A rental is a \`Product\`, a tour an \`Event\` (its next departure, with the seats left). The \`Offer\` carries the starting price,
the currency and \`availability\` from the live engine: \`InStock\` when the item can be booked in the next 30 days (a tour: when its next
departure has a seat), else \`SoldOut\`. An item that is not publicly visible answers 403; an unknown or deleted one 404.`,
});
export const locationSchema = route({
  method: 'get',
  path: '/schema/location/{locationId}',
  operationId: 'getLocationStructuredData',
  tags,
  access: 'public',
  summary: 'schema.org LocalBusiness JSON-LD of a location with its public inventory',
  params: s.LocationParams,
  query: s.BaseUrlQuery,
  ok: s.JsonLd,
  errors: [404],
  description: 'The `hasOfferCatalog` lists an Offer per public item of the location (at most 100).',
});
export const operatorSchema = route({
  method: 'get',
  path: '/schema/all/{customerId}',
  operationId: 'listOperatorStructuredData',
  tags,
  access: 'public',
  summary: 'schema.org JSON-LD of every public item of an operator',
  params: s.CustomerParams,
  query: s.BaseUrlQuery,
  ok: s.JsonLdList,
  errors: [404],
  description: 'An array with one Product or Event per public item (at most 100); 404 for an unknown operator.',
});
