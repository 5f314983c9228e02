/** The partner gateway: its route table and scope catalogue (for tests and documentation). */
export { GATEWAY_ROUTES, GATEWAY_ALIASES, DENY_REASONS, type Rule } from './routes-table';
export { coverOf, matchRoute } from './match';
export { scopeCatalogue } from './catalogue';
export { GATEWAY_PREFIX, GATEWAY_RATE_LIMIT } from './proxy';
