import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

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
export const DeviceList = z
  .object({ data: z.array(Device), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('GpsDeviceList');
export const DeviceParams = z.object({ deviceId: zId('gpd_01J0000000000000000000000') });

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const HomeAreaParams = z.object({ locationId: zId('loc_01J0000000000000000000000') });
export const HomeAreaBody = z
  .object({
    geofenceId: zId('gfn_01J0000000000000000000000').openapi({ description: 'A geofence of the location (POST /geofences)' }),
  })
  .openapi('GpsHomeAreaSet');
export const HomeArea = z
  .object({
    locationId: z.string(),
    geofenceId: z.string(),
    name: z.string().openapi({ description: "The geofence's name" }),
    updatedAt: z.string(),
  })
  .openapi('GpsHomeArea');
export const HomeAreaList = z
  .object({ data: z.array(HomeArea), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('GpsHomeAreaList');

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
