/**
 * The font files of the PDFs live outside the Worker script (README "Production bundle"): Workers
 * Static Assets serve them from `public/_pdf/` through the ASSETS binding, and `run_worker_first`
 * in wrangler.toml keeps that path private (a request for it reaches the Worker, which answers 404
 * as before). They are deployed with the script, so a version always has its own fonts.
 *
 * - `DejaVuSans.ttf`, `DejaVuSans-Bold.ttf`: the subset Unicode fonts of pdf-unicode.ts (their
 *   metrics stay in pdf-fonts-data.ts, so measuring text needs no file);
 * - `standard-fonts.json`: the metrics of the 14 standard PDF fonts, as @pdf-lib/standard-fonts
 *   ships them (pdf-standard-fonts.ts).
 *
 * `scripts/build-pdf-fonts.py` writes them. Every code path that builds or edits a PDF awaits
 * `loadPdfFonts(ctx.env.ASSETS)` first; the files are read once per isolate. Only finished data is
 * shared between requests (never a pending promise: a request must not wait on another one's I/O).
 */
import { installStandardFonts, standardFontsInstalled } from './pdf-standard-fonts';

export const UNICODE_FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'] as const;
export type UnicodeFontFile = (typeof UNICODE_FONT_FILES)[number];

/** Precomputed metrics of one subset font (pdf-fonts-data.ts, generated) that pdf-unicode.ts builds a pdf-lib font from. */
export interface PdfFontData {
  postscriptName: string;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  xHeight: number;
  bbox: number[];
  italicAngle: number;
  isFixedPitch: boolean;
  familyClass: number;
  italic: boolean;
  /** Flat pairs: code point, glyph id, code point, glyph id, ... */
  cmap: number[];
  /** Advance width of each glyph id, in font units. */
  widths: number[];
  /** The subset TrueType font: a file of public/_pdf/ (static assets, pdf-fonts.ts). */
  file: UnicodeFontFile;
}

let unicodeFonts: Map<string, Uint8Array> | undefined;

async function read(assets: Fetcher, file: string): Promise<Response> {
  const res = await assets.fetch(`https://assets.local/_pdf/${file}`);
  if (!res.ok) throw new Error(`The PDF font file public/_pdf/${file} is not in the static assets (${res.status})`);
  return res;
}

/** Reads the font files from the static assets unless this isolate has them already. */
export async function loadPdfFonts(assets: Fetcher): Promise<void> {
  if (unicodeFonts && standardFontsInstalled()) return;
  const [standard, ...ttf] = await Promise.all([
    read(assets, 'standard-fonts.json').then((r) => r.json<Record<string, string>>()),
    ...UNICODE_FONT_FILES.map((f) => read(assets, f).then(async (r) => new Uint8Array(await r.arrayBuffer()))),
  ]);
  if (!standardFontsInstalled()) installStandardFonts(standard);
  unicodeFonts ??= new Map(UNICODE_FONT_FILES.map((f, i) => [f, ttf[i]]));
}

/** The bytes of a Unicode font file (`loadPdfFonts` first). The same array on every call: pdf-unicode.ts maps it back to its metrics. */
export function unicodeFontBytes(file: UnicodeFontFile): Uint8Array {
  const bytes = unicodeFonts?.get(file);
  if (!bytes) throw new Error('The PDF fonts are not loaded: await loadPdfFonts(ctx.env.ASSETS) (src/lib/pdf-fonts.ts) before building a PDF');
  return bytes;
}
