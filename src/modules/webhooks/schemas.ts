import { z } from '@hono/zod-openapi';
import { EVENT_TYPES } from '../../lib/commit';

const eventName = z.enum(['*', ...EVENT_TYPES] as [string, ...string[]]);

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    status: z.enum(['active', 'disabled']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().openapi({ description: 'Signing secret; shown only in this response.' }),
}).openapi('WebhookEndpointWithSecret');

export const CreateWebhookBody = z
  .object({
    url: z.string().trim().max(2048).url(),
    events: z.array(eventName).min(1).max(20).default(['*']).openapi({ description: 'Event types to receive; `*` for all.' }),
    description: z.string().trim().max(500).optional(),
  })
  .openapi('CreateWebhook');

export const UpdateWebhookBody = z
  .object({
    url: z.string().trim().max(2048).url().optional(),
    events: z.array(eventName).min(1).max(20).optional(),
    description: z.string().trim().max(500).nullable().optional(),
    status: z.enum(['active', 'disabled']).optional(),
  })
  .openapi('UpdateWebhook');

export const IdParam = z.object({ id: z.string().min(1).max(128) });
export const DeliveryIdParam = z.object({ deliveryId: z.string().min(1).max(128) });

export const DeliveriesQuery = z.object({
  status: z.enum(['pending', 'retrying', 'succeeded', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const Delivery = z
  .object({
    id: z.string(),
    eventId: z.string(),
    endpointId: z.string(),
    eventType: z.string(),
    status: z.string(),
    attempts: z.number(),
    lastStatusCode: z.number().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    replayOf: z.string().nullable(),
    createdAt: z.string(),
    attemptLog: z
      .array(z.object({ attempt: z.number(), statusCode: z.number().nullable(), error: z.string().nullable(), durationMs: z.number(), at: z.string() }))
      .optional(),
  })
  .openapi('WebhookDelivery');
