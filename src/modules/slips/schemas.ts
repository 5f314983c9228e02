import { z } from '@hono/zod-openapi';
import { zLimit, zOffset } from '../../lib/openapi';
import { SLIP_STATUSES, UNIT_TYPES } from './types';

const id = () => z.string().trim().min(1).max(128);
const ft = () => z.number().finite().positive().max(1000);
const cents = () => z.number().int().min(0).max(10_000_000);

export const Power = z
  .object({
    amps: z.array(z.number().int().positive().max(400)).max(6).default([]),
    volts: z.number().int().positive().max(600).nullable().default(null),
    phase: z.enum(['single', 'three']).nullable().default(null),
  })
  .openapi('SlipPower');

export const Rates = z
  .object({ nightlyPerFootCents: cents(), monthlyPerFootCents: cents(), seasonalPerFootCents: cents(), annualPerFootCents: cents() })
  .partial()
  .strict()
  .openapi('SlipRates', { description: "The unit's own rates in cents per foot; a missing one falls back to the location's settings." });

export const MapPosition = z
  .object({ mapId: z.string(), x: z.number(), y: z.number(), rotation: z.number().nullable() })
  .openapi('SlipMapPosition', { description: 'Pin on a marina map; x and y in percent of the map image (0 to 100) from the top left.' });

export const Slip = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    unitNumber: z.string(),
    name: z.string().nullable(),
    section: z.string().nullable(),
    unitType: z.enum(UNIT_TYPES),
    status: z.enum(SLIP_STATUSES),
    lengthFt: z.number().nullable().openapi({ description: 'Slip length; pricing bills max(boat LOA, this).' }),
    maxLoaFt: z.number().nullable().openapi({ description: 'Longest boat (length overall) the unit takes, before the overhang allowance.' }),
    widthFt: z.number().nullable().openapi({ description: 'Clear width (max beam): beam + 2 × side clearance must fit.' }),
    depthFt: z.number().nullable().openapi({ description: 'Depth at mean low water.' }),
    overheadClearanceFt: z.number().nullable().openapi({ description: 'Overhead clearance (bridges, roofs of covered slips, dry racks); null: none.' }),
    power: Power.nullable(),
    water: z.boolean(),
    rates: Rates,
    amenities: z.array(z.string()),
    notes: z.string().nullable(),
    mapPosition: MapPosition.nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Slip');

const SlipFields = {
  name: z.string().trim().max(120).nullable(),
  section: z.string().trim().min(1).max(60).nullable(),
  unitType: z.enum(UNIT_TYPES),
  lengthFt: ft().nullable(),
  maxLoaFt: ft().nullable(),
  widthFt: ft().nullable(),
  depthFt: ft().nullable(),
  overheadClearanceFt: ft().nullable(),
  power: Power.nullable(),
  water: z.boolean(),
  rates: Rates,
  amenities: z.array(z.string().trim().min(1).max(60)).max(30),
  notes: z.string().max(5000).nullable(),
};

export const unitNumber = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/, 'letters, digits, space, dot, dash, underscore or slash');

const SlipFieldsObj = z.object(SlipFields);

export const CreateBody = SlipFieldsObj.partial()
  .extend({ locationId: id(), unitNumber: unitNumber(), status: z.enum(['available', 'reserved', 'maintenance']).optional() })
  .strict()
  .openapi('CreateSlip');

export const UpdateBody = z
  .object({ unitNumber: unitNumber(), ...SlipFields })
  .partial()
  .strict()
  .openapi('UpdateSlip');

export const IdParams = z.object({ id: id() });

export const ListQuery = z.object({
  locationId: id(),
  status: z.enum(SLIP_STATUSES).optional(),
  unitType: z.enum(UNIT_TYPES).optional(),
  section: z.string().trim().min(1).max(60).optional(),
  limit: zLimit(500, 100),
  offset: zOffset(),
});

