/**
 * A plain PDF page writer (pdf-lib): US Letter pages with margins, wrapped text that flows onto new
 * pages, rules and signature lines, in the Unicode fonts (call `loadPdfFonts` first). Slip contracts
 * and the daily manifest print with it.
 */
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { unicodeSafe } from './pdf-unicode';

export const PAGE_W = 612;
export const PAGE_H = 792;
export const MARGIN = 54;
export const WIDTH = PAGE_W - 2 * MARGIN;

export function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const para of unicodeSafe(text).split(/\r?\n/)) {
    if (!para.trim()) {
      lines.push('');
      continue;
    }
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > maxWidth) {
        let n = rest.length - 1;
        while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > maxWidth) n--;
        lines.push(rest.slice(0, n));
        rest = rest.slice(n);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/** How a writer spaces its lines: line height (times the font size) and the room a rule needs. */
export interface WriterSpacing {
  lineHeight: number;
  ruleRoom: number;
}

/** A page writer: wrapped text that flows onto new pages. */
export class Writer {
  page: PDFPage;
  y = PAGE_H - MARGIN;
  constructor(
    private readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly spacing: WriterSpacing = { lineHeight: 1.4, ruleRoom: 12 },
  ) {
    this.page = doc.addPage([PAGE_W, PAGE_H]);
  }
  ensure(h: number) {
    if (this.y - h < MARGIN + 20) {
      this.page = this.doc.addPage([PAGE_W, PAGE_H]);
      this.y = PAGE_H - MARGIN;
    }
  }
  /** Wrapped text; `font` and `color` override `bold` and `grey`. */
  text(s: string, o: { bold?: boolean; size?: number; gap?: number; grey?: boolean; indent?: number; font?: PDFFont; color?: [number, number, number] } = {}) {
    const f = o.font ?? (o.bold ? this.bold : this.font);
    const size = o.size ?? 10;
    const lh = size * this.spacing.lineHeight;
    const color = o.color ? rgb(...o.color) : o.grey ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0);
    for (const line of wrap(s, f, size, WIDTH - (o.indent ?? 0))) {
      this.ensure(lh);
      this.y -= lh;
      if (line) this.page.drawText(line, { x: MARGIN + (o.indent ?? 0), y: this.y, size, font: f, color });
    }
    this.y -= o.gap ?? 4;
  }
  rule() {
    this.ensure(this.spacing.ruleRoom);
    this.y -= 4;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: PAGE_W - MARGIN, y: this.y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    this.y -= 8;
  }
  line(width = 260) {
    this.ensure(30);
    this.y -= 28;
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + width, y: this.y }, thickness: 0.7 });
    this.y -= 4;
  }
}
