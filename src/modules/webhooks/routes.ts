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
  description: `Registers an endpoint for the account's events (\`events\`, default \`["*"]\` for all). Every delivery is signed with the
\`secret\` returned here once (see Webhooks in the introduction). The URL must use https (plain http is accepted outside production);
in production private, loopback and link-local addresses are refused (400).`,
});
export const listWebhooks = route({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags,
  access: 'admin',
  summary: 'List webhook endpoints',
  ok: z.object({ data: z.array(s.WebhookEndpoint) }),
  description: 'Every webhook endpoint of the account with its URL, event filter and status; secrets are never shown again.',
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
  description: "One webhook endpoint of the account; another operator's endpoint answers 404.",
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
  description: `Changes the fields given; \`status: "disabled"\` stops deliveries until it is \`active\` again (pending deliveries to a disabled
endpoint fail). A body with nothing to change answers 400 \`no_changes\`.`,
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
  ok: z.object({ success: z.literal(true), id: z.string() }),
  description: 'Deletes the endpoint; deliveries still pending for it end as `failed` ("endpoint deleted") instead of being attempted.',
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
  description: `Deliveries to the endpoint, newest first, optionally of one \`status\` (pending, retrying, succeeded, failed), with \`limit\`/\`offset\`
and the \`total\`; each with its attempts (status code, error, duration).`,
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
  description: 'Queues a new delivery of the same event to the same endpoint (same event id, so receivers deduplicate it); answers 202 with the new delivery.',
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
  description: `Queues a \`webhook.test\` event for this endpoint only, signed like every delivery; answers 202 with the event id (see its delivery in
the deliveries list).`,
});
