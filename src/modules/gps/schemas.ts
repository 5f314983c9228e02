import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

const Point = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).openapi('GpsPoint');

export const AlertsQuery = z.object({
  minutes: z.coerce.number().int().min(1).max(43_200).default(1440).openapi({ description: 'Alerts of the last N minutes (default 1440, a day)' }),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  locationId: z.string().max(128).optional().openapi({ description: 'One location (default: every location of the operator)' }),
});
export const DeviceAlertsParams = z.object({ deviceName: z.string().trim().min(1).max(100) });
export const DeviceAlertsQuery = AlertsQuery.omit({ locationId: true });
export const SummaryQuery = z.object({ hours: z.coerce.number().int().min(1).max(720).default(24) });

export const Alert = z
  .object({
    alertId: z.string(),
    type: z.enum(['geofence_exit', 'overdue_return', 'auto_returned']),
    locationId: z.string(),
    deviceId: z.string(),
    deviceName: z.string(),
    geofenceId: z.string().nullable(),
    rentalId: z.string().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    accuracyMeters: z.number().nullable(),
    message: z.string(),
    createdAt: z.string(),
  })
  .openapi('GpsAlert');
export const AlertList = z.object({ data: z.array(Alert), since: z.string(), limit: z.number().int() }).openapi('GpsAlertList');
export const Summary = z
  .object({
    hours: z.number().int(),
    since: z.string(),
    devices: z.array(
      z.object({
        deviceName: z.string(),
        deviceId: z.string(),
        total: z.number().int(),
        byType: z.object({ geofence_exit: z.number().int(), overdue_return: z.number().int(), auto_returned: z.number().int() }),
        lastAlertAt: z.string(),
      }),
    ),
  })
  .openapi('GpsAlertSummary');

export const CreateDeviceBody = z
  .object({
    locationId: zId('loc_01J0000000000000000000000'),
    deviceName: z.string().trim().min(1).max(100),
    inventoryId: zId('inv_01J0000000000000000000000').optional(),
    assetId: z.string().trim().min(1).max(128).optional().openapi({ description: 'The boat carrying the tracker (needed for overdue and auto-return)' }),
  })
  .openapi('GpsDeviceCreate');
export const Device = z
  .object({
    deviceId: z.string(),
    deviceName: z.string(),
    locationId: z.string(),
    inventoryId: z.string().nullable(),
    assetId: z.string().nullable(),
    keyPrefix: z.string(),
    status: z.enum(['active', 'disabled']),
    lastPosition: z.object({ lat: z.number(), lng: z.number(), accuracyMeters: z.number().nullable(), recordedAt: z.string() }).nullable(),
    createdAt: z.string(),
  })
  .openapi('GpsDevice');
export const CreatedDevice = Device.extend({ deviceKey: z.string().openapi({ description: 'The device credential (shown once)' }) }).openapi(
  'GpsDeviceCreated',
);
export const DeviceList = z.object({ data: z.array(Device) }).openapi('GpsDeviceList');
export const DeviceParams = z.object({ deviceId: zId('gpd_01J0000000000000000000000') });

export const CreateGeofenceBody = z
  .object({
    locationId: zId('loc_01J0000000000000000000000'),
    name: z.string().trim().min(1).max(100),
    shape: z.enum(['circle', 'polygon']),
    center: Point.optional(),
    radiusMeters: z.number().min(5).max(50_000).optional(),
    points: z.array(Point).min(3).max(200).optional(),
    isHome: z.boolean().optional().openapi({ description: 'The home (return) area of the location: the one auto-return and overdue use' }),
  })
  .superRefine((g, ctx) => {
    if (g.shape === 'circle') {
      if (!g.center) ctx.addIssue({ code: 'custom', path: ['center'], message: 'is required for a circle' });
      if (g.radiusMeters === undefined) ctx.addIssue({ code: 'custom', path: ['radiusMeters'], message: 'is required for a circle' });
      if (g.points) ctx.addIssue({ code: 'custom', path: ['points'], message: 'is for polygons only' });
    } else {
      if (!g.points) ctx.addIssue({ code: 'custom', path: ['points'], message: 'are required for a polygon (at least 3)' });
      if (g.center || g.radiusMeters !== undefined) ctx.addIssue({ code: 'custom', path: ['center'], message: 'is for circles only' });
    }
  })
  .openapi('GpsGeofenceCreate');
export const Geofence = z
  .object({
    geofenceId: z.string(),
    locationId: z.string(),
    name: z.string(),
    shape: z.enum(['circle', 'polygon']),
    center: Point.nullable(),
    radiusMeters: z.number().nullable(),
    points: z.array(Point).nullable(),
    isHome: z.boolean(),
    createdAt: z.string(),
  })
  .openapi('GpsGeofence');
export const GeofenceList = z.object({ data: z.array(Geofence) }).openapi('GpsGeofenceList');
export const GeofenceQuery = z.object({ locationId: z.string().max(128).optional() });
export const GeofenceParams = z.object({ geofenceId: zId('gpf_01J0000000000000000000000') });

export const Settings = z
  .object({
    autoReturn: z.boolean(),
    maxAccuracyMeters: z.number(),
    overdueGraceMinutes: z.number().int(),
  })
  .openapi('GpsSettings');
export const SettingsBody = z
  .object({
    autoReturn: z.boolean().optional(),
    maxAccuracyMeters: z.number().min(5).max(500).optional(),
    overdueGraceMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .optional(),
  })
  .openapi('GpsSettingsUpdate');

export const IngestBody = z
  .object({
    fixes: z
      .array(
        z.object({
          lat: z.number().min(-90).max(90),
          lng: z.number().min(-180).max(180),
          accuracy: z
            .number()
            .min(0)
            .max(100_000)
            .optional()
            .openapi({ description: 'Horizontal accuracy in meters (fixes without it never move a boat across a fence)' }),
          recordedAt: z.string().datetime({ offset: true }).optional().openapi({ description: 'When the fix was taken (default: now)' }),
          speed: z.number().min(0).max(200).optional().openapi({ description: 'm/s' }),
          heading: z.number().min(0).max(360).optional(),
        }),
      )
      .min(1)
      .max(100),
  })
  .openapi('GpsIngest');
export const IngestResult = z
  .object({
    deviceId: z.string(),
    accepted: z.number().int(),
    ignoredOlder: z.number().int(),
    alerts: z.array(Alert),
    returnedRentalIds: z.array(z.string()),
  })
  .openapi('GpsIngestResult');
export const Deleted = z.object({ success: z.boolean(), id: z.string() }).openapi('GpsDeleted');
