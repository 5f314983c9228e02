/**
 * What `@pdf-lib/standard-fonts` resolves to when the Worker is bundled (`[alias]` in wrangler.toml):
 * that package's API (`Font`, `FontNames`, `Encodings`; pdf-lib imports nothing else from it) with the
 * metrics of the 14 standard PDF fonts read from the static assets instead of from the script (they
 * are 127 KiB of base64 that gzip cannot shrink). `public/_pdf/standard-fonts.json` holds the
 * package's own compressed data, font by font, and `Font.load` below is the package's, so pdf-lib
 * measures and encodes text exactly as before. pdf-lib calls `Font.load` synchronously (inside
 * `embedFont(StandardFonts.X)` and when a page draws text without a font), so `loadPdfFonts`
 * (pdf-fonts.ts) installs the data before any PDF is built. Types still come from the real package.
 *
 * Font.load and FontNames: @pdf-lib/standard-fonts 1.0.0 (MIT, Andrew Dillon), src/Font.ts.
 */
import { decompressJson } from '../../node_modules/@pdf-lib/standard-fonts/es/utils.js';

export * from '../../node_modules/@pdf-lib/standard-fonts/es/Encoding.js';

export enum FontNames {
  Courier = 'Courier',
  CourierBold = 'Courier-Bold',
  CourierOblique = 'Courier-Oblique',
  CourierBoldOblique = 'Courier-BoldOblique',
  Helvetica = 'Helvetica',
  HelveticaBold = 'Helvetica-Bold',
  HelveticaOblique = 'Helvetica-Oblique',
  HelveticaBoldOblique = 'Helvetica-BoldOblique',
  TimesRoman = 'Times-Roman',
  TimesRomanBold = 'Times-Bold',
  TimesRomanItalic = 'Times-Italic',
  TimesRomanBoldItalic = 'Times-BoldItalic',
  Symbol = 'Symbol',
  ZapfDingbats = 'ZapfDingbats',
}

/** Font name -> the package's compressed metrics (base64 of deflated JSON), once `loadPdfFonts` installed them. */
let compressed: Record<string, string> | undefined;

/** Installs the contents of public/_pdf/standard-fonts.json (pdf-fonts.ts). */
export function installStandardFonts(data: Record<string, string>): void {
  for (const name of Object.values(FontNames)) if (typeof data[name] !== 'string') throw new Error(`standard-fonts.json has no metrics for ${name}`);
  compressed = data;
}

export const standardFontsInstalled = (): boolean => compressed !== undefined;

type CharMetrics = { WX: number; N: string };
type KernPair = [string, string, number];

const fontCache: Record<string, Font> = {};

export class Font {
  declare CharMetrics: CharMetrics[];
  declare KernPairs: KernPair[];
  declare private CharWidths: Record<string, number>;
  declare private KernPairXAmounts: Record<string, Record<string, number>>;

  static load = (fontName: string): Font => {
    const cached = fontCache[fontName];
    if (cached) return cached;
    if (!compressed) throw new Error('The standard PDF font metrics are not loaded: await loadPdfFonts(ctx.env.ASSETS) (lib/pdf-fonts.ts) first');
    const json = decompressJson(compressed[fontName]);
    const font = Object.assign(new Font(), JSON.parse(json) as Partial<Font>);
    font.CharWidths = font.CharMetrics.reduce<Record<string, number>>((acc, metric) => {
      acc[metric.N] = metric.WX;
      return acc;
    }, {});
    font.KernPairXAmounts = font.KernPairs.reduce<Record<string, Record<string, number>>>((acc, [name1, name2, width]) => {
      if (!acc[name1]) acc[name1] = {};
      acc[name1][name2] = width;
      return acc;
    }, {});
    fontCache[fontName] = font;
    return font;
  };

  getWidthOfGlyph = (glyphName: string): number | void => this.CharWidths[glyphName];

  getXAxisKerningForPair = (leftGlyphName: string, rightGlyphName: string): number | void => (this.KernPairXAmounts[leftGlyphName] || {})[rightGlyphName];
}
