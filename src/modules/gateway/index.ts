import { z } from '@hono/zod-openapi';
import { createRouter, ErrorSchema, mount } from '../../lib/openapi';
import * as r from './routes';
import { scopeCatalogue } from './catalogue';
import { GATEWAY_PREFIX, handleGateway } from './proxy';

const router = createRouter();

mount(router, r.scopes, (c) => c.json(scopeCatalogue()));

// The gateway itself: every method under /api/v1, dispatched to the core routes (see proxy.ts).
router.all(`${GATEWAY_PREFIX}/*`, handleGateway);

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });
for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
  router.openAPIRegistry.registerPath({
    method,
    path: `${GATEWAY_PREFIX}/{documentedPath}`,
    operationId: `gateway${method[0].toUpperCase()}${method.slice(1)}`,
    tags: ['Partner gateway'],
    summary: `Partner gateway: ${method.toUpperCase()} any documented path, scope-checked`,
    description: `Serves \`${method.toUpperCase()} /<documentedPath>\` with the same handler as the core API, for an installed app's access token. See the
Partner gateway tag for the scope of every route.`,
    security: [{ OAuthAccessToken: [] }],
    request: { params: z.object({ documentedPath: z.string().openapi({ example: 'renters' }) }) },
    responses: {
      200: { description: 'The answer of the core route, plus X-RateLimit-* of the installation and X-Gateway-Scope' },
      401: err('Missing, invalid, expired or revoked access token'),
      403: err('`insufficient_scope` (with `requiredScope`) or `route_not_exposed` (default-deny)'),
      404: err('`route_not_found`: the gateway table has no such route; or the record is not the operator’s'),
      429: err('Over 600 requests per minute for the installation; see Retry-After'),
    },
  });
}

export default router;
