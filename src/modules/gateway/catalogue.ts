import { SCOPES, SCOPE_NAMES, type Scope } from '../partners/types';
import { DENY_REASONS, GATEWAY_ALIASES, GATEWAY_ROUTES, type DenyReason } from './routes-table';
import { isDeny } from './match';

/** The full scope catalogue with the routes each scope opens under /api/v1, and what is denied (GET /oauth/scopes, /docs). */
export function scopeCatalogue() {
  const byScope = new Map<Scope, string[]>(SCOPE_NAMES.map((s) => [s, []]));
  const denied = new Map<DenyReason, string[]>();
  for (const [key, rule] of Object.entries(GATEWAY_ROUTES)) {
    if (isDeny(rule)) denied.set(rule.deny, [...(denied.get(rule.deny) ?? []), key]);
    else byScope.get(rule)!.push(key);
  }
  return {
    gatewayPrefix: '/api/v1',
    rateLimitPerMinute: 600,
    scopes: SCOPE_NAMES.map((s) => ({ scope: s, description: SCOPES[s], routes: byScope.get(s)! })),
    denied: [...denied.entries()].map(([reason, routes]) => ({ reason, description: DENY_REASONS[reason], routes })),
    aliases: Object.entries(GATEWAY_ALIASES).map(([from, to]) => ({ route: from, servedBy: to })),
  };
}

/** The catalogue as markdown, for the gateway's tag in /docs. */
export function catalogueMarkdown(): string {
  const c = scopeCatalogue();
  const rows = c.scopes.map((s) => `| \`${s.scope}\` | ${s.description} | ${s.routes.length ? s.routes.map((r) => `\`${r}\``).join(', ') : '-'} |`);
  const denied = c.denied.map((d) => `| ${d.description} | ${d.routes.map((r) => `\`${r}\``).join(', ')} |`);
  return [
    '| scope | allows | routes (under /api/v1) |',
    '|---|---|---|',
    ...rows,
    '',
    '**Denied whatever the scopes** (403 `route_not_exposed`):',
    '',
    '| why | routes |',
    '|---|---|',
    ...denied,
  ].join('\n');
}
