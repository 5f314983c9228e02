import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const LatLng = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).openapi('LatLng');
const radius = z.number().min(1).max(100_000).openapi({ description: 'Circle radius in meters (1 to 100,000)' });
const points = z.array(LatLng).min(3).max(200).openapi({ description: 'Polygon vertices in order (3 to 200; the ring closes by itself)' });

export const CreateGeofence = z
  .object({
    locationId: zId('loc_01J0000000000000000000000'),
    name: z.string().trim().min(1).max(120),
    shape: z.enum(['circle', 'polygon']),
    center: LatLng.optional(),
    radiusMeters: radius.optional(),
    points: points.optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('CreateGeofence');
export const UpdateGeofence = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    shape: z.enum(['circle', 'polygon']).optional(),
    center: LatLng.optional(),
    radiusMeters: radius.optional(),
    points: points.optional(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('UpdateGeofence');
export const Geofence = z
  .object({
    geofenceId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    name: z.string(),
    shape: z.enum(['circle', 'polygon']),
    center: LatLng.nullable(),
    radiusMeters: z.number().nullable(),
    points: z.array(LatLng).nullable(),
    details: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Geofence');
export const GeofenceIdParam = z.object({ geofenceId: zId('gfn_01J0000000000000000000000') });
export const ListQuery = z.object({
  locationId: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const GeofenceList = z.object({ data: z.array(Geofence), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

const reading = {
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  accuracyMeters: z.number().min(0).max(100_000).optional(),
  heading: z.number().min(0).max(360).optional(),
  speedMps: z.number().min(0).max(1000).optional(),
  recordedAt: z.iso.datetime({ offset: true }).optional().openapi({ description: 'When the position was measured (ISO 8601 with offset; default now)' }),
};
export const StaffReport = z
  .object({
    userId: z.string().max(128).optional().openapi({ description: 'Default: the calling user' }),
    locationId: z.string().max(128).optional(),
    ...reading,
  })
  .openapi('StaffLocationReport');
export const AssetReport = z
  .object({ assetId: zId('ast_01J0000000000000000000000'), source: z.enum(['device', 'gps']).default('device'), ...reading })
  .openapi('AssetPositionReport');

const Position = {
  lat: z.number(),
  lng: z.number(),
  accuracyMeters: z.number().nullable(),
  heading: z.number().nullable(),
  speedMps: z.number().nullable(),
  recordedAt: z.string(),
  source: z.string(),
  geofenceIds: z.array(z.string()).openapi({ description: 'Geofences of the location that contain the position' }),
};
export const StaffLocation = z
  .object({ userId: z.string(), name: z.string().nullable(), locationId: z.string().nullable(), ...Position })
  .openapi('StaffLocation');
export const AssetPosition = z.object({ assetId: z.string(), itemId: z.string(), locationId: z.string(), ...Position }).openapi('AssetPosition');
export const Reported = <T extends z.ZodType>(t: T) =>
  z.object({ updated: z.boolean().openapi({ description: 'false when a newer position was already known' }), position: t });
export const PositionsQuery = z.object({ locationId: z.string().max(128).optional(), itemId: z.string().max(128).optional() });
export const TrackingQuery = z.object({ locationId: zId('loc_01J0000000000000000000000') });
export const LiveMap = z
  .object({
    location: z.object({ locationId: z.string(), name: z.string(), latitude: z.number().nullable(), longitude: z.number().nullable(), timezone: z.string() }),
    geofences: z.array(Geofence),
    assets: z.array(
      z.object({
        assetId: z.string(),
        name: z.string(),
        itemId: z.string(),
        itemName: z.string(),
        status: z.string(),
        position: AssetPosition.nullable(),
      }),
    ),
    staff: z.array(StaffLocation),
    generatedAt: z.string(),
  })
  .openapi('LiveMap');
