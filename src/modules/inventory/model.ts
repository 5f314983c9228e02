import { z } from '@hono/zod-openapi';
import { isCalendarDate } from '../../lib/time';

export { isCalendarDate };

/**
 * The inventory item model: everything an operator configures about an item, stored as
 * `inventory_items.data` and read by the availability engine, pricing and the channel catalog.
 * Prices are decimal dollars (pre-tax) as operators type them; the engine converts to cents.
 * Times of day are wall-clock `HH:mm` in the item's location time zone.
 */
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const zWeekday = z.enum(WEEKDAY_NAMES);
const hhmm = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm');

const ymd = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
    .refine(isCalendarDate, 'must be a real calendar date');
/** Season bounds: `MM-DD` (every year) or `YYYY-MM-DD` (one year only). */
const seasonDate = () =>
  z
    .string()
    .regex(/^(\d{4}-)?\d{2}-\d{2}$/, 'must be MM-DD or YYYY-MM-DD')
    .refine(isCalendarDate, 'must be a real calendar date (MM-DD or YYYY-MM-DD)');
const money = () => z.number().min(0).max(1_000_000);

export const HourlyRule = z
  .object({
    basePrice: money().openapi({ description: 'Price per hour' }),
    minimumHours: z
      .number()
      .min(0)
      .max(24 * 31)
      .optional(),
    maximumHours: z
      .number()
      .min(0)
      .max(24 * 31)
      .optional(),
    multiHourDiscounts: z
      .array(
        z.object({
          hours: z
            .number()
            .positive()
            .max(24 * 31),
          discountPercentage: z.number().min(0).max(100),
        }),
      )
      .max(20)
      .optional()
      .openapi({ description: 'For a rental of at least `hours`, the largest matching discount applies to the hourly total.' }),
  })
  .refine((r) => r.minimumHours == null || r.maximumHours == null || r.minimumHours <= r.maximumHours, {
    message: 'minimumHours must not exceed maximumHours',
    path: ['minimumHours'],
  })
  .openapi('HourlyRule');

/** A legacy listing may hold a bare number per weekday: read it as `{basePrice}`. */
export const HourlyPrice = z.union([money().transform((basePrice) => ({ basePrice })), HourlyRule]);

export const Season = z
  .object({
    seasonId: z.string().max(64).optional(),
    name: z.string().max(100).default('Default'),
    startDate: seasonDate().optional().openapi({ description: 'First day (inclusive); absent means always' }),
    endDate: seasonDate().optional().openapi({ description: 'Last day (inclusive); a season may wrap the new year (11-01 to 02-28)' }),
    dailyPrices: z.partialRecord(zWeekday, money()).default({}).openapi({ description: 'Full-day rate by weekday' }),
    hourlyPrices: z.partialRecord(zWeekday, HourlyPrice).default({}).openapi({ description: 'Hourly rule by weekday' }),
    halfDayPrices: z.partialRecord(zWeekday, money()).optional(),
  })
  .superRefine((season, ctx) => {
    const { startDate: a, endDate: b } = season;
    if ((a == null) !== (b == null)) {
      ctx.addIssue({
        code: 'custom',
        path: [a == null ? 'startDate' : 'endDate'],
        message: 'give both startDate and endDate, or neither (a season without dates applies all year)',
      });
      return;
    }
    if (a == null || b == null) return;
    if (a.length !== b.length) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'startDate and endDate must use the same form (both MM-DD or both YYYY-MM-DD)' });
    } else if (a.length === 10 && a > b) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate (only MM-DD seasons may wrap the new year)' });
    }
  })
  .openapi('PricingSeason');

export const PriceTier = z
  .object({
    tierId: z.string().max(64).optional(),
    name: z.string().min(1).max(60).openapi({ example: 'Adult' }),
    price: money(),
    /** The standard adult fare: the catalog's starting price. Defaults to the tier named Adult, else the first. */
    isStandard: z.boolean().optional(),
    minAge: z.number().int().min(0).max(120).optional(),
    maxAge: z.number().int().min(0).max(120).optional(),
    /** Seats a ticket of this tier takes (an infant on a lap takes 0). */
    seats: z.number().int().min(0).max(10).default(1),
  })
  .refine((t) => t.minAge == null || t.maxAge == null || t.minAge <= t.maxAge, { message: 'minAge must not exceed maxAge', path: ['minAge'] })
  .openapi('PriceTier');

export const TourPricing = z
  .object({
    priceTiers: z.array(PriceTier).max(20).default([]),
    minParticipants: z.number().int().min(1).max(1000).default(1),
    isPrivate: z.boolean().default(false),
    privatePricing: z
      .object({ basePrice: money(), baseHeadcount: z.number().int().min(1).max(1000), extraParticipantPrice: money().default(0) })
      .optional()
      .openapi({ description: 'Private charter: basePrice covers baseHeadcount guests; each extra guest costs extraParticipantPrice.' }),
  })
  .openapi('TourPricing');

export const TimeSlot = z
  .object({
    slotId: z.string().max(64).optional(),
    time: hhmm().openapi({ example: '09:00' }),
    durationMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60),
    weekdays: z.array(zWeekday).max(7).optional().openapi({ description: 'Days the slot runs; all days when absent' }),
    capacity: z.number().int().min(0).max(10_000).optional().openapi({ description: 'Seats for this slot; defaults to the item capacity' }),
  })
  .openapi('TimeSlot');

export const DayHours = z.object({ open: hhmm(), close: hhmm(), closed: z.boolean().optional() });

