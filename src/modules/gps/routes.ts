import { route } from '../../lib/openapi';
import * as s from './schemas';
import { deviceKey } from './auth';

const tags = ['GPS alerts'];

export const alerts = route({
  method: 'get',
  path: '/integrations/alerts',
  operationId: 'listGpsAlerts',
  tags,
  summary: 'GPS alerts of the last minutes (one location, or all)',
  query: s.AlertsQuery,
  ok: s.AlertList,
  errors: [403],
  description: `Geofence exits, overdue returns and automatic returns, newest first. \`minutes\` (default 1440) and \`limit\` (default 100, at most
500); \`locationId\` keeps one location.`,
});
export const deviceAlerts = route({
  method: 'get',
  path: '/integrations/device-alerts/{deviceName}',
  operationId: 'listGpsDeviceAlerts',
  description: `The alerts of the tracker named \`deviceName\` (404 for a name the operator has not registered), newest first; \`minutes\` and \`limit\` as
for /integrations/alerts.`,
  tags,
  summary: 'GPS alerts of one device',
  params: s.DeviceAlertsParams,
  query: s.DeviceAlertsQuery,
  ok: s.AlertList,
  errors: [403, 404],
});
export const alertSummary = route({
  method: 'get',
  path: '/integrations/alert-summary',
  operationId: 'getGpsAlertSummary',
  description: `For each device with alerts in the last \`hours\` (default 24, at most 720): the total, the count per type and the time of the last one;
busiest device first.`,
  tags,
  summary: 'GPS alert counts grouped by device over the last hours',
  query: s.SummaryQuery,
  ok: s.Summary,
  errors: [403],
});
export const ingest = route({
  method: 'post',
  path: '/integrations/gps/ingest',
  operationId: 'ingestGpsFixes',
  tags,
  access: 'none',
  auth: deviceKey,
  summary: 'Position reports of a tracker (authenticated by its device key)',
  body: s.IngestBody,
  ok: s.IngestResult,
  errors: [401, 429],
  description: `A tracker sends up to 100 fixes with its key (\`Authorization: Bearer gpd_...\` or \`X-Device-Key\`; the body is validated first:
400, then the key: 401). Fixes apply in time order; older than the last applied are stored only. A fix counts for geofences only when its
\`accuracy\` is at most the operator's \`maxAccuracyMeters\` (default 50 m), and it is outside only when its whole accuracy circle is. Two
consecutive accurate fixes on the other side confirm a crossing: leaving a geofence fires \`geofence_exit\` (once per crossing); coming back inside
the home area with auto-return on marks the boat's checked-in rental returned (\`booking.checked_out\`) and fires \`auto_returned\`. A boat still
out after its rental's end plus \`overdueGraceMinutes\` fires \`overdue_return\` (also checked every 5 minutes). 120 requests per minute per device.`,
});
export const createDevice = route({
  method: 'post',
  path: '/integrations/gps/devices',
  operationId: 'createGpsDevice',
  tags,
  access: 'admin',
  summary: 'Register a tracker (its key is shown once)',
  body: s.CreateDeviceBody,
  ok: s.CreatedDevice,
  status: 201,
  errors: [403, 404, 409],
  description: `Device names are unique per operator (409). \`assetId\` ties the tracker to a boat of the location (needed for overdue alerts and
auto-return; its fixes become the boat's position on the live map). Geofences are the location's (\`/geofences\`).`,
});
export const listDevices = route({
  method: 'get',
  path: '/integrations/gps/devices',
  operationId: 'listGpsDevices',
  description: 'Every tracker of the operator with its boat and last position (the key itself is never shown again, only its prefix).',
  tags,
  summary: 'Trackers with their last position',
  query: s.ListQuery,
  ok: s.DeviceList,
  errors: [403],
});
export const deleteDevice = route({
  method: 'delete',
  path: '/integrations/gps/devices/{deviceId}',
  operationId: 'deleteGpsDevice',
  description: 'Admins only. The device key stops working at once; its alerts and positions stay for the record.',
  tags,
  access: 'admin',
  summary: 'Remove a tracker (its key stops working; its alerts stay)',
  params: s.DeviceParams,
  ok: s.Deleted,
  errors: [403, 404],
});
export const listHomeAreas = route({
  method: 'get',
  path: '/integrations/gps/home-areas',
  operationId: 'listGpsHomeAreas',
  description: `The home (return) area of each location: one of its geofences (\`/geofences\`), the area auto-return and overdue checks use. A
home area whose geofence was deleted is not listed (and not used).`,
  tags,
  summary: 'Home areas of the locations',
  query: s.ListQuery,
  ok: s.HomeAreaList,
  errors: [403],
});
export const setHomeArea = route({
  method: 'put',
  path: '/integrations/gps/home-areas/{locationId}',
  operationId: 'setGpsHomeArea',
  tags,
  access: 'admin',
  summary: 'Make one of the geofences of a location its home area',
  params: s.HomeAreaParams,
  body: s.HomeAreaBody,
  ok: s.HomeArea,
  errors: [403, 404],
  description: `Admins only. \`geofenceId\` is a geofence of the location (\`POST /geofences\`; 404 unknown, 400 for another location's); it replaces
the location's previous home area. Boats back inside it (two accurate fixes) are returned automatically when \`autoReturn\` is on, and a boat
inside it is never overdue. Every geofence of the location, home area included, raises \`geofence_exit\` alerts.`,
});
export const deleteHomeArea = route({
  method: 'delete',
  path: '/integrations/gps/home-areas/{locationId}',
  operationId: 'deleteGpsHomeArea',
  description:
    'Admins only. The location has no home area any more: no automatic returns, and overdue alerts go by the rental end alone. 404 when none is set.',
  tags,
  access: 'admin',
  summary: 'Remove the home area of a location',
  params: s.HomeAreaParams,
  ok: s.Deleted,
  errors: [403, 404],
});
export const getSettings = route({
  method: 'get',
  path: '/integrations/gps/settings',
  operationId: 'getGpsSettings',
  description: 'Defaults: auto-return off, fixes count when at most 50 m accurate, a boat is overdue 15 minutes after its rental ends.',
  tags,
  summary: 'GPS settings: auto-return, accuracy threshold, overdue grace',
  ok: s.Settings,
  errors: [403],
});
export const updateSettings = route({
  method: 'put',
  path: '/integrations/gps/settings',
  operationId: 'updateGpsSettings',
  tags,
  access: 'admin',
  summary: 'Change the GPS settings',
  body: s.SettingsBody,
  ok: s.Settings,
  errors: [403],
  description: '`autoReturn` (default false) marks a checked-in rental returned when its boat is back inside the home area.',
});
