import type { z } from '@hono/zod-openapi';
import type { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/events';
import type { Delivery, WebhookEndpoint } from './schemas';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

/** An endpoint as the API answers it (`WebhookEndpoint`): never its secret. */
export const endpointOut = (e: EndpointRow): z.output<typeof WebhookEndpoint> => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  status: e.status,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/** A delivery as the API answers it (`WebhookDelivery`), with its attempt log when the attempts are given. */
export function deliveryOut(d: DeliveryRow, attempts?: AttemptRow[]): z.output<typeof Delivery> {
  return {
    id: d.id,
    eventId: d.eventId,
    endpointId: d.endpointId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt,
    completedAt: d.completedAt,
    replayOf: d.replayOf,
    createdAt: d.createdAt,
    ...(attempts
      ? { attemptLog: attempts.map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, at: a.createdAt })) }
      : {}),
  };
}
