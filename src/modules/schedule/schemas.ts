import { z } from '@hono/zod-openapi';
import { zQueryBool } from '../../lib/openapi';
import { BOOKING_STATUSES, type BookingStatus } from '../../lib/booking-status';

const DATE_OR_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** `YYYY-MM-DD` (a local day of the location) or an ISO 8601 instant with offset. */
export const zDateBound = () =>
  z
    .string()
    .trim()
    .max(40)
    .regex(DATE_OR_DATETIME, 'must be YYYY-MM-DD or an ISO 8601 date-time with offset')
    .refine((v) => !Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)), 'is not a valid date')
    .openapi({ example: '2025-07-01' });

const isStatus = (s: string): s is BookingStatus => (BOOKING_STATUSES as readonly string[]).includes(s);

/** A comma-separated list of booking statuses, each checked against the known statuses. */
export const zStatusList = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(300)
    .transform((v, ctx) => {
      const parts = [
        ...new Set(
          v
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        ),
      ];
      const bad = parts.filter((p) => !isStatus(p));
      if (bad.length || !parts.length) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown status ${bad.map((b) => `"${b}"`).join(', ') || '(empty)'}; allowed: ${BOOKING_STATUSES.join(', ')}`,
        });
        return z.NEVER;
      }
      return parts as BookingStatus[];
    })
    .openapi({ type: 'string', example: 'pending,confirmed', description: `Comma-separated statuses: ${BOOKING_STATUSES.join(', ')}` });

const zPageQ = () => z.coerce.number().int().min(1).max(100_000).default(1);
const zLimitQ = (max: number, def: number) => z.coerce.number().int().min(1).max(max).default(def);
const zSortOrder = () => z.enum(['asc', 'desc']).default('asc');
const zInventoryId = () => z.string().trim().min(1).max(128).openapi({ example: 'inv_01J0000000000000000000000' });

export const SORT_FIELDS = ['start', 'end', 'createdAt', 'updatedAt', 'status', 'total', 'rentalId'] as const;

export const ScheduleQuery = z.object({
  inventory_id: zInventoryId(),
  start_date: zDateBound()
    .optional()
    .openapi({ description: "First local day (in the item location's time zone) or an instant; bookings starting at or after it" }),
  end_date: zDateBound().optional().openapi({ description: 'Last local day (inclusive) or an instant (exclusive); bookings starting before its end' }),
  extend: zQueryBool().openapi({
    type: 'string',
    description: 'true: also rentals that started before `start_date` and are still running (overlap instead of start-within)',
  }),
  dates_only: zQueryBool().openapi({ type: 'string', description: 'true: answer only the local dates that have bookings, with a count per date' }),
  page: zPageQ(),
  limit: zLimitQ(500, 100),
  include_drydock: zQueryBool().openapi({ type: 'string', description: "true: add the item's drydock periods of the window as `drydock`" }),
  use_parallel: zQueryBool().openapi({ type: 'string', description: 'Accepted for compatibility; no effect (one indexed D1 query answers every request)' }),
  use_scan: zQueryBool().openapi({ type: 'string', description: 'Accepted for compatibility; no effect (one indexed D1 query answers every request)' }),
  search_rental_id: z.string().trim().min(1).max(128).optional().openapi({ description: 'Part of a rental id (case-insensitive)' }),
  sort_by: z.enum(SORT_FIELDS).default('start'),
  sort_order: zSortOrder(),
  status_filter: zStatusList().optional(),
});

export const SearchQuery = z.object({
  inventory_id: zInventoryId(),
  rental_id: z.string().trim().min(1).max(128).optional().openapi({ description: 'Part of a rental id' }),
  customer_name: z.string().trim().min(1).max(200).optional().openapi({ description: "Part of the renter's name (first, last or full)" }),
  email: z.string().trim().min(1).max(254).optional().openapi({ description: "Part of the renter's e-mail" }),
  limit: zLimitQ(200, 50),
});

export const LocationQuery = z.object({
  location_ids: z
    .string()
    .trim()
    .min(1)
    .max(10_000)
    .openapi({ example: '["loc_01J...","loc_01K..."]', description: 'JSON array of location ids (strings, at most 50)' }),
  start_date: zDateBound().optional().openapi({ description: 'First local day (YYYY-MM-DD, each location in its own zone) or an instant' }),
  end_date: zDateBound().optional().openapi({ description: 'Last local day (inclusive) or an instant (exclusive)' }),
  status_filter: zStatusList().optional(),
  page: zPageQ(),
  limit: zLimitQ(500, 200),
  lightweight: zQueryBool().openapi({ type: 'string' }),
});

const statusQueryCommon = {
  status: zStatusList()
    .optional()
    .openapi({ type: 'string', description: `One status or a comma-separated list: ${BOOKING_STATUSES.join(', ')}` }),
  start_date: zDateBound().optional(),
  end_date: zDateBound().optional(),
  page: zPageQ(),
  limit: zLimitQ(500, 100),
  sort_order: zSortOrder(),
  lightweight: zQueryBool().openapi({ type: 'string', description: 'true: only rentalId, status, times, inventoryId and assetIds' }),
};

export const ByCustomerStatusQuery = z.object({
  customer_id: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .optional()
    .openapi({ description: "The operator account id; defaults to the caller's. Another operator's id answers 403." }),
  ...statusQueryCommon,
});

export const ByLocationStatusQuery = z.object({
  location_id: z.string().trim().min(1).max(128),
  ...statusQueryCommon,
});

export const PaginatedQuery = z.object({
  limit: zLimitQ(500, 50),
  cursor: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .optional()
    .openapi({ description: 'The `nextCursor` of the previous page (base64 of JSON `{after: [start, rentalId], filters}`)' }),
  filters: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .optional()
    .openapi({ description: 'JSON object of filters (see the route description)', example: '{"status":["confirmed"],"startDate":"2025-07-01"}' }),
});

export const CountQuery = z.object({
  filters: z.string().trim().min(1).max(4000).optional().openapi({ description: 'JSON object of filters, as for /schedule/schedules/paginated' }),
});

const oneOrMany = <T extends z.ZodType>(t: T) => z.union([t, z.array(t).min(1).max(100)]);
const id = () => z.string().trim().min(1).max(128);

/** Filters of the paginated list and the count (unknown keys are refused so a typo never widens a query). */
export const Filters = z
  .object({
    inventoryId: oneOrMany(id()).optional(),
    locationId: oneOrMany(id()).optional(),
    status: oneOrMany(z.enum(BOOKING_STATUSES)).optional(),
    source: oneOrMany(z.enum(['operator', 'widget', 'channel', 'marketplace', 'import'])).optional(),
    renterId: id().optional(),
    transactionId: id().optional(),
    startDate: zDateBound().optional(),
    endDate: zDateBound().optional(),
    search: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .openapi('ScheduleFilters');
export type FiltersT = z.output<typeof Filters>;

export const Renter = z
  .object({
    renterId: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
  })
  .openapi('ScheduleRenter');

export const ScheduleEntry = z
  .object({
    rentalId: z.string(),
    transactionId: z.string(),
    bundleGroupId: z.string().nullable(),
    status: z.string(),
    source: z.string(),
    inventoryId: z.string(),
    inventoryName: z.string().nullable(),
    locationId: z.string(),
    assetIds: z.array(z.string()),
    startTime: z.string().openapi({ description: 'UTC instant' }),
    endTime: z.string(),
    localDate: z.string().openapi({ description: "Local date of the start in the location's zone" }),
    quantity: z.number(),
    participants: z.number().nullable(),
    renter: Renter,
    currency: z.string(),
    total: z.number().openapi({ description: 'Dollars' }),
    amountPaid: z.number().openapi({ description: 'Dollars' }),
    balanceDue: z.number().openapi({ description: 'Dollars' }),
    depositInformation: z.record(z.string(), z.unknown()).nullable(),
    testMode: z.boolean(),
    checkedInAt: z.string().nullable(),
    checkedOutAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ScheduleEntry');

export const LightEntry = z
  .object({ rentalId: z.string(), status: z.string(), startTime: z.string(), endTime: z.string(), inventoryId: z.string(), assetIds: z.array(z.string()) })
  .openapi('ScheduleEntryLight');

const pageFields = { page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number(), hasMore: z.boolean() };
const StatusCounts = z.record(z.string(), z.number()).openapi({ description: 'Bookings per status for the same filters, ignoring the status filter' });

export const Drydock = z.object({
  rentalId: z.string(),
  assetIds: z.array(z.string()),
  startTime: z.string(),
  endTime: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  notes: z.string().nullable(),
});

export const ScheduleResponse = z
  .object({
    inventoryId: z.string(),
    timezone: z.string(),
    data: z.array(ScheduleEntry).optional(),
    dates: z.array(z.object({ date: z.string(), count: z.number() })).optional(),
    statusCounts: StatusCounts,
    drydock: z.array(Drydock).optional(),
    ...pageFields,
  })
  .partial({ page: true, limit: true, totalPages: true, hasMore: true })
  .openapi('Schedule');

export const SearchResponse = z.object({ data: z.array(ScheduleEntry), total: z.number(), limit: z.number() }).openapi('ScheduleSearch');

export const LocationResponse = z
  .object({
    data: z.array(z.union([ScheduleEntry, LightEntry])),
    locations: z.array(z.object({ locationId: z.string(), name: z.string(), timezone: z.string(), count: z.number() })),
    ...pageFields,
  })
  .openapi('LocationSchedule');

export const StatusListResponse = z
  .object({ data: z.array(z.union([ScheduleEntry, LightEntry])), statusCounts: StatusCounts, ...pageFields })
  .openapi('ScheduleByStatus');

export const PaginatedResponse = z
  .object({
    data: z.array(ScheduleEntry),
    limit: z.number(),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    filters: z.record(z.string(), z.unknown()),
  })
  .openapi('SchedulePage');

export const CountResponse = z
  .object({ total: z.number(), byStatus: z.record(z.string(), z.number()), filters: z.record(z.string(), z.unknown()) })
  .openapi('ScheduleCount');
