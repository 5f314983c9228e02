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
  description: `Creates an API key for the calling admin user; it carries that user's permissions. The secret (\`key\`) is in this answer only: Berth
stores its hash and shows its \`prefix\` afterwards. Send it as \`x-api-key\`.`,
});
export const listKeys = route({
  method: 'get',
  path: '/api-keys',
  operationId: 'listApiKeys',
  tags,
  access: 'admin',
  summary: 'API keys of the account (secrets are never shown again)',
  ok: z.object({ data: z.array(s.ApiKey) }),
  description: 'Every API key of the account with its prefix, owner, last use and revocation time; secrets are never shown again.',
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
  description: "Revokes a key of the account: the next request with it answers 401. Another operator's key answers 404.",
});
