// The bundle aliases of wrangler.toml (README "Production bundle"): the modules they put in place of
// a package's own export the same API, answer the same, and the tests run them too.
import { describe, expect, it } from 'vitest';
import { z as openapiZ } from '@hono/zod-openapi';
import * as zod from 'zod';
import * as realZod from '../../node_modules/zod/index.js';
import * as realCore from '../../node_modules/zod/v4/core/index.js';

describe('zod without its locales (src/lib/zod)', () => {
  it('is what `zod` and @hono/zod-openapi resolve to here', () => {
    expect(Object.keys(zod.locales)).toEqual(['en']);
    expect(Object.keys(zod.core.locales)).toEqual(['en']);
    expect(openapiZ).toBe(zod.z);
    expect(Object.keys(realZod.locales).length).toBeGreaterThan(40);
  });

  it('exports every name of zod, and of z.core, with the same values (locales apart)', () => {
    const names = (o: object) => Object.keys(o).sort();
    expect(names(zod)).toEqual(names(realZod));
    expect(names(zod.core)).toEqual(names(realCore));
    const rz = realZod as unknown as Record<string, unknown>;
    const rc = realCore as unknown as Record<string, unknown>;
    const z = zod as unknown as Record<string, unknown>;
    const zc = zod.core as unknown as Record<string, unknown>;
    for (const k of names(zod)) if (!['locales', 'core', 'z', 'default', 'iso', 'coerce'].includes(k)) expect(z[k], k).toBe(rz[k]);
    for (const k of names(zod.core)) if (k !== 'locales') expect(zc[k], k).toBe(rc[k]);
    for (const ns of ['iso', 'coerce'] as const)
      for (const k of names(zod[ns])) expect((zod[ns] as Record<string, unknown>)[k]).toBe((realZod[ns] as Record<string, unknown>)[k]);
    expect(zod.locales.en).toBe(realZod.locales.en);
  });

  it('keeps the English messages', () => {
    const r = zod.z.object({ name: zod.z.string().min(2), n: zod.z.number().int() }).safeParse({ name: 'a', n: 'x' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual([
      'Too small: expected string to have >=2 characters',
      'Invalid input: expected number, received string',
    ]);
  });
});
