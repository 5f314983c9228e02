// What keeps the Worker script small (README "Production bundle"): the bundle aliases of wrangler.toml
// put modules in place of a package's own that export the same API and answer the same (the tests run
// them too), and the PDF font files are static assets that only the Worker can read.
import { SELF, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { Font, FontNames } from '@pdf-lib/standard-fonts';
import * as realStandardFonts from '../../node_modules/@pdf-lib/standard-fonts/es/index.js';
import * as ourStandardFonts from '../../src/lib/pdf-standard-fonts';
import { loadPdfFonts, unicodeFontBytes } from '../../src/lib/pdf-fonts';
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

describe('PDF font files in the static assets (src/lib/pdf-fonts.ts)', () => {
  it("@pdf-lib/standard-fonts is src/lib/pdf-standard-fonts here, and its metrics are the package's own", async () => {
    expect(Font).toBe(ourStandardFonts.Font);
    expect(Object.values(FontNames)).toEqual(Object.values(realStandardFonts.FontNames));
    expect(ourStandardFonts.Encodings).toBe(realStandardFonts.Encodings);
    await loadPdfFonts(env.ASSETS);
    for (const name of Object.values(FontNames)) {
      const ours = Font.load(name);
      const theirs = realStandardFonts.Font.load(name);
      expect({ ...ours }, name).toEqual({ ...theirs, getWidthOfGlyph: expect.any(Function), getXAxisKerningForPair: expect.any(Function) });
      expect(ours.getWidthOfGlyph('A')).toBe(theirs.getWidthOfGlyph('A'));
      expect(ours.getXAxisKerningForPair('A', 'V')).toBe(theirs.getXAxisKerningForPair('A', 'V'));
    }
  });

  it('serves the Unicode fonts to the Worker and to nobody else', async () => {
    await loadPdfFonts(env.ASSETS);
    const ttf = unicodeFontBytes('DejaVuSans.ttf');
    expect([...ttf.slice(0, 4)]).toEqual([0, 1, 0, 0]);
    expect(unicodeFontBytes('DejaVuSans-Bold.ttf').length).toBeGreaterThan(40_000);
    for (const file of ['DejaVuSans.ttf', 'standard-fonts.json']) {
      const res = await SELF.fetch(`https://berth.test/_pdf/${file}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('route_not_found');
    }
  });
});
