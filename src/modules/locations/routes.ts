import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Locations'];

export const listLocations = route({
  method: 'get',
  path: '/location',
  operationId: 'listLocations',
  tags,
  summary: "The caller's locations, or the location of one inventory item",
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.Location) }).or(s.Location),
  errors: [404],
  description: `Without \`inventoryId\`: \`{data: Location[]}\` with every location of the operator (including those scheduled for deletion). With
\`inventoryId\`: that item's Location.`,
});
export const createLocation = route({
  method: 'post',
  path: '/location',
  operationId: 'createLocation',
  tags,
  summary: 'Create a location (address geocoded, chat notification sent)',
  body: s.CreateBody,
  ok: s.Location,
  status: 200,
  errors: [403, 404],
  description: `Creates a location of the caller's account. The address is geocoded (coordinates, and the time zone unless \`timezone\` is given;
UTC when neither is known), and a chat notification is posted to the operator team. Needs the \`locations\` permission. Answers 200 with the location.`,
});
export const updateLocation = route({
  method: 'patch',
  path: '/location',
  operationId: 'updateLocation',
  tags,
  summary: 'Update a location (a new address is geocoded again)',
  body: s.UpdateBody,
  ok: s.Location,
  errors: [404],
  description: `Changes the fields given of \`locationId\`; a new address is geocoded again. Needs the \`locations\` permission; another operator's
location answers 404 and a body with nothing to change 400 \`no_changes\`.`,
});
export const deleteLocation = route({
  method: 'delete',
  path: '/location',
  operationId: 'deleteLocation',
  tags,
  summary: 'Schedule a location for permanent deletion after 60 days',
  body: s.DeleteBody,
  ok: s.Location,
  errors: [403, 404, 409],
  description: 'The location keeps working read-only until the purge job deletes it 60 days later; `PATCH /location/restore` cancels the deletion.',
});
export const updateIvr = route({
  method: 'patch',
  path: '/location/ivr',
  operationId: 'updateLocationIvr',
  tags,
  summary: 'Set the voice-menu configuration of a location',
  body: s.IvrBody,
  ok: s.Location,
  errors: [404],
  description:
    "Merges `ivrConfig` into the location's voice-menu configuration (the menu callers hear on its phone numbers). Needs the `locations` permission.",
});
export const restoreLocation = route({
  method: 'patch',
  path: '/location/restore',
  operationId: 'restoreLocation',
  tags,
  summary: 'Restore a location scheduled for deletion',
  body: s.RestoreBody,
  ok: s.Location,
  errors: [404],
  description: `Cancels a scheduled deletion: the location is \`active\` again. A location that is not scheduled for deletion answers 400. Needs the
\`locations\` permission.`,
});
