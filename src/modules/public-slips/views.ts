import type { z } from '@hono/zod-openapi';
import type { SlipSettings } from '../marina-settings/service';
import { unitRateOf } from '../slip-reservations/service';
import { CLOSED_SLIP_STATUSES, type SlipRow } from '../slips/service';
import type * as s from './schemas';

export const bookable = (u: SlipRow) => !CLOSED_SLIP_STATUSES.includes(u.status);

/** A unit as the public pages show it: no notes of staff, no occupancy, no renter. */
export function publicSlipOut(u: SlipRow, settings: SlipSettings): z.output<typeof s.PublicSlip> {
  return {
    id: u.id,
    locationId: u.locationId,
    unitNumber: u.unitNumber,
    name: u.name,
    section: u.section,
    unitType: u.unitType,
    bookable: bookable(u),
    lengthFt: u.lengthFt,
    maxLoaFt: u.maxLoaFt,
    widthFt: u.widthFt,
    depthFt: u.depthFt,
    overheadClearanceFt: u.overheadClearanceFt,
    power: u.power ? { amps: u.power.amps ?? [], volts: u.power.volts ?? null, phase: u.power.phase ?? null } : null,
    water: u.water,
    amenities: u.amenities ?? [],
    ratesPerFootCents: {
      nightly: unitRateOf(u, settings, 'nightly'),
      monthly: unitRateOf(u, settings, 'monthly'),
      seasonal: unitRateOf(u, settings, 'seasonal'),
      annual: unitRateOf(u, settings, 'annual'),
    },
    mapPosition: u.mapId != null && u.mapX != null && u.mapY != null ? { mapId: u.mapId, x: u.mapX, y: u.mapY, rotation: u.mapRotation } : null,
  };
}
