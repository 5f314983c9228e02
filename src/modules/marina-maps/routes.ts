import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Marina maps'];
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const PIN = 'Pins are stored on the slips: a slip is on at most one map; x and y are percent of the map image (0 to 100) from the top left.';

export const mapsOrMap = route({
  method: 'get',
  path: '/slips/maps/{id}',
  operationId: 'getMarinaMaps',
  tags,
  summary: 'Maps of a location, or one map with its pins',
  description: `One path for both catalog uses: with a location id (\`/slips/maps/{locationId}\`) the maps of that location in display order (\`activeOnly=true\` keeps the active ones; \`limit\`/\`offset\`, \`total\`); with a map id (\`smap_...\`, \`/slips/maps/{mapId}\`) that map with its \`pins\`. Another operator's location or map answers 404. ${PIN}`,
  params: s.IdParams,
  query: s.ListQuery,
  ok: s.MapList.or(s.MapWithPins),
  errors: [404],
});

export const createMap = route({
  method: 'post',
  path: '/slips/maps',
  operationId: 'createMarinaMap',
  tags,
  status: 201,
  summary: 'Create a marina map',
  description: `A map of a location: \`name\`, \`imageUrl\` with its pixel size, \`displayOrder\` (default: after the last map), \`isActive\` (default true; public pages show active maps). ${PERM}`,
  body: s.CreateBody,
  ok: s.MarinaMap,
  errors: [403, 404],
});

export const reorderMaps = route({
  method: 'put',
  path: '/slips/maps/reorder',
  operationId: 'reorderMarinaMaps',
  tags,
  summary: 'Set the display order of the maps of a location',
  description: `\`mapIds\` in the wanted order get display order 0, 1, 2...; maps not listed follow in their current order. A map of another location answers 404 and nothing changes. ${PERM}`,
  body: s.ReorderBody,
  ok: s.ReorderResult,
  errors: [403, 404],
});

export const batchPins = route({
  method: 'put',
  path: '/slips/maps/batch-pins',
  operationId: 'batchUpdateMarinaMapPins',
  tags,
  summary: 'Place, move and remove many pins of a map at once',
  description: `\`pins\` places or moves each slip on the map (from another map too), \`remove\` takes slips off it. Everything is checked first (unknown slips 404, slips of another location or not on this map 400) and written in one atomic write: nothing changes when anything is refused. ${PIN} ${PERM}`,
  body: s.BatchPinsBody,
  ok: s.BatchPinsResult,
  errors: [403, 404],
});

export const updateMap = route({
  method: 'put',
  path: '/slips/maps/{id}',
  operationId: 'updateMarinaMap',
  tags,
  summary: 'Update a marina map',
  description: `Partial update of the map's fields; answers the map with its pins. ${PERM}`,
  params: s.MapIdParams,
  body: s.UpdateBody,
  ok: s.MapWithPins,
  errors: [403, 404],
});

export const deleteMap = route({
  method: 'delete',
  path: '/slips/maps/{id}',
  operationId: 'deleteMarinaMap',
  tags,
  summary: 'Delete a marina map (its slips become unassigned)',
  description: `The map is deleted and its pins cleared in one write; the slips stay. ${PERM}`,
  params: s.MapIdParams,
  ok: s.DeleteResult,
  errors: [403, 404],
});

export const toggleActive = route({
  method: 'patch',
  path: '/slips/maps/{mapId}/toggle-active',
  operationId: 'toggleMarinaMapActive',
  tags,
  summary: 'Flip the active flag of a map',
  description: `Active maps are shown to the public. ${PERM}`,
  params: s.MapParams,
  ok: s.MarinaMap,
  errors: [403, 404],
});

export const mapPins = route({
  method: 'get',
  path: '/slips/maps/{mapId}/pins',
  operationId: 'listMarinaMapPins',
  tags,
  summary: 'Pins of a map',
  description: PIN,
  params: s.MapParams,
  ok: s.Pins,
  errors: [404],
});

export const unassigned = route({
  method: 'get',
  path: '/slips/maps/{locationId}/unassigned',
  operationId: 'listUnassignedSlips',
  tags,
  summary: 'Slips of a location that are on no map',
  description: 'Out-of-service slips are left out.',
  params: s.LocationParams,
  ok: s.Unassigned,
  errors: [404],
});

export const assignPin = route({
  method: 'put',
  path: '/slips/{slipId}/map-pin',
  operationId: 'assignSlipMapPin',
  tags,
  summary: 'Put a slip on a map (or move it to another map)',
  description: `The map must be of the slip's location (400 otherwise). ${PIN} ${PERM}`,
  params: s.SlipParams,
  body: s.AssignPinBody,
  ok: s.PinResult,
  errors: [403, 404],
});

export const movePin = route({
  method: 'patch',
  path: '/slips/{slipId}/map-pin',
  operationId: 'moveSlipMapPin',
  tags,
  summary: "Move a slip's pin on its map (position only)",
  description: `409 \`invalid_state\` when the slip is on no map. ${PIN} ${PERM}`,
  params: s.SlipParams,
  body: s.MovePinBody,
  ok: s.PinResult,
  errors: [403, 404, 409],
});

export const removePin = route({
  method: 'delete',
  path: '/slips/{slipId}/map-pin',
  operationId: 'removeSlipMapPin',
  tags,
  summary: 'Take a slip off its map',
  description: `\`removed\` is false when the slip was on no map. ${PERM}`,
  params: s.SlipParams,
  ok: s.PinResult,
  errors: [403, 404],
});
