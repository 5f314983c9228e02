import type { z } from '@hono/zod-openapi';
import type { slips } from '../../db/schema/slips';
import type * as s from './schemas';

export type SlipRow = typeof slips.$inferSelect;

export function slipOut(r: SlipRow): z.output<typeof s.Slip> {
  return {
    id: r.id,
    customerId: r.customerId,
    locationId: r.locationId,
    unitNumber: r.unitNumber,
    name: r.name,
    section: r.section,
    unitType: r.unitType,
    status: r.status,
    lengthFt: r.lengthFt,
    maxLoaFt: r.maxLoaFt,
    widthFt: r.widthFt,
    depthFt: r.depthFt,
    overheadClearanceFt: r.overheadClearanceFt,
    power: r.power ? { amps: r.power.amps ?? [], volts: r.power.volts ?? null, phase: (r.power.phase as 'single' | 'three' | null) ?? null } : null,
    water: r.water,
    rates: r.rates ?? {},
    amenities: r.amenities ?? [],
    notes: r.notes,
    mapPosition: r.mapId != null && r.mapX != null && r.mapY != null ? { mapId: r.mapId, x: r.mapX, y: r.mapY, rotation: r.mapRotation } : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
