import { z } from '@hono/zod-openapi';

const rate = () => z.number().min(0).max(100).openapi({ description: 'Commission in percent of the pre-tax price' });
const itemIds = () => z.array(z.string().min(1).max(128)).max(1000);
export const zMonth = () =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be YYYY-MM')
    .openapi({ example: '2026-07' });

export const Connection = z
  .object({
    connectionId: z.string(),
    kind: z.enum(['platform', 'single']),
    channelId: z.string().nullable(),
    channelName: z.string(),
    merchantId: z.string(),
    commissionRate: z.number(),
    offerAllInventory: z.boolean(),
    offeredItemIds: z.array(z.string()),
    status: z.enum(['active', 'paused', 'removed']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ChannelConnection');

export const ConnectBody = z
  .object({
    channelId: z.string().min(1).max(128),
    commissionRate: rate(),
    offerAllInventory: z.boolean().default(true),
    offeredItemIds: itemIds().optional(),
  })
  .openapi('ConnectChannel');

export const PartnerKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).openapi({ description: 'The partner (concierge desk, travel agent) this key is for' }),
    commissionRate: rate(),
    offerAllInventory: z.boolean().default(true),
    offeredItemIds: itemIds().optional(),
    mode: z.enum(['live', 'test']).default('live').openapi({
      description: "A test key sells a sandbox operator (the partner's private demo operator; this operator itself when it is a sandbox) and never moves money",
    }),
  })
  .openapi('CreatePartnerKey');

export const UpdateBody = z
  .object({
    commissionRate: rate().optional().openapi({ description: 'A custom commission for this reseller' }),
    offerAllInventory: z.boolean().optional(),
    offeredItemIds: itemIds().optional(),
    status: z.enum(['active', 'paused']).optional(),
  })
  .openapi('UpdateChannelConnection');

export const RotateBody = z.object({ mode: z.enum(['live', 'test']).default('live') }).openapi('RotateChannelKey');
export const IdParam = z.object({ id: z.string().min(1).max(128) });
export const MonthQuery = z.object({ month: zMonth() });

export const ChannelListing = z
  .object({ channelId: z.string(), slug: z.string(), name: z.string(), status: z.string(), connected: z.boolean() })
  .openapi('ChannelListing');

/** What the reseller of a connection owes for a month (the channel's settlement figures, read for one connection). */
export const Settlement = z
  .object({
    month: z.string().openapi({ example: '2026-07' }),
    currency: z.string(),
    operators: z.array(
      z.object({
        merchantId: z.string(),
        merchantName: z.string(),
        connectionId: z.string(),
        currency: z.string(),
        test: z.boolean().openapi({ description: "True for a sandbox's test bookings (only a reseller's test key sees them); false here" }),
        bookings: z.number().int(),
        grossSales: z.number().openapi({ description: 'Tax-inclusive totals, decimal amount' }),
        commission: z.number(),
        amountOwed: z.number().openapi({ description: 'grossSales - commission' }),
      }),
    ),
    totals: z.object({ bookings: z.number().int(), grossSales: z.number(), commission: z.number(), amountOwed: z.number() }),
  })
  .openapi('ConnectionSettlement');
