import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Channel connections'];
const WithKey = s.Connection.extend({
  key: z.string().openapi({ description: 'The channel key (`rtc_live_...` or `rtc_test_...`); shown only in this response' }),
  mode: z.enum(['live', 'test']),
});

export const listChannels = route({
  method: 'get',
  path: '/channel-connections/channels',
  operationId: 'listAvailableChannels',
  tags,
  summary: 'Reseller channels an operator can connect to',
  ok: z.object({ data: z.array(s.ChannelListing) }),
  description: 'Every registered reseller platform with its status and whether this operator is `connected` to it, for the operator to choose from.',
});
export const listConnections = route({
  method: 'get',
  path: '/channel-connections',
  operationId: 'listChannelConnections',
  tags,
  summary: "The operator's reseller connections",
  ok: z.object({ data: z.array(s.Connection) }),
  description: 'Every reseller connection of the account, newest first: platform channels and single-operator partner keys, removed ones included.',
});
export const getConnection = route({
  method: 'get',
  path: '/channel-connections/{id}',
  operationId: 'getChannelConnection',
  tags,
  summary: 'One connection',
  params: s.IdParam,
  ok: s.Connection,
  errors: [404],
  description: "One reseller connection of the account; another operator's connection answers 404.",
});
export const connect = route({
  method: 'post',
  path: '/channel-connections',
  operationId: 'createChannelConnection',
  tags,
  access: 'admin',
  summary: 'Connect to a reseller platform, choosing commission and the offer set',
  body: s.ConnectBody,
  ok: s.Connection,
  status: 201,
  errors: [404, 409],
  description: "The platform key of the channel starts seeing this operator's offered products at once. Reconnecting a removed connection reactivates it.",
});
export const createPartnerKey = route({
  method: 'post',
  path: '/channel-connections/partner-keys',
  operationId: 'createPartnerKey',
  tags,
  access: 'admin',
  summary: 'Create a single-operator key for a partner',
  body: s.PartnerKeyBody,
  ok: WithKey,
  status: 201,
  description: 'Creates a `single` connection and its key. Send the key to the partner; it is shown only once.',
});
export const updateConnection = route({
  method: 'patch',
  path: '/channel-connections/{id}',
  operationId: 'updateChannelConnection',
  tags,
  access: 'admin',
  summary: 'Set a custom commission, the offer set, or pause/resume',
  params: s.IdParam,
  body: s.UpdateBody,
  ok: s.Connection,
  errors: [404, 409],
  description: `Changes the commission (applies to bookings made from now on; earlier bookings keep the rate they were stamped with), the offer
set (\`offerAllInventory\`, \`offeredItemIds\`) or the \`status\` (\`active\`/\`paused\`; a paused connection's keys answer 403 \`connection_paused\`).
A removed connection answers 409 \`invalid_state\`; a body with nothing to change 400 \`no_changes\`.`,
});
export const removeConnection = route({
  method: 'delete',
  path: '/channel-connections/{id}',
  operationId: 'deleteChannelConnection',
  tags,
  access: 'admin',
  summary: 'Remove a reseller (its single-operator keys stop at once)',
  params: s.IdParam,
  ok: s.Connection,
  errors: [404],
  description: `Removes the connection: the channel stops seeing this operator's products at once and the keys of the connection are revoked.
Bookings already made are kept. Reconnecting with POST /channel-connections reactivates a platform connection. Answers the removed connection.`,
});
export const rotateKey = route({
  method: 'post',
  path: '/channel-connections/{id}/rotate-key',
  operationId: 'rotateConnectionKey',
  tags,
  access: 'admin',
  summary: 'Rotate a single-operator key: the old one stops at once',
  params: s.IdParam,
  body: s.RotateBody,
  ok: WithKey,
  errors: [404, 409],
  description: `Issues a new key of \`mode\` (default \`live\`) for a single-operator connection and revokes the previous one at once; the key is
shown only here. A platform connection (its keys belong to the reseller) or a removed one answers 409 \`invalid_state\`.`,
});
export const connectionSettlement = route({
  method: 'get',
  path: '/channel-connections/{id}/settlement',
  operationId: 'getConnectionSettlement',
  tags,
  summary: 'What the reseller owes for a month (same figures as the reseller sees)',
  params: s.IdParam,
  query: s.MonthQuery,
  errors: [404],
  ok: s.Settlement,
  description:
    'What the reseller of this connection owes for `month` (YYYY-MM), by rental date: the same figures the reseller reads from GET /channel/v1/settlement.',
});
