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
  description: `Public, for app developers and the command line. \`scopes\`: each scope with what it allows and the routes it opens under \`gatewayPrefix\` (\`/api/v1\`), written \`METHOD /path\`; a call without the scope answers 403 \`insufficient_scope\`. \`denied\`: the routes no scope opens (403 \`route_not_exposed\`), grouped by reason; \`aliases\`: gateway routes served by another path (\`route\` under /api/v1, \`servedBy\` the route that answers). \`rateLimitPerMinute\`: the limit per installation.`,
});
