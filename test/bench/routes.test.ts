import { describe, it } from 'vitest';
import { api, expectError } from '../harness';

/** The benchmark's seeding and baseline routes exist only under `wrangler dev` (ENVIRONMENT development). */
describe('dev-only bench routes', () => {
  it('answer 404 route_not_found outside development, even with the seed token', async () => {
    const headers = { 'x-seed-token': 'test-seed-token' };
    expectError(await api('POST', '/__dev/bench/seed', { headers, body: {} }), 404, 'route_not_found');
    expectError(await api('GET', '/__dev/bench/d1-read?id=x', { headers }), 404, 'route_not_found');
    expectError(await api('POST', '/__dev/bench/d1-insert', { headers, body: {} }), 404, 'route_not_found');
  });
});
