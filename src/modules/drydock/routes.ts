import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Availability, holds and drydock'];
const NOTE = `Dates are \`YYYY-MM-DD\` (whole local days in the location's zone, endDate inclusive) or ISO 8601 date-times with offset; an invalid
date or an end before the start is 400. The period goes through the item's lock like a sale: overlapping bookings, holds or another drydock period of
the same assets answer 409 \`unavailable\` with \`conflicts\` (move or cancel them first). Needs the \`inventory\` permission (admins and managers
have it).`;

export const create = route({
  method: 'post',
  path: '/drydock',
  operationId: 'createDrydock',
  tags,
  summary: 'Take an item (or chosen assets) out of rental for a period',
  description: `Blocks every asset of the item (and assets added later) when \`assetIds\` is absent; tours are blocked whole. Answers 200 with the
period (its id is \`rentalId\`). ${NOTE}`,
  body: s.CreateBody,
  ok: s.Drydock,
  errors: [403, 404, 409],
});
export const list = route({
  method: 'get',
  path: '/drydock',
  operationId: 'listDrydocks',
  tags,
  summary: 'Drydock periods of an item',
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.Drydock), total: z.number() }),
  errors: [404],
  description: `Every drydock period of the item \`boatId\` in start order (past ones included), with \`total\`. With \`assetId\` only the periods
that block that asset, whole-item periods included (an asset of another item answers 404). Another operator's item answers 404.`,
});
export const update = route({
  method: 'patch',
  path: '/drydock',
  operationId: 'updateDrydock',
  tags,
  summary: 'Change the dates (or the asset) of a drydock period',
  description: `Re-checked inside the lock with the period's own current time not counting; the old time is released and the new one taken at once. ${NOTE}`,
  body: s.UpdateBody,
  ok: s.Drydock,
  errors: [403, 404, 409],
});
export const remove = route({
  method: 'delete',
  path: '/drydock',
  operationId: 'deleteDrydock',
  tags,
  summary: 'End a drydock period (the item is rentable again)',
  body: s.DeleteBody,
  ok: z.object({ success: z.boolean(), rentalId: z.string(), deleted: s.Drydock }),
  errors: [403, 404],
  description: `Deletes the period \`rentalId\` and frees its time at once: the item (or its assets) can be sold again for those dates.
Answers the deleted period. Needs the \`inventory\` permission; another operator's period answers 404.`,
});
