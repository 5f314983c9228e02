import { z } from '@hono/zod-openapi';
import { isValidTimeZone } from '../../lib/time';
import { zCalendarDay } from '../../lib/openapi';

/** Longest range of days a report covers (two years and a leap day). */
export const MAX_RANGE_DAYS = 731;
export const MAX_LOCATIONS = 50;

const splitIds = (v: string) => [
  ...new Set(
    v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  ),
];

/** `locationIds`: comma-separated ids of the caller's locations (another operator's answer 404). */
export const zLocationIds = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_LOCATIONS * 130)
    .transform((v, ctx) => {
      const ids = splitIds(v);
      if (!ids.length || ids.length > MAX_LOCATIONS || ids.some((i) => i.length > 128)) {
        ctx.addIssue({ code: 'custom', message: `give 1 to ${MAX_LOCATIONS} comma-separated location ids` });
        return z.NEVER;
      }
      return ids;
    })
    .openapi({ type: 'string', example: 'loc_demo_miami,loc_demo_keys', description: `Comma-separated location ids (1 to ${MAX_LOCATIONS})` });

/** Checks `startDate <= endDate` and the span, naming the field. */
const rangeChecked = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape).superRefine((q, ctx) => {
    const { startDate, endDate } = q as unknown as { startDate: string; endDate: string };
    if (!startDate || !endDate) return;
    if (endDate < startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must be on or after startDate' });
    else if ((Date.parse(endDate) - Date.parse(startDate)) / 86_400_000 >= MAX_RANGE_DAYS)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: `the range may span at most ${MAX_RANGE_DAYS} days` });
  });

export const MetricsQuery = rangeChecked({
  locationIds: zLocationIds(),
  startDate: zCalendarDay().openapi({ description: "First local day (in each location's time zone), inclusive" }),
  endDate: zCalendarDay().openapi({ description: 'Last local day, inclusive' }),
});

export const PerformanceQuery = rangeChecked({
  locationIds: zLocationIds(),
  startDate: zCalendarDay(),
  endDate: zCalendarDay(),
  limit: z.coerce.number().int().min(1).max(100).default(10).openapi({ description: 'Rows per list (default 10, max 100)' }),
});

export const YearOverYearQuery = z.object({
  locationIds: zLocationIds(),
  currentYear: z.coerce
    .number()
    .int()
    .min(2000)
    .max(2100)
    .optional()
    .openapi({ description: "The year to compare with the one before (default: this year in the first location's time zone)" }),
});

const money = () => z.number().positive().finite().max(1_000_000_000);

export const RevenueTargetBody = z
  .object({
    locationId: z.string().trim().min(1).max(128),
    revenueTarget: money().nullable().optional().openapi({ description: 'Revenue target of the year, in dollars (positive; null clears it)', example: 250000 }),
    previousYearRevenueOverride: money().nullable().optional().openapi({
      description: "Previous year's revenue in dollars, used instead of the ledger's (history from before Berth; null clears it)",
      example: 180000,
    }),
    year: z
      .number()
      .int()
      .min(2000)
      .max(2100)
      .optional()
      .openapi({ description: "The year the target is for (default: this year in the location's time zone)" }),
  })
  .openapi('RevenueTargetUpdate');

export const RealizeBody = z
  .object({
    locationIds: z.array(z.string().trim().min(1).max(128)).max(MAX_LOCATIONS).optional().openapi({ description: 'Default: every location of the caller' }),
    dryRun: z.boolean().optional().openapi({ description: 'true answers only how many bookings would be realized' }),
  })
  .openapi('RealizeCompletedBookings');

export const ForecastQuery = z.object({
  locationId: z.string().trim().min(1).max(128),
  days: z.coerce
    .number()
    .int()
    .refine((d) => d === 7 || d === 14, 'must be 7 or 14')
    .default(7)
    .openapi({ description: 'Horizon: 7 or 14 days (default 7)', example: 7 }),
  timezone: z
    .string()
    .trim()
    .max(64)
    .refine(isValidTimeZone, 'must be an IANA time zone such as America/New_York')
    .optional()
    .openapi({ description: "The zone whose days are counted (default: the location's)" }),
  units: z.enum(['renters', 'bookings']).default('renters').openapi({ description: '`renters` (people: participants or quantity, default) or `bookings`' }),
});

// ---- responses ----

const cents = (description?: string) =>
  z
    .number()
    .int()
    .openapi(description ? { description } : {});

