/**
 * Bad input never answers 5xx (issue 28, "Done when"). Walks `/openapi.json` and sends every
 * operation one request per kind of bad input — no body, wrong types, deep nesting (over and
 * just under the depth cap), huge strings, unknown enum values, malformed path ids, negative
 * numbers, non-JSON — with valid operator credentials (admin API keys of one operator, rotated
 * so the per-key rate limit never hides an answer), and asserts that no answer is a 5xx.
 * Outbound requests are refused in-process: nothing leaves the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { BASE, createOperator, get, type Operator } from '../harness';
import { outbound, resolver } from '../../src/adapters/http';

type Schema = Record<string, any>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

let doc: Doc;
let op: Operator;
const keys: string[] = [];
const realFetch = outbound.fetch;
const realResolve = resolver.resolve;

const KEYS = 24;
const CONCURRENCY = 8;

beforeAll(async () => {
  doc = (await get('/openapi.json')).body as Doc;
  op = await createOperator();
  keys.push(op.adminKey);
  for (let i = 1; i < KEYS; i++) keys.push((await op.addUser({ role: 'admin', permissions: ['admin'] })).key);
  outbound.fetch = async () => {
    throw new Error('no network in this test');
  };
  resolver.resolve = async () => ['93.184.216.34'];
});
afterAll(() => {
  outbound.fetch = realFetch;
  resolver.resolve = realResolve;
});

// ---------------------------------------------------------------------------------------------
// Schemas: resolve references and merge the branches of an object schema.
// ---------------------------------------------------------------------------------------------

function deref(s: Schema | undefined, seen = 0): Schema {
  if (!s || seen > 20) return {};
  if (typeof s.$ref === 'string') return deref(doc.components.schemas[s.$ref.split('/').pop()!], seen + 1);
  if (Array.isArray(s.allOf) && !s.properties) return Object.assign({}, ...s.allOf.map((x: Schema) => deref(x, seen + 1)));
  if (Array.isArray(s.anyOf ?? s.oneOf)) {
    const branches = (s.anyOf ?? s.oneOf).map((x: Schema) => deref(x, seen + 1)).filter((x: Schema) => x.type !== 'null');
    const objects = branches.filter((x: Schema) => x.properties);
    if (objects.length) return { type: 'object', properties: Object.assign({}, ...objects.map((x: Schema) => x.properties)) };
    return branches[0] ?? {};
  }
  return s;
}

const typeOf = (s: Schema): string => {
  const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (t) return t;
  if (s.enum) return typeof s.enum[0];
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return 'any';
};

/** A plausible value of a schema, so a request gets past the fields it does not mean to break. */
function plausible(raw: Schema | undefined, depth = 0): unknown {
  const s = deref(raw);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'date-time') return '2031-03-04T10:00:00Z';
      if (s.format === 'date') return '2031-03-04';
      if (s.format === 'email') return 'someone@example.test';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/x';
      if (s.format === 'uuid') return '3b9b5a52-0d4e-4b9c-9d8e-3b1d2c4a5e6f';
      return 'x'.repeat(Math.max(1, Math.min(s.minLength ?? 1, 64)));
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return true;
    case 'array':
      return depth > 4 ? [] : [plausible(s.items, depth + 1)];
    case 'object':
      return depth > 4 ? {} : objectOf(s, (p) => plausible(p, depth + 1));
    default:
      return 'x';
  }
}

function objectOf(s: Schema, value: (prop: Schema, name: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) out[name] = value(prop, name);
  return out;
}

/** A body of `plausible` values in which `mutate` replaces what it answers (undefined keeps the plausible value), at every level. */
function mutated(raw: Schema | undefined, mutate: (s: Schema) => unknown, depth = 0): unknown {
  const s = deref(raw);
  const m = mutate(s);
  if (m !== undefined) return m;
  const t = typeOf(s);
  if (t === 'object' && depth < 5) return objectOf(s, (p) => mutated(p, mutate, depth + 1));
  if (t === 'array' && depth < 5) return [mutated(s.items, mutate, depth + 1)];
  return plausible(s, depth);
}

