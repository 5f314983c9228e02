import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { SlipSchema } from '../slips/service';

const id = () => z.string().trim().min(1).max(128);
const pct = () => z.number().finite().min(0).max(100);

export const MarinaMap = z
  .object({
    mapId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    imageUrl: z.string().nullable(),
    imageWidth: z.number().int().nullable(),
    imageHeight: z.number().int().nullable(),
    displayOrder: z.number().int(),
    isActive: z.boolean(),
    pinCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MarinaMap');

export const Pin = z
  .object({
    slipId: z.string(),
    unitNumber: z.string(),
    name: z.string().nullable(),
    section: z.string().nullable(),
    unitType: z.string(),
    status: z.string(),
    x: z.number(),
    y: z.number(),
    rotation: z.number().nullable(),
  })
  .openapi('MarinaMapPin', { description: 'A slip on a map; x and y in percent of the image (0 to 100) from the top left, rotation in degrees.' });

export const MapWithPins = MarinaMap.extend({ pins: z.array(Pin) }).openapi('MarinaMapWithPins');
export const MapList = z
  .object({ locationId: z.string(), data: z.array(MarinaMap), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('MarinaMapList');
export const Pins = z.object({ mapId: z.string(), data: z.array(Pin) }).openapi('MarinaMapPins');
export const Unassigned = z.object({ locationId: z.string(), data: z.array(SlipSchema), total: z.number().int() }).openapi('UnassignedSlips');

const MapFields = {
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2000).nullable(),
  imageUrl: z.string().url().max(2000).nullable(),
  imageWidth: z.number().int().positive().max(100_000).nullable(),
  imageHeight: z.number().int().positive().max(100_000).nullable(),
  displayOrder: z.number().int().min(0).max(10_000),
  isActive: z.boolean(),
};

export const CreateBody = z.object(MapFields).partial().extend({ locationId: id(), name: MapFields.name }).strict().openapi('CreateMarinaMap');
export const UpdateBody = z.object(MapFields).partial().strict().openapi('UpdateMarinaMap');

export const IdParams = z.object({
  id: id().openapi({ param: { name: 'id', in: 'path', description: 'A location id (its maps) or a map id (`smap_...`: that map with its pins)' } }),
});
/** `/slips/maps/{id}` for a map id, so that the path is the one of the read (OpenAPI has one template per path). */
export const MapIdParams = z.object({ id: id().openapi({ param: { name: 'id', in: 'path', description: 'The map id (`smap_...`)' } }) });
export const MapParams = z.object({ mapId: id() });
export const LocationParams = z.object({ locationId: id() });
export const SlipParams = z.object({ slipId: id() });
export const ListQuery = z.object({ activeOnly: z.enum(['true', 'false']).optional(), limit: zLimit(100, 50), offset: zOffset() });

export const ReorderBody = z.object({ locationId: id(), mapIds: z.array(id()).min(1).max(100) }).strict();
export const ReorderResult = z.object({ locationId: z.string(), data: z.array(MarinaMap) }).openapi('MarinaMapOrder');

const PinInput = z.object({ slipId: id(), x: pct(), y: pct(), rotation: z.number().min(-360).max(360).nullable().optional() }).strict();
export const BatchPinsBody = z
  .object({
    mapId: id(),
    pins: z.array(PinInput).max(1000).default([]),
    remove: z.array(id()).max(1000).default([]).openapi({ description: 'Slips to take off this map.' }),
  })
  .strict();
export const BatchPinsResult = z
  .object({ mapId: z.string(), updated: z.number().int(), removed: z.number().int(), data: z.array(Pin) })
  .openapi('MarinaMapBatchPins');

export const AssignPinBody = z.object({ mapId: id(), x: pct(), y: pct(), rotation: z.number().min(-360).max(360).nullable().optional() }).strict();
export const MovePinBody = z.object({ x: pct(), y: pct(), rotation: z.number().min(-360).max(360).nullable().optional() }).strict();
export const PinResult = z
  .object({ slipId: z.string(), mapId: z.string().nullable(), pin: Pin.nullable(), removed: z.boolean().optional() })
  .openapi('SlipMapPin');
export const DeleteResult = z.object({ mapId: z.string(), deleted: z.literal(true), unpinnedSlips: z.number().int() }).openapi('MarinaMapDeleted');