export const SlipList = z.object({ data: z.array(Slip), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('SlipList');

export const SearchQuery = z.object({
  q: z.string().trim().min(1).max(60).openapi({ description: 'Part of the unit number or name (case-insensitive).' }),
  locationId: id().optional(),
  limit: zLimit(100, 20),
  offset: zOffset(),
});

export const LocationQuery = z.object({ locationId: id() });

export const Sections = z.object({ locationId: z.string(), data: z.array(z.string()) }).openapi('SlipSections');
export const SectionCounts = z
  .object({
    locationId: z.string(),
    data: z.array(z.object({ section: z.string(), total: z.number().int(), byStatus: z.record(z.string(), z.number().int()) })),
    unsectioned: z.number().int(),
  })
  .openapi('SlipSectionCounts');

export const RenameSectionBody = z.object({ locationId: id(), from: z.string().trim().min(1).max(60), to: z.string().trim().min(1).max(60) }).strict();
export const SectionParams = z.object({ name: z.string().trim().min(1).max(60) });
export const SectionChange = z.object({ locationId: z.string(), section: z.string(), updated: z.number().int() }).openapi('SlipSectionChange');

export const Stats = z
  .object({
    locationId: z.string(),
    total: z.number().int(),
    inService: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
    byUnitType: z.record(z.string(), z.number().int()),
    occupancyPercent: z.number().openapi({ description: 'occupied / in service × 100, one decimal.' }),
  })
  .openapi('SlipStats');

export const BulkCreateBody = SlipFieldsObj.partial()
  .extend({
    locationId: id(),
    prefix: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z0-9 ._/-]*$/)
      .default(''),
    start: z.number().int().min(0).max(99_999),
    end: z.number().int().min(0).max(99_999),
    padding: z.number().int().min(0).max(6).default(0).openapi({ description: 'Zero-pad the number to this many digits (3: A-001).' }),
    status: z.enum(['available', 'reserved', 'maintenance']).optional(),
  })
  .strict()
  .openapi('BulkCreateSlips');

export const BulkCreateResult = z.object({ created: z.number().int(), data: z.array(Slip) }).openapi('BulkCreateSlipsResult');

export const BulkUpdateBody = z
  .object({
    slipIds: z.array(id()).min(1).max(500),
    changes: z
      .object({ status: z.enum(SLIP_STATUSES), ...SlipFields })
      .partial()
      .strict(),
  })
  .strict()
  .openapi('BulkUpdateSlips');
export const BulkUpdateResult = z.object({ updated: z.number().int(), data: z.array(Slip) }).openapi('BulkUpdateSlipsResult');

export const StatusBody = z.object({ status: z.enum(SLIP_STATUSES), reason: z.string().trim().max(500).optional() }).strict();

// Slip subscription
export const SubscriptionView = z
  .object({
    status: z.string().openapi({ description: 'none | incomplete (checkout not finished) | active | trialing | past_due | canceled' }),
    active: z.boolean(),
    quota: z.number().int().openapi({ description: 'Slips subscribed.' }),
    slipsInService: z.number().int().openapi({ description: 'Slips of every location that are not out_of_service.' }),
    extraSlips: z.number().int().openapi({ description: 'Slips in service above the quota, billed automatically.' }),
    billedQuantity: z.number().int().openapi({ description: 'Slips billed per month: max(quota, slipsInService).' }),
    unitPriceCents: z.number().int(),
    monthlyAmountCents: z.number().int(),
    cancelAtPeriodEnd: z.boolean(),
    currentPeriodEnd: z.string().nullable(),
    providerSubscriptionId: z.string().nullable(),
    checkoutSessionId: z.string().nullable(),
  })
  .openapi('SlipSubscription');

export const CheckoutBody = z
  .object({
    quota: z.number().int().min(1).max(100_000).openapi({ description: 'Slips to subscribe (slips in service above it are billed as extra).' }),
    successUrl: z.string().url().max(2000).optional(),
    cancelUrl: z.string().url().max(2000).optional(),
  })
  .strict();
export const CheckoutResult = z
  .object({ checkoutSessionId: z.string(), url: z.string(), status: z.string(), subscription: SubscriptionView })
  .openapi('SlipSubscriptionCheckout');

export const AddSlipsBody = z.object({ count: z.number().int().min(1).max(10_000) }).strict();
export const PortalBody = z.object({ returnUrl: z.string().url().max(2000).optional() }).strict();
export const PortalResult = z.object({ id: z.string(), url: z.string() }).openapi('SlipSubscriptionPortal');
