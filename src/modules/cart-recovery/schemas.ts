import { z } from '@hono/zod-openapi';
import { zEmail, zId, zLimit, zOffset, zQueryBool } from '../../lib/openapi';
import { MessageResult, ProcessResult } from '../communications/types';

const zObject = (what: string) =>
  z
    .record(z.string(), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 16_384, 'must be at most 16 KiB of JSON')
    .openapi({ type: 'object', description: what });

/** A real calendar date (rejects 2027-02-30). */
const zDate = () =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
    .refine((d) => {
      const [y, m, day] = d.split('-').map(Number);
      const t = new Date(Date.UTC(y, m - 1, day));
      return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === day;
    }, 'must be a real calendar date')
    .openapi({ example: '2027-06-01' });

export const CART_STATUSES = ['active', 'completed', 'expired'] as const;

export const PublicCreateBody = z
  .object({
    id: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, 'must be 16-128 letters, digits, _ or - (use a random UUID)')
      .openapi({
        description: "The widget's own id of the cart: unguessable (a random UUID), since it reads the cart back",
        example: '3f0c9a4e-8d52-4c1b-9f7e-2b6d1a0e5c44',
      }),
    email: zEmail(),
    locationId: zId('loc_01J0000000000000000000000'),
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    bookingInfo: zObject(
      `What the visitor was booking; \`inventoryId\`, \`startTime\`, \`endTime\` (ISO), \`quantity\` and \`itemName\` are read by the recovery e-mail and to tell when the slot is gone`,
    ).optional(),
    cartData: zObject('The widget state to restore, stored as given').optional(),
    customerId: zId('cus_01J0000000000000000000000').optional(),
  })
  .openapi('CreateCartRecovery');

export const PublicCart = z
  .object({
    id: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    bookingInfo: z.record(z.string(), z.unknown()).nullable(),
    cartData: z.record(z.string(), z.unknown()).nullable(),
    status: z.enum(CART_STATUSES),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('PublicCartRecovery');

export const Cart = PublicCart.extend({
  contactOn: z.string().nullable().openapi({ description: 'When the recovery e-mail is due (null: it will not be sent automatically)' }),
  contactedAt: z.string().nullable(),
  contactMessageId: z.string().nullable(),
  shortCode: z.string().nullable(),
  completedAt: z.string().nullable(),
  transactionId: z.string().nullable(),
  recovered: z.boolean().openapi({ description: 'Completed after the person was contacted' }),
  revenue: z.number().nullable().openapi({ description: 'Total of the booking that completed the cart, in dollars' }),
  statusReason: z.string().nullable(),
}).openapi('CartRecovery');

export const CompleteResult = z.object({ success: z.literal(true), id: z.string(), status: z.literal('completed') }).openapi('CartRecoveryCompleted');
export const CompleteQuery = z.object({
  transactionId: zId('txn_01J0000000000000000000000')
    .optional()
    .openapi({ description: 'The order that completed the cart: its total becomes the recovered revenue' }),
});

export const IdParams = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
export const LocationParams = z.object({ locationId: zId('loc_01J0000000000000000000000').openapi({ param: { name: 'locationId', in: 'path' } }) });
/** A location in a path shared with a cart's DELETE (`/cartRecovery/{id}`): OpenAPI allows one parameter name per path template. */
export const LocationIdParams = z.object({
  id: zId('loc_01J0000000000000000000000').openapi({ param: { name: 'id', in: 'path', description: 'The location (`loc_...`)' } }),
});

export const AnalyticsQuery = z.object({
  startDate: zDate().optional().openapi({ description: 'First local day (default: 29 days before endDate)' }),
  endDate: zDate().optional().openapi({ description: 'Last local day, inclusive (default: today at the location)' }),
});

export const Analytics = z
  .object({
    locationId: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    timezone: z.string(),
    currency: z.string(),
    abandoned: z.number().int().openapi({ description: 'Carts captured in the period, except those completed before any contact' }),
    contacted: z.number().int(),
    recovered: z.number().int().openapi({ description: 'Completed after being contacted' }),
    recoveryRate: z.number().openapi({ description: 'recovered / contacted, in percent (two decimals; 0 when none contacted)' }),
    recoveredRevenue: z.number().openapi({ description: 'Total of the recovered bookings, in dollars' }),
    recoveredRevenueCents: z.number().int(),
  })
  .openapi('CartRecoveryAnalytics');

export const PageQuery = z.object({ limit: zLimit(100, 50), offset: zOffset() });
export const StatsQuery = PageQuery.extend({ includeContacted: zQueryBool().openapi({ description: 'Also list carts already contacted (default false)' }) });

export const CartList = z
  .object({ data: z.array(Cart), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('CartRecoveryList');

export const Statistics = z
  .object({
    total: z.number().int(),
    active: z.number().int(),
    needingContact: z.number().int(),
    contacted: z.number().int(),
    completed: z.number().int(),
    expired: z.number().int(),
    recovered: z.number().int(),
    recoveryRate: z.number(),
    recoveredRevenue: z.number(),
  })
  .openapi('CartRecoveryStatistics');

export const CartListWithStats = CartList.extend({ statistics: Statistics }).openapi('CartRecoveryListWithStatistics');

export const DeleteResult = z.object({ success: z.literal(true), id: z.string() }).openapi('CartRecoveryDeleted');

export const SendRecoveryEmailBody = z
  .object({
    to: zEmail(),
    recoveryUrl: z.string().trim().min(1).max(2048).openapi({ description: 'Absolute http(s) URL the e-mail leads to (through a short tracking link)' }),
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    customMessage: z.string().trim().max(2000).optional(),
    bookingInfo: zObject('What was being booked (`itemName` or `inventoryId`, `startTime`)').optional(),
    locationId: zId('loc_01J0000000000000000000000').optional().openapi({ description: 'Location for the template (name, time zone, currency)' }),
    cartRecoveryId: z.string().trim().min(1).max(128).optional().openapi({ description: 'A cart of the operator: marked contacted by this e-mail' }),
  })
  .openapi('SendCartRecoveryEmail');

export const SendRecoveryEmailResult = MessageResult.extend({
  success: z.boolean(),
  shortUrl: z.string(),
  code: z.string(),
  expiresAt: z.string(),
}).openapi('CartRecoveryEmailResult');

export const CartProcessResult = z
  .object({ checked: z.number().int(), contacted: z.number().int(), completed: z.number().int(), expired: z.number().int(), failed: z.number().int() })
  .openapi('CartRecoveryProcessResult');

export const ProcessAllResult = z.object({ ranAt: z.string(), scheduled: ProcessResult, cartRecovery: CartProcessResult }).openapi('ProcessScheduledResult');
