import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Webhooks'];

export const createWebhook = route({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags,
  access: 'admin',
  summary: 'Create a webhook endpoint (the secret is shown once)',
  body: s.CreateWebhookBody,
  ok: s.WebhookEndpointWithSecret,
  status: 201,
});
export const listWebhooks = route({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags,
  access: 'admin',
  summary: 'List webhook endpoints',
  ok: z.object({ data: z.array(s.WebhookEndpoint) }),
});
export const getWebhook = route({
  method: 'get',
  path: '/webhooks/{id}',
  operationId: 'getWebhook',
  tags,
  access: 'admin',
  summary: 'Read a webhook endpoint',
  params: s.IdParam,
  ok: s.WebhookEndpoint,
  errors: [404],
});
export const updateWebhook = route({
  method: 'patch',
  path: '/webhooks/{id}',
  operationId: 'updateWebhook',
  tags,
  access: 'admin',
  summary: 'Update a webhook endpoint (URL, event filter, description, status)',
  params: s.IdParam,
  body: s.UpdateWebhookBody,
  ok: s.WebhookEndpoint,
  errors: [404],
});
export const deleteWebhook = route({
  method: 'delete',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags,
  access: 'admin',
  summary: 'Delete a webhook endpoint',
  params: s.IdParam,
  errors: [404],
});
export const listDeliveries = route({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags,
  access: 'admin',
  summary: 'Deliveries of an endpoint with every attempt',
  params: s.IdParam,
  query: s.DeliveriesQuery,
  ok: z.object({ data: z.array(s.Delivery), total: z.number(), limit: z.number(), offset: z.number() }),
  errors: [404],
});
export const replayDelivery = route({
  method: 'post',
  path: '/webhooks/deliveries/{deliveryId}/replay',
  operationId: 'replayWebhookDelivery',
  tags,
  access: 'admin',
  summary: 'Send a delivery again (same event id, new delivery)',
  params: s.DeliveryIdParam,
  ok: s.Delivery,
  status: 202,
  errors: [404],
});
export const testWebhook = route({
  method: 'post',
  path: '/webhooks/{id}/test',
  operationId: 'testWebhook',
  tags,
  access: 'admin',
  summary: 'Send a signed `webhook.test` event to this endpoint',
  params: s.IdParam,
  ok: z.object({ eventId: z.string() }),
  status: 202,
  errors: [404],
});
