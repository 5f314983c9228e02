import { z } from '@hono/zod-openapi';
import { Ok, route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Geofences and positions'];

export const listGeofences = route({
  method: 'get',
  path: '/geofences',
  operationId: 'listGeofences',
  tags,
  summary: 'Geofences of the operator (optionally of one location)',
  query: s.ListQuery,
  ok: s.GeofenceList,
  description: `Newest first, \`limit\`/\`offset\`, \`total\`; \`locationId\` keeps the geofences of one location. A circle has \`center\` and \`radiusMeters\` (\`points\` null), a polygon \`points\` (\`center\` and \`radiusMeters\` null). Gateway scope: \`read:geofence\`.`,
});
export const createGeofence = route({
  method: 'post',
  path: '/geofences',
  operationId: 'createGeofence',
  tags,
  summary: 'Create a geofence: a circle (center, radiusMeters) or a polygon (points)',
  body: s.CreateGeofence,
  ok: s.Geofence,
  status: 201,
  errors: [403, 404],
  description: 'Needs the `geofences` permission (admins and managers have it). Gateway scope: `write:geofence`.',
});
export const getGeofence = route({
  method: 'get',
  path: '/geofences/{geofenceId}',
  operationId: 'getGeofence',
  tags,
  summary: 'One geofence',
  params: s.GeofenceIdParam,
  ok: s.Geofence,
  errors: [404],
  description: "Its shape and geometry, `details` and times. Another operator's geofence answers 404. Gateway scope: `read:geofence`.",
});
export const updateGeofence = route({
  method: 'patch',
  path: '/geofences/{geofenceId}',
  operationId: 'updateGeofence',
  tags,
  summary: 'Change a geofence (name, details, or its shape and geometry)',
  params: s.GeofenceIdParam,
  body: s.UpdateGeofence,
  ok: s.Geofence,
  errors: [403, 404],
  description: `Only the fields given change. Changing the shape needs the whole geometry of the new shape (a circle: \`center\` and \`radiusMeters\`; a polygon: 3 or more \`points\`), else 400 naming the missing fields; within the same shape a part can change alone. 400 \`no_changes\` for an empty body. Needs the \`geofences\` permission. Gateway scope: \`write:geofence\`.`,
});
export const deleteGeofence = route({
  method: 'delete',
  path: '/geofences/{geofenceId}',
  operationId: 'deleteGeofence',
  tags,
  summary: 'Delete a geofence',
  params: s.GeofenceIdParam,
  ok: Ok,
  errors: [403, 404],
  description: `Positions stay; they are simply no longer inside it (\`geofenceIds\`). Another operator's geofence answers 404. Needs the \`geofences\` permission. Answers \`success\` and the \`geofenceId\`. Gateway scope: \`write:geofence\`.`,
});
export const listStaffLocations = route({
  method: 'get',
  path: '/staff-locations',
  operationId: 'listStaffLocations',
  tags,
  summary: 'Last known position of each staff member',
  query: s.PositionsQuery.pick({ locationId: true }),
  ok: z.object({ data: z.array(s.StaffLocation) }),
  description: `One entry per staff member who reported a position (POST /staff-locations), the most recent reading first: coordinates, accuracy, heading, speed, \`recordedAt\`, \`source\` (\`staff\` or \`app:<appId>\`) and the geofences containing it (\`geofenceIds\`). \`locationId\` keeps the readings reported at one location. Gateway scope: \`read:geofence\`.`,
});
export const reportStaffLocation = route({
  method: 'post',
  path: '/staff-locations',
  operationId: 'reportStaffLocation',
  tags,
  summary: "Report a staff member's position (default: the caller)",
  body: s.StaffReport,
  ok: s.Reported(s.StaffLocation),
  errors: [403, 404],
  description: `Only a reading newer than the last known one replaces it (\`updated: false\` otherwise). Reporting for another user needs the \`staff_locations\` permission. \`geofenceIds\` lists the geofences containing the position.`,
});
export const listAssetPositions = route({
  method: 'get',
  path: '/asset-positions',
  operationId: 'listAssetPositions',
  tags,
  summary: 'Last known position of each asset',
  query: s.PositionsQuery,
  ok: z.object({ data: z.array(s.AssetPosition) }),
  description: `One entry per asset that has a reported position, the most recent reading first, with its item, location, \`source\` (\`device\` or \`gps\`) and the geofences containing it (\`geofenceIds\`). \`locationId\` and \`itemId\` narrow the list; assets never reported are not listed (GET /asset-tracking shows them with \`position: null\`). Gateway scope: \`read:geofence\`.`,
});
export const reportAssetPosition = route({
  method: 'post',
  path: '/asset-positions',
  operationId: 'reportAssetPosition',
  tags,
  summary: 'A device or the GPS integration reports where an asset is',
  body: s.AssetReport,
  ok: s.Reported(s.AssetPosition),
  errors: [403, 404],
  description: 'Only a reading newer than the last known one replaces it. Needs the `inventory` permission.',
});
export const liveMap = route({
  method: 'get',
  path: '/asset-tracking',
  operationId: 'getAssetTrackingMap',
  tags,
  summary: 'The live map of a location (the asset-tracking embed): geofences, assets with positions, staff',
  query: s.TrackingQuery,
  ok: s.LiveMap,
  errors: [404],
  description: 'Assets without a device report have `position: null`. Gateway scope: `read:geofence`.',
});
