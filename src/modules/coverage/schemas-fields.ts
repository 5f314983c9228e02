import { z } from '@hono/zod-openapi';

// Field builders and value schemas shared by the schema files (schemas-*.ts).

export const country = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code (US, GB, DE, ...)');
export const currency = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{3}$/, 'must be an ISO 4217 currency code (usd, eur, ...)');
export const uniqueList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((a) => new Set(a as unknown[]).size === a.length, 'must not repeat a value');
/** A page of a list: `{ data, total, limit, offset }`. */
export const page = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi(name);
export const Dollars = z.number().openapi({ description: 'Dollars (decimal) in the currency named beside it' });
export const Iso = z.string().openapi({ description: 'ISO 8601 instant, UTC', example: '2027-06-01T14:00:00.000Z' });