export const ScheduleException = z
  .object({
    date: ymd(),
    closed: z.boolean().default(false),
    open: hhmm().optional(),
    close: hhmm().optional(),
    timeSlots: z.array(TimeSlot).max(48).optional().openapi({ description: "Replaces the day's tour slots" }),
    note: z.string().max(500).optional(),
  })
  .refine((e) => e.open == null || e.close == null || e.open < e.close, { message: 'open must be before close', path: ['close'] })
  .openapi('ScheduleException');

export const Addon = z
  .object({
    addonId: z.string().min(1).max(64),
    name: z.string().min(1).max(100),
    price: money(),
    priceType: z.enum(['flat', 'per_hour', 'per_day', 'per_person']).default('flat'),
    taxable: z.boolean().default(true),
    maxQuantity: z.number().int().min(1).max(1000).default(10),
    isGlobal: z.boolean().optional().openapi({ description: 'Offered with every item of the location (a global add-on)' }),
  })
  .openapi('Addon');

export const Tax = z
  .object({
    taxId: z.string().max(64).optional(),
    name: z.string().min(1).max(100),
    rate: z.number().min(0).max(100).openapi({ description: 'Percent' }),
    appliesTo: z.enum(['all', 'rental', 'addons']).default('all'),
  })
  .openapi('Tax');

export const MaintenanceBlock = z
  .object({
    blockId: z.string().max(64).optional(),
    assetIds: z.array(z.string().max(128)).max(500).optional().openapi({ description: 'Blocked assets; the whole item when absent' }),
    start: z.string().datetime({ offset: true }),
    end: z.string().datetime({ offset: true }),
    reason: z.string().max(500).optional(),
  })
  .refine((b) => Date.parse(b.end) > Date.parse(b.start), { message: 'end must be after start', path: ['end'] })
  .openapi('MaintenanceBlock');

export const CapacityOverride = z
  .object({
    date: ymd(),
    time: hhmm().optional().openapi({ description: 'A tour slot start; the whole day when absent' }),
    capacity: z.number().int().min(0).max(10_000),
  })
  .openapi('CapacityOverride');

export const AssetInput = z
  .object({
    assetId: z.string().max(128).optional(),
    name: z.string().min(1).max(100),
    status: z.enum(['active', 'inactive']).default('active'),
  })
  .openapi('AssetInput');

export const AssetMapImage = z
  .object({
    imageUrl: z.string().max(2048).nullable(),
    imageKey: z.string().max(1024).nullable().optional(),
    contentType: z.string().max(100).nullable().optional(),
    width: z.number().int().min(0).nullable().optional(),
    height: z.number().int().min(0).nullable().optional(),
    updatedAt: z.string().max(40).optional(),
  })
  .openapi('AssetMapImage');

export const InventoryData = z
  .object({
    name: z.string().trim().min(1).max(200),
    type: z.enum(['rental', 'tour']).default('rental').openapi({ description: '`tour` is seat-based; anything else is a rental of assets' }),
    locationId: z.string().min(1).max(128),
    description: z.string().max(10_000).optional(),
    category: z.string().max(100).optional(),
    images: z.array(z.string().max(2048)).max(50).optional().openapi({ description: 'Photo URLs; `POST /inventory/photo/{inventory_id}` appends to it' }),
    videos: z.array(z.string().max(2048)).max(20).optional().openapi({ description: 'Video URLs; `POST /inventory/video/{inventory_id}` appends to it' }),
    assetMap: AssetMapImage.optional().openapi({
      description: 'Map image of the asset pins (set by `POST /inventory/asset-map/{inventory_id}`); the pins live on the assets',
    }),
    isPublic: z.boolean().default(true),
    currency: z.string().length(3).optional(),
    /** Rentals: the pool of identical assets (at least one). Tours: not used. */
    assets: z.array(AssetInput).max(500).optional(),
    /** Tours: seats per departure. Rentals: people per asset (informational). */
    capacity: z.number().int().min(0).max(10_000).default(1),
    operatingHours: z
      .partialRecord(zWeekday, DayHours)
      .optional()
      .openapi({ description: 'Rental opening hours by weekday; 08:00-18:00 every day when absent' }),
    /** Rentals: start-time granularity. */
    slotIntervalMinutes: z
      .number()
      .int()
      .min(5)
      .max(24 * 60)
      .default(60),
    /** Rentals: allowed durations in hours (shown by the widget); any within min/max when absent. */
    durations: z
      .array(
        z
          .number()
          .positive()
          .max(24 * 31),
      )
      .max(20)
      .optional(),
    fullDayOnly: z.boolean().optional(),
    timeSlots: z.array(TimeSlot).max(48).optional(),
    turnaroundBufferMinutes: z
      .number()
      .int()
      .min(0)
      .max(24 * 60)
      .default(0),
    minimumNoticeHours: z
      .number()
      .min(0)
      .max(24 * 365)
      .default(0),
    maxAdvanceDays: z.number().int().min(1).max(730).default(365),
    seasons: z.array(Season).max(50).default([]),
    tourPricing: TourPricing.optional(),
    scheduleExceptions: z.array(ScheduleException).max(1000).default([]),
    addons: z.array(Addon).max(100).default([]),
    taxes: z.array(Tax).max(20).default([]),
    maintenanceBlocks: z.array(MaintenanceBlock).max(1000).default([]),
    capacityOverrides: z.array(CapacityOverride).max(2000).default([]),
    deposit: z.object({ amount: money(), required: z.boolean().default(false) }).optional(),
    whatToBring: z
      .array(z.string().trim().min(1).max(200))
      .max(20)
      .optional()
      .openapi({ description: "What renters should bring (listed in the booking e-mails, with the location's `details.whatToBring`)" }),
  })
  .passthrough()
  .openapi('InventoryData');

export type InventoryDataInput = z.input<typeof InventoryData>;
export type InventoryModel = z.output<typeof InventoryData>;