const nested = (levels: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

const WRONG: Record<string, unknown> = { string: 12345, integer: 'not-a-number', number: 'NaN', boolean: 'maybe', array: { not: 'an array' }, object: [1, 2] };

// ---------------------------------------------------------------------------------------------
// The kinds of bad input. Each answers the body (a JSON value, a raw string, or none) and the
// path and query values of one request.
// ---------------------------------------------------------------------------------------------

interface Shaped {
  /** JSON value to send, `raw` text with its own content type, or nothing. */
  json?: unknown;
  raw?: { text: string; type: string };
  path: (p: Parameter) => string;
  query: (p: Parameter) => string | string[] | undefined;
}

const PLAUSIBLE_ID = 'zz_01J0000000000000000000000';
const plainPath = (p: Parameter) => String(typeOf(deref(p.schema)) === 'string' ? PLAUSIBLE_ID : plausible(p.schema));
const requiredQuery = (p: Parameter) => (p.required ? String(plausible(p.schema)) : undefined);
const hugeFor = (body: Schema) => {
  const count = Math.max(1, Object.keys(deref(body).properties ?? {}).length);
  return Math.max(2_000, Math.min(200_000, Math.floor(900_000 / count)));
};

const KINDS: Record<string, (body: Schema | undefined) => Shaped> = {
  missingBody: () => ({ path: plainPath, query: () => undefined }),
  emptyObject: () => ({ json: {}, path: plainPath, query: requiredQuery }),
  wrongTypes: (body) => ({
    json: mutated(body, (s) => (typeOf(s) in WRONG ? WRONG[typeOf(s)] : undefined)),
    path: plainPath,
    query: (p) => (typeOf(deref(p.schema)) === 'string' ? ['a', 'b'] : 'not-a-number'),
  }),
  deepNesting: (body) => ({
    json: mutated(body, (s) => (['object', 'array', 'any'].includes(typeOf(s)) ? nested(6000) : undefined)) ?? nested(6000),
    path: plainPath,
    query: requiredQuery,
  }),
  nestedUnderCap: (body) => ({
    json: mutated(body, (s) => (['object', 'any'].includes(typeOf(s)) ? nested(28) : undefined)),
    path: plainPath,
    query: requiredQuery,
  }),
  hugeStrings: (body) => ({
    json: mutated(body, (s) => (typeOf(s) === 'string' && !s.enum ? 'é'.repeat(hugeFor(body ?? {}) / 2) : undefined)),
    path: plainPath,
    query: (p) => (typeOf(deref(p.schema)) === 'string' ? 'q'.repeat(6000) : requiredQuery(p)),
  }),
  unknownEnums: (body) => ({
    json: mutated(body, (s) => (s.enum ? 'zz_not_a_value' : undefined)),
    path: (p) => (deref(p.schema).enum ? 'zz_not_a_value' : plainPath(p)),
    query: (p) => (deref(p.schema).enum ? 'zz_not_a_value' : requiredQuery(p)),
  }),
  negativeNumbers: (body) => ({
    json: mutated(body, (s) => (['integer', 'number'].includes(typeOf(s)) ? -1 : undefined)),
    path: (p) => (['integer', 'number'].includes(typeOf(deref(p.schema))) ? '-1' : plainPath(p)),
    query: (p) => (['integer', 'number'].includes(typeOf(deref(p.schema))) ? '-1' : requiredQuery(p)),
  }),
  malformedIds: () => ({
    json: {},
    path: () => `%E0%A4%A%27%22%3B--${'%F0%9F%92%A9'.repeat(3)}..%2F..%00${'i'.repeat(300)}`,
    query: requiredQuery,
  }),
  malformedPercent: () => ({ json: {}, path: () => '%', query: () => '%zz' }),
  nonJson: () => ({ raw: { text: '{"truncated": [1, 2', type: 'application/json' }, path: plainPath, query: requiredQuery }),
  notJsonType: () => ({ raw: { text: 'name=x&amount=-1', type: 'text/plain' }, path: plainPath, query: requiredQuery }),
};

interface Case {
  where: string;
  kind: string;
  method: string;
  url: string;
  init: RequestInit;
}

function casesOf(path: string, method: string, o: Operation): Case[] {
  const params = o.parameters ?? [];
  const jsonBody = o.requestBody?.content?.['application/json']?.schema;
  const takesBody = !!o.requestBody;
  const out: Case[] = [];
  // A kind that changes nothing for this operation (no enum to break, no number to negate...) makes the same request
  // as another kind: it is sent once.
  const seen = new Set<string>();
  for (const [kind, make] of Object.entries(KINDS)) {
    const pathParams = params.filter((p) => p.in === 'path');
    if ((kind === 'malformedIds' || kind === 'malformedPercent') && !pathParams.length) continue;
    if (['nonJson', 'notJsonType', 'deepNesting', 'nestedUnderCap', 'emptyObject'].includes(kind) && !takesBody) continue;
    const shaped = make(jsonBody);
    let concrete = path;
    for (const p of pathParams) {
      const v = shaped.path(p);
      concrete = concrete.replace(`{${p.name}}`, kind === 'malformedIds' || kind === 'malformedPercent' ? v : encodeURIComponent(v));
    }
    const qs: string[] = [];
    for (const p of params.filter((x) => x.in === 'query')) {
      const v = shaped.query(p);
      if (v === undefined) continue;
      for (const one of [v].flat())
        qs.push(kind === 'malformedPercent' ? `${encodeURIComponent(p.name)}=${one}` : `${encodeURIComponent(p.name)}=${encodeURIComponent(one)}`);
    }
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (takesBody && shaped.raw) {
      body = shaped.raw.text;
      headers['content-type'] = shaped.raw.type;
    } else if (takesBody && shaped.json !== undefined) {
      body = JSON.stringify(shaped.json);
      headers['content-type'] = 'application/json';
    }
    const url = `${BASE}${concrete}${qs.length ? `?${qs.join('&')}` : ''}`;
    const same = `${url} ${headers['content-type'] ?? ''} ${body ?? ''}`;
    if (seen.has(same)) continue;
    seen.add(same);
    out.push({
      where: `${method.toUpperCase()} ${path}`,
      kind,
      method: method.toUpperCase(),
      url,
      init: { method: method.toUpperCase(), headers, body },
    });
  }
  return out;
}

async function runAll(cases: Case[]): Promise<{ c: Case; status: number; text: string }[]> {
  const failures: { c: Case; status: number; text: string }[] = [];
  let next = 0;
  let sent = 0;
  const stats: Record<number, number> = {};
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= cases.length) return;
      const c = cases[i];
      const key = keys[sent++ % keys.length];
      const res = await SELF.fetch(c.url, { ...c.init, headers: { ...(c.init.headers as Record<string, string>), 'x-api-key': key } });
      const text = await res.text();
      if (res.status >= 500) failures.push({ c, status: res.status, text: text.slice(0, 300) });
      stats[res.status] = (stats[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  console.log(cases.length, JSON.stringify(stats));
  return failures;
}

describe('no 5xx on bad input', () => {
  it('answers every operation of /openapi.json without a 5xx, whatever the input', async () => {
    const cases = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).flatMap(([method, o]) => casesOf(path, method, o)));
    expect(cases.length).toBeGreaterThan(1000);
    const failures = await runAll(cases);
    const report = failures.map((f) => `${f.status} ${f.c.where} [${f.c.kind}] ${f.text}`);
    expect(report).toEqual([]);
  }, 120_000);
});
