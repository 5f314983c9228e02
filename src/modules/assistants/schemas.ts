import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

const message = () => z.string().trim().min(1).max(2000);

export const SidekickBody = z.object({ rentalId: zId('bk_01J0000000000000000000000'), message: message() }).openapi('SidekickQuestion');

export const ConciergeBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    message: message(),
    conversationHistory: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(4000) }))
      .max(20)
      .optional()
      .openapi({ description: 'Earlier turns, oldest first (used by Workers AI; the rules answer each question on its own)' }),
    selectedDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
      .optional(),
    locationId: zId('loc_01J0000000000000000000000').optional(),
  })
  .openapi('ConciergeQuestion');

const Answer = {
  status: z.enum(['answered', 'cannot_answer']),
  answer: z.string(),
  reason: z.string().nullable().openapi({ description: 'Why it cannot be answered (not_in_facts, out_of_scope, no_items, ...)' }),
  source: z.enum(['model', 'rules']).openapi({ description: 'model: Workers AI wrote it; rules: the deterministic answer from the data' }),
  model: z.string().nullable(),
  topics: z.array(z.string()),
};

export const SidekickAnswer = z.object({ rentalId: z.string(), ...Answer }).openapi('SidekickAnswer');

export const ConciergeAnswer = z
  .object({
    customerId: z.string(),
    selectedDate: z.string().nullable(),
    ...Answer,
    items: z.array(
      z.object({
        inventoryId: z.string(),
        name: z.string(),
        type: z.string(),
        locationId: z.string(),
        capacity: z.number(),
        startingPrice: z.number().nullable().openapi({ description: 'Dollars (major units)' }),
        priceUnit: z.string().nullable(),
        currency: z.string(),
        availability: z.object({ date: z.string(), status: z.string(), openTimes: z.array(z.string()), timezone: z.string() }).nullable(),
      }),
    ),
  })
  .openapi('ConciergeAnswer');
