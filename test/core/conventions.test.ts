import { describe, it, expect } from 'vitest';
import { SELF } from 'cloudflare:test';
import { api, createOperator, expectError, get, post, BASE } from '../harness';

describe('API conventions', () => {
  it('answers an unknown path with 404 route_not_found in the envelope', async () => {
    const r = await get('/no/such/path');
    expectError(r, 404, 'route_not_found');
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const op = await createOperator();
    const r = await get('/customer', { key: op.adminKey, headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const r2 = await get('/customer', { key: op.adminKey });
    expect(r2.headers.get('x-request-id')).toMatch(/^req_/);
    const bad = await get('/nope', { headers: { 'x-request-id': 'has spaces and <tags>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^req_/);
    expect(bad.body.requestId).toBe(bad.headers.get('x-request-id'));
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    const op = await createOperator();
    const r = await api('POST', '/location', { key: op.adminKey, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expectError(r, 400, 'invalid_json');
  });

  it('names each invalid field in details', async () => {
    const op = await createOperator();
    const r = await post('/location', { name: '', phoneNumber: 'abc' }, { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    const fields = [...new Set(r.body.details.map((d: any) => d.field))].sort();
    expect(fields).toEqual(['address', 'name', 'phoneNumber']);
    expect(r.body.details.find((d: any) => d.field === 'address').code).toBe('required');
  });

  it('caps bodies at 1 MiB with 413', async () => {
    const op = await createOperator();
    const big = JSON.stringify({ name: 'x', address: 'a'.repeat(1024 * 1024 + 10), phoneNumber: '+15555550100' });
    const r = await api('POST', '/location', { key: op.adminKey, rawBody: big, headers: { 'content-type': 'application/json' } });
    expectError(r, 413, 'payload_too_large');
  });

  it('refuses a non-JSON content type with 415', async () => {
    const op = await createOperator();
    const r = await api('POST', '/location', { key: op.adminKey, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectError(r, 415, 'unsupported_media_type');
  });

  it('serves OpenAPI 3.1 with every route and an interactive reference', async () => {
    const r = await get('/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    for (const p of [
      '/customer',
      '/user',
      '/userManagement',
      '/staffSchedule',
      '/staffSchedule/{id}',
      '/location',
      '/location/ivr',
      '/location/restore',
      '/user/{userId}/audit-logs',
      '/webhooks',
      '/api-keys',
    ]) {
      expect(r.body.paths[p], p).toBeDefined();
    }
    expect(r.body.components.securitySchemes.ApiKey).toBeDefined();
    const docs = await SELF.fetch(`${BASE}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('/openapi.json');
  });
});