/** The money and count figures of a period (cents). */
export const MetricsFigures = z
  .object({
    revenueCents: cents(
      'Revenue: the money kept (sales less discounts, cancellation fees kept, protection and coverage premiums, deposits captured), ' +
        "net of cancellations and refunds. The same figure as year-over-year's `revenueCents` for the same days",
    ),
    bookingRevenueCents: cents('Revenue of rentals (their fees kept, premiums and deposit captures included)'),
    posRevenueCents: cents('Revenue of point-of-sale sales, net of their refunds'),
    slipRevenueCents: cents('Revenue of slip reservations'),
    otherRevenueCents: cents('Revenue of anything else'),
    grossRevenueCents: cents('Revenue before discounts: revenueCents + discountsCents'),
    discountsCents: cents('Discounts given (positive), net of cancellations and refunds'),
    netRevenueCents: cents('The same as revenueCents (kept for clients that read it)'),
    cancellationFeesCents: cents('Cancellation fees kept (part of revenueCents)'),
    premiumsCents: cents('Protection plan and coverage premiums (part of revenueCents)'),
    depositCapturesCents: cents('Security deposits captured (part of revenueCents)'),
    taxCents: cents('Tax charged, net of cancellations and refunds'),
    tipsCents: cents(),
    refundsCents: cents('Money given back (positive)'),
    paymentsCents: cents('Money received (positive)'),
    realizedRevenueCents: cents('Revenue realized when rentals completed (`revenue_realized` entries dated in the period)'),
    deferredRevenueCents: cents('Net rental revenue dated in the period whose rentals are not realized yet'),
    bookingCount: z.number().int().openapi({ description: 'Rentals starting in the period that are not cancelled' }),
    cancelledCount: z.number().int(),
    completedCount: z.number().int(),
    noShowCount: z.number().int(),
    renters: z.number().int().openapi({ description: 'People on those rentals (participants, else quantity)' }),
    posSales: z.number().int().openapi({ description: 'Point-of-sale sales' }),
  })
  .openapi('MetricsFigures');

export const DailyMetrics = MetricsFigures.extend({ date: z.string().openapi({ description: "Local date (each location's own time zone)" }) }).openapi(
  'DailyMetrics',
);

export const LocationRef = z.object({ locationId: z.string(), name: z.string(), timezone: z.string(), currency: z.string() }).openapi('AnalyticsLocation');

export const MembershipFigures = z
  .object({
    revenueCents: cents("Membership revenue on the ledger: invoice charges less proration credits, net of refunds (the account's, no location)"),
    refundsCents: cents('Money given back on membership invoices'),
    invoicesPaid: z.number().int(),
    newMemberships: z.number().int(),
  })
  .openapi('MembershipFigures');

export const Metrics = z
  .object({
    locationIds: z.array(z.string()),
    startDate: z.string(),
    endDate: z.string(),
    currency: z.string(),
    locations: z.array(LocationRef),
    totals: MetricsFigures,
    daily: z.array(DailyMetrics),
    byLocation: z.array(z.object({ locationId: z.string(), totals: MetricsFigures })),
    memberships: MembershipFigures.openapi({
      description: "Operator-wide (memberships belong to the account, not a location), over the requested days in the first location's zone",
    }),
  })
  .openapi('AnalyticsMetrics');

export const ItemPerformance = z
  .object({
    inventoryId: z.string(),
    name: z.string().nullable(),
    locationId: z.string().nullable(),
    revenueCents: cents('Revenue of the item: its rentals less discounts, with their fees kept, premiums and deposit captures'),
    grossRevenueCents: cents('Before discounts'),
    discountsCents: cents(),
    bookings: z.number().int().openapi({ description: 'Bookings (not cancelled) starting in the period' }),
    bookedHours: z.number(),
    sharePercent: z.number().openapi({ description: 'Share of the net rental revenue of the period' }),
  })
  .openapi('ItemPerformance');

export const AssetPerformance = z
  .object({
    assetId: z.string(),
    name: z.string().nullable(),
    inventoryId: z.string().nullable(),
    itemName: z.string().nullable(),
    revenueCents: cents(),
    bookings: z.number().int(),
  })
  .openapi('AssetPerformance');

export const ProductPerformance = z
  .object({ posItemId: z.string(), name: z.string().nullable(), revenueCents: cents(), quantity: z.number() })
  .openapi('ProductPerformance');

export const InventoryPerformance = z
  .object({
    locationIds: z.array(z.string()),
    startDate: z.string(),
    endDate: z.string(),
    currency: z.string(),
    limit: z.number().int(),
    rentalRevenueCents: cents("Revenue of rentals in the period (metrics' bookingRevenueCents for the same days)"),
    items: z.array(ItemPerformance),
    assets: z.array(AssetPerformance),
    products: z.array(ProductPerformance),
  })
  .openapi('InventoryPerformance');

export const RevenueByKind = z
  .object({
    revenueCents: cents("Revenue, every kind: the same figure as metrics' `revenueCents` for the same days"),
    bookingRevenueCents: cents(),
    posRevenueCents: cents(),
    slipRevenueCents: cents(),
    otherRevenueCents: cents(),
  })
  .openapi('RevenueByKind');

