/**
 * The OpenAPI document names every operation for generated clients: a unique camelCase verbNoun
 * `operationId`, a summary, a description and tags declared globally with a description; nullable
 * references are documented so that null validates (`anyOf` with `null`, never `allOf` with a
 * nullable object type).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { get } from '../harness';
import { nullableRefsAsAnyOf } from '../../src/lib/openapi';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
}
interface Doc {
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

let doc: Doc;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

beforeAll(async () => {
  doc = (await get('/openapi.json')).body as Doc;
});

describe('OpenAPI operations', () => {
  it('gives every operation an operationId, unique across the API', () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(150);
    expect(all.filter((o) => !o.op.operationId).map((o) => o.where)).toEqual([]);
    const seen = new Map<string, string[]>();
    for (const o of all) seen.set(o.op.operationId!, [...(seen.get(o.op.operationId!) ?? []), o.where]);
    expect([...seen.entries()].filter(([, where]) => where.length > 1)).toEqual([]);
  });

  it('names operations in camelCase verbNoun', () => {
    const bad = operations()
      .map((o) => o.op.operationId!)
      .filter((id) => !/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(id));
    expect(bad).toEqual([]);
  });

  it('gives every operation a summary and a description', () => {
    const all = operations();
    expect(all.filter((o) => !o.op.summary?.trim()).map((o) => o.where)).toEqual([]);
    expect(all.filter((o) => !o.op.description?.trim()).map((o) => o.where)).toEqual([]);
    expect(all.filter((o) => /\.\s*$/.test(o.op.summary!)).map((o) => o.where)).toEqual([]);
  });

  it('tags every operation with tags declared globally, each with a description', () => {
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    expect(doc.tags.filter((t) => !t.description?.trim()).map((t) => t.name)).toEqual([]);
    expect(declared.size).toBe(doc.tags.length);
    const all = operations();
    expect(all.filter((o) => !o.op.tags?.length).map((o) => o.where)).toEqual([]);
    expect(all.flatMap((o) => (o.op.tags ?? []).filter((t) => !declared.has(t)).map((t) => `${o.where}: ${t}`))).toEqual([]);
    const used = new Set(all.flatMap((o) => o.op.tags ?? []));
    expect([...declared.keys()].filter((t) => !used.has(t))).toEqual([]);
  });
});

describe('OpenAPI schemas', () => {
  it('documents nullable references as anyOf with null', () => {
    const wrong: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      const nullType = (m: unknown) => Array.isArray((m as { type?: unknown })?.type) && (m as { type: string[] }).type.includes('null');
      if (Array.isArray(n.allOf) && n.allOf.some(nullType)) wrong.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(doc, '#');
    expect(wrong).toEqual([]);
    const text = JSON.stringify(doc);
    for (const name of ['AssetMapPin', 'ProviderIntentState', 'RecurrencePattern', 'TourPricing']) {
      expect(text, name).toContain(`{"anyOf":[{"$ref":"#/components/schemas/${name}"},{"type":"null"}]}`);
    }
  });

  it('rewrites only the nullable form of a reference', () => {
    const ref = { $ref: '#/components/schemas/Pin' };
    const doc = {
      a: { allOf: [ref, { type: ['object', 'null'] }], description: 'A pin' },
      b: { allOf: [ref, { type: 'object', properties: { id: { type: 'string' } } }] },
      c: { allOf: [ref, { type: ['object', 'null'], properties: { id: { type: 'string' } } }] },
    };
    expect(nullableRefsAsAnyOf(doc)).toEqual({
      a: { anyOf: [ref, { type: 'null' }], description: 'A pin' },
      b: doc.b,
      c: doc.c,
    });
  });
});
