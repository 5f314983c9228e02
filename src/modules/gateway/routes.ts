import { route } from '../../lib/openapi';
import * as s from './schemas';

export const scopes = route({
  method: 'get',
  path: '/oauth/scopes',
  operationId: 'listOAuthScopes',
  tags: ['Partner gateway'],
  access: 'none',
  security: [],
  summary: 'The scope catalogue: every scope, the routes it opens under /api/v1, and what is denied',
  ok: s.ScopeCatalogue,
});