export const YearOverYear = z
  .object({
    locationIds: z.array(z.string()),
    currentYear: z.number().int(),
    previousYear: z.number().int(),
    currency: z.string(),
    months: z.array(
      z.object({
        month: z.number().int().openapi({ description: '1 to 12' }),
        current: RevenueByKind,
        previous: RevenueByKind,
        changePercent: z.number().nullable().openapi({ description: 'null when the previous month had no revenue' }),
      }),
    ),
    totals: z.object({
      current: RevenueByKind,
      previous: RevenueByKind,
      previousYearRevenueOverrideCents: z.number().int().nullable().openapi({ description: 'Sum of the overrides set for the locations (null when none)' }),
      previousComparedCents: cents("Previous year's revenue compared with: the ledger's, with each location's override in place of its own"),
      changePercent: z.number().nullable(),
    }),
    target: z.object({
      revenueTargetCents: z.number().int().nullable(),
      locationsWithTarget: z.number().int(),
      progressPercent: z.number().nullable(),
      remainingCents: z.number().int().nullable(),
    }),
  })
  .openapi('YearOverYear');

export const RevenueTarget = z
  .object({
    locationId: z.string(),
    year: z.number().int(),
    revenueTarget: z.number().nullable().openapi({ description: 'Dollars' }),
    revenueTargetCents: z.number().int().nullable(),
    previousYearRevenueOverride: z.number().nullable().openapi({ description: 'Dollars' }),
    previousYearRevenueOverrideCents: z.number().int().nullable(),
    updatedAt: z.string(),
  })
  .openapi('RevenueTarget');

export const RealizeResult = z
  .object({
    dryRun: z.boolean(),
    count: z.number().int().openapi({ description: 'Completed bookings realized by this call (or that would be, with dryRun)' }),
    realizedRevenueCents: z.number().int().optional().openapi({ description: 'Net revenue realized by this call (not with dryRun)' }),
  })
  .openapi('RealizeResult');

export const ForecastDay = z
  .object({
    date: z.string(),
    weekday: z.string(),
    predicted: z.number().openapi({ description: 'Expected count (one decimal), never below what is already booked' }),
    low: z.number().openapi({ description: 'Lower bound of the interval' }),
    high: z.number().openapi({ description: 'Upper bound of the interval' }),
    booked: z.number().int().openapi({ description: 'Already booked for that day' }),
  })
  .openapi('ForecastDay');

export const Forecast = z
  .object({
    locationId: z.string(),
    timezone: z.string(),
    units: z.enum(['renters', 'bookings']),
    days: z.number().int(),
    method: z.enum(['holt_winters_weekly', 'weekday_mean', 'no_history']),
    methodDescription: z.string(),
    interval: z.object({ level: z.number().openapi({ description: 'Coverage of [low, high], e.g. 0.8' }), residualStdDev: z.number().nullable() }),
    parameters: z.object({ alpha: z.number().nullable(), gamma: z.number().nullable(), historyDays: z.number().int(), historyFrom: z.string().nullable() }),
    seasonality: z
      .array(z.object({ weekday: z.string(), effect: z.number() }))
      .openapi({ description: 'Weekday effects of the model (added to the level), Monday first' }),
    forecast: z.array(ForecastDay),
  })
  .openapi('Forecast');

export const WidgetMetricsQuery = rangeChecked({
  locationIds: zLocationIds(),
  startDate: zCalendarDay(),
  endDate: zCalendarDay(),
});

export const WidgetMetrics = z
  .object({
    locationIds: z.array(z.string()),
    startDate: z.string(),
    endDate: z.string(),
    funnel: z.object({
      steps: z.array(
        z.object({
          step: z.enum(['view', 'date_chosen', 'slot_chosen', 'checkout', 'booked']),
          sessions: z.number().int().openapi({ description: 'Visits that reached the step' }),
          events: z.number().int(),
          conversionPercent: z.number().openapi({ description: 'Share of the visits that viewed' }),
        }),
      ),
      waitlistSessions: z.number().int(),
      overallConversionPercent: z.number().openapi({ description: 'Booked visits over viewing visits' }),
    }),
    heatmap: z.object({
      metric: z.literal('views'),
      weekdays: z.array(z.string()).openapi({ description: 'Row order of `counts`: Monday first' }),
      counts: z.array(z.array(z.number().int())).openapi({ description: "7 rows (weekdays) of 24 hours, in each location's local time" }),
    }),
    daily: z.array(
      z.object({
        date: z.string(),
        sessions: z.number().int(),
        views: z.number().int(),
        bookings: z.number().int(),
        conversionPercent: z.number(),
      }),
    ),
    sources: z.array(z.object({ source: z.string(), sessions: z.number().int(), bookings: z.number().int() })),
    referrals: z.array(z.object({ ref: z.string(), sessions: z.number().int(), bookings: z.number().int() })),
    topProducts: z.array(
      z.object({
        inventoryId: z.string(),
        name: z.string().nullable(),
        views: z.number().int(),
        checkouts: z.number().int(),
        bookings: z.number().int(),
        conversionPercent: z.number(),
      }),
    ),
  })
  .openapi('WidgetMetrics');
