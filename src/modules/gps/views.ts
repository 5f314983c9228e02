/** Row → response mappers of the GPS integration, typed against the response schemas. */
import type { z } from '@hono/zod-openapi';
import type { gpsAlerts, gpsDevices } from '../../db/schema/gps';
import type * as s from './schemas';

export type DeviceRow = typeof gpsDevices.$inferSelect;
export type AlertRow = typeof gpsAlerts.$inferSelect;

export const deviceOut = (d: DeviceRow): z.output<typeof s.Device> => ({
  deviceId: d.id,
  deviceName: d.deviceName,
  locationId: d.locationId,
  inventoryId: d.inventoryId,
  assetId: d.assetId,
  keyPrefix: d.keyPrefix,
  status: d.status,
  lastPosition:
    d.lastLat != null && d.lastLng != null && d.lastFixAt != null
      ? { lat: d.lastLat, lng: d.lastLng, accuracyMeters: d.lastAccuracy, recordedAt: new Date(d.lastFixAt).toISOString() }
      : null,
  createdAt: d.createdAt,
});

export const alertOut = (a: AlertRow): z.output<typeof s.Alert> => ({
  alertId: a.id,
  type: a.type,
  locationId: a.locationId,
  deviceId: a.deviceId,
  deviceName: a.deviceName,
  geofenceId: a.geofenceId,
  rentalId: a.rentalId,
  lat: a.lat,
  lng: a.lng,
  accuracyMeters: a.accuracyMeters,
  message: a.message,
  createdAt: a.createdAt,
});

export const homeAreaOut = (h: { locationId: string; geofenceId: string; name: string; updatedAt: string }): z.output<typeof s.HomeArea> => ({
  locationId: h.locationId,
  geofenceId: h.geofenceId,
  name: h.name,
  updatedAt: h.updatedAt,
});
