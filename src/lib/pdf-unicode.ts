/**
 * Unicode text in PDFs built with pdf-lib, without the 700 KB font engine (@pdf-lib/fontkit).
 *
 * The standard PDF fonts encode WinAnsi only, so names such as "Łukasz Żółć", "Ζωή" or "Дмитрий"
 * printed as "?". This module embeds DejaVu Sans (regular and bold), subset at build time to
 * Latin, Greek and Cyrillic (`scripts/build-pdf-fonts.py` writes the font files to `public/_pdf/`,
 * which pdf-fonts.ts reads from the static assets, and the metrics pdf-lib needs to
 * `pdf-fonts-data.ts`), as Type0 fonts with Identity-H encoding and a ToUnicode map, so text is
 * printed, searchable and copyable. pdf-lib's own CustomFontEmbedder does the embedding; this module
 * gives it a minimal font object built from the precomputed metrics instead of a parsed font (one
 * glyph per code point: no ligatures or kerning, which contracts do not need).
 * Characters outside the subset print as "?".
 */
import { PDFDocument, type PDFFont } from 'pdf-lib';
import { unicodeFontBytes, type PdfFontData } from './pdf-fonts';
import { DEJAVU_SANS_BOLD, DEJAVU_SANS_REGULAR } from './pdf-fonts-data';

interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}

/** The part of a fontkit font that pdf-lib's CustomFontEmbedder reads. */
class PrecomputedFont {
  readonly characterSet: number[];
  readonly unitsPerEm: number;
  readonly postscriptName: string;
  readonly ascent: number;
  readonly descent: number;
  readonly capHeight: number;
  readonly xHeight: number;
  readonly italicAngle: number;
  readonly bbox: { minX: number; minY: number; maxX: number; maxY: number };
  readonly cff = false;
  readonly 'OS/2': { sFamilyClass: number };
  readonly post: { isFixedPitch: boolean };
  readonly head: { macStyle: { italic: boolean } };
  private readonly glyphs = new Map<number, Glyph>();
  private readonly fallback: Glyph;

  constructor(d: PdfFontData) {
    for (let i = 0; i < d.cmap.length; i += 2) {
      const cp = d.cmap[i];
      const id = d.cmap[i + 1];
      this.glyphs.set(cp, { id, advanceWidth: d.widths[id] ?? 0, codePoints: [cp] });
    }
    this.characterSet = [...this.glyphs.keys()];
    this.unitsPerEm = d.unitsPerEm;
    this.postscriptName = d.postscriptName;
    this.ascent = d.ascent;
    this.descent = d.descent;
    this.capHeight = d.capHeight;
    this.xHeight = d.xHeight;
    this.italicAngle = d.italicAngle;
    this.bbox = { minX: d.bbox[0], minY: d.bbox[1], maxX: d.bbox[2], maxY: d.bbox[3] };
    this['OS/2'] = { sFamilyClass: d.familyClass };
    this.post = { isFixedPitch: d.isFixedPitch };
    this.head = { macStyle: { italic: d.italic } };
    this.fallback = this.glyphs.get(0x3f)!;
  }

  has(cp: number): boolean {
    return this.glyphs.has(cp);
  }

  glyphForCodePoint(cp: number): Glyph {
    return this.glyphs.get(cp) ?? this.fallback;
  }

  layout(text: string): { glyphs: Glyph[] } {
    const out: Glyph[] = [];
    for (const ch of text) out.push(this.glyphForCodePoint(ch.codePointAt(0)!));
    return { glyphs: out };
  }
}

const cache = new Map<PdfFontData, { font: PrecomputedFont }>();
function load(d: PdfFontData) {
  let c = cache.get(d);
  if (!c) {
    c = { font: new PrecomputedFont(d) };
    cache.set(d, c);
  }
  return c;
}

const REPLACE: Record<string, string> = { '\t': '    ', '\u00A0': ' ' };

/** Text as the embedded fonts can print it: NFC-normalized, tabs expanded, characters outside the subset replaced with "?". */
export function unicodeSafe(s: string): string {
  const font = load(DEJAVU_SANS_REGULAR).font;
  let out = '';
  for (const ch of s.normalize('NFC')) {
    const r = REPLACE[ch];
    if (r !== undefined) out += r;
    else if (ch === '\n' || ch === '\r') out += ch;
    else {
      const cp = ch.codePointAt(0)!;
      out += cp >= 0x20 && font.has(cp) ? ch : '?';
    }
  }
  return out;
}

/**
 * Embeds DejaVu Sans regular and bold into a document (the whole subset, about 48 KB each; after
 * `loadPdfFonts`). Draw text that went through `unicodeSafe` with them.
 */
export async function embedUnicodeFonts(doc: PDFDocument): Promise<{ regular: PDFFont; bold: PDFFont }> {
  const regular = load(DEJAVU_SANS_REGULAR);
  const bold = load(DEJAVU_SANS_BOLD);
  const regularBytes = unicodeFontBytes(DEJAVU_SANS_REGULAR.file);
  const boldBytes = unicodeFontBytes(DEJAVU_SANS_BOLD.file);
  const fonts = new Map<Uint8Array, PrecomputedFont>([
    [regularBytes, regular.font],
    [boldBytes, bold.font],
  ]);
  doc.registerFontkit({ create: (bytes: Uint8Array) => fonts.get(bytes)! } as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  return {
    regular: await doc.embedFont(regularBytes, { subset: false }),
    bold: await doc.embedFont(boldBytes, { subset: false }),
  };
}

/** The hex string pdf-lib writes into a content stream for `text` in the embedded regular font (tests look for it). */
export function glyphHexOf(text: string, weight: 'regular' | 'bold' = 'regular'): string {
  const font = load(weight === 'bold' ? DEJAVU_SANS_BOLD : DEJAVU_SANS_REGULAR).font;
  return font
    .layout(unicodeSafe(text))
    .glyphs.map((g) => g.id.toString(16).toUpperCase().padStart(4, '0'))
    .join('');
}

/** The text of a hex string drawn with an embedded font (the reverse of `glyphHexOf`; tests read PDFs back with it). */
export function textOfGlyphHex(hex: string, weight: 'regular' | 'bold' = 'regular'): string {
  const d = weight === 'bold' ? DEJAVU_SANS_BOLD : DEJAVU_SANS_REGULAR;
  const byGlyph = new Map<number, number>();
  for (let i = 0; i < d.cmap.length; i += 2) if (!byGlyph.has(d.cmap[i + 1])) byGlyph.set(d.cmap[i + 1], d.cmap[i]);
  let out = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) out += String.fromCodePoint(byGlyph.get(parseInt(hex.slice(i, i + 4), 16)) ?? 0xfffd);
  return out;
}
