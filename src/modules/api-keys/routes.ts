import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['API keys'];

export const createKey = route({
  method: 'post',
  path: '/api-keys',
  operationId: 'createApiKey',
  tags,
  access: 'admin',
  summary: 'Create an API key (Admin > API Keys); the secret is shown once',
  body: s.CreateBody,
  ok: s.ApiKeyWithSecret,
  status: 201,
});
export const listKeys = route({
  method: 'get',
  path: '/api-keys',
  operationId: 'listApiKeys',
  tags,
  access: 'admin',
  summary: 'API keys of the account (secrets are never shown again)',
  ok: z.object({ data: z.array(s.ApiKey) }),
});
export const revokeKey = route({
  method: 'delete',
  path: '/api-keys/{id}',
  operationId: 'revokeApiKey',
  tags,
  access: 'admin',
  summary: 'Revoke an API key; it stops working at once',
  params: s.IdParam,
  ok: s.ApiKey,
  errors: [404],
});
