import type { z } from '@hono/zod-openapi';
import type { locations } from '../../db/schema/locations';
import type { Location } from './schemas';

export type LocationRow = typeof locations.$inferSelect;

/** A location as the API answers it (`Location`). */
export function locationOut(l: LocationRow): z.output<typeof Location> {
  return {
    locationId: l.id,
    customerId: l.customerId,
    name: l.name,
    address: l.address,
    phoneNumber: l.phoneNumber,
    connectId: l.connectId,
    timezone: l.timezone,
    currency: l.currency,
    details: l.details ?? {},
    ivrConfig: l.ivrConfig ?? null,
    coordinates: l.latitude != null && l.longitude != null ? { latitude: l.latitude, longitude: l.longitude } : null,
    status: l.status,
    deletionScheduledAt: l.deletionScheduledAt,
    purgeAfter: l.purgeAfter,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}
