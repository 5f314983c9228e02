/**
 * The partner gateway's face. Others use it for:
 * - the route table and the route a rule covers (the gateway's table tests): GATEWAY_ROUTES, coverOf.
 */
export { GATEWAY_ROUTES } from './routes-table';
export { coverOf } from './match';
