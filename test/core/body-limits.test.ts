/**
 * Limits before any work (issue 28): every JSON body is capped in size (413 `payload_too_large`)
 * and in nesting (400 `validation_failed`, JSON_MAX_DEPTH levels) at the edge of the app, before
 * the credential, the validator or a handler runs.
 */
import { describe, expect, it } from 'vitest';
import { api, createOperator, expectError } from '../harness';
import { JSON_MAX_DEPTH, jsonTooDeep } from '../../src/lib/openapi';

const arrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('JSON nesting', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonTooDeep(arrays(JSON_MAX_DEPTH))).toBe(false);
    expect(jsonTooDeep(arrays(JSON_MAX_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: '['.repeat(500) + '{'.repeat(500) }))).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: '\\"[[[[', t: '"' }) + arrays(10))).toBe(false);
    expect(jsonTooDeep(`{"a":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`)).toBe(true);
  });

  it('answers 400 for a body nested deeper than the cap, 413 past the size cap, before any work', async () => {
    const op = await createOperator();
    const deep = await api('POST', '/location', { key: op.adminKey, rawBody: `{"name":${arrays(6000)}}`, headers: { 'content-type': 'application/json' } });
    expectError(deep, 400, 'validation_failed');
    expect(deep.body.details[0]).toMatchObject({ field: 'body', code: 'too_deep' });
    // Anonymous: the limits come first (nothing is looked up for a body that is refused anyway).
    const anon = await api('POST', '/location', { rawBody: `{"name":${arrays(JSON_MAX_DEPTH + 1)}}`, headers: { 'content-type': 'application/json' } });
    expectError(anon, 400, 'validation_failed');
    const huge = await api('POST', '/location', {
      key: op.adminKey,
      rawBody: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(huge, 413, 'payload_too_large');
    // Just under the cap is left to validation (a 400 naming the field, not the nesting).
    const under = await api('POST', '/location', {
      key: op.adminKey,
      rawBody: `{"name":${arrays(JSON_MAX_DEPTH - 1)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(under, 400, 'validation_failed');
    expect(under.body.details.some((d: { code?: string }) => d.code === 'too_deep')).toBe(false);
  });
});
