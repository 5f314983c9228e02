import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { formatLocalDateTime } from '../../lib/local-time';

/**
 * Renders the personal-data export as a PDF (pdf-lib runs inside workerd), stamped with the time it
 * was made (`generatedAt`, ms) in the operator's zone.
 */
export async function renderDataExport(data: Record<string, unknown>, stamp: { generatedAt: number; timezone: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Berth personal data export');
  doc.setProducer('Berth');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([595, 842]);
  let y = 800;
  const line = (text: string, opts: { bold?: boolean; size?: number } = {}) => {
    const size = opts.size ?? 10;
    // Standard fonts are WinAnsi: replace characters they cannot draw.
    const safe = text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
    for (let i = 0; i < safe.length || i === 0; i += 95) {
      if (y < 50) {
        page = doc.addPage([595, 842]);
        y = 800;
      }
      page.drawText(safe.slice(i, i + 95), { x: 40, y, size, font: opts.bold ? bold : font, color: rgb(0.1, 0.1, 0.1) });
      y -= size + 4;
    }
  };
  line('Berth - personal data export', { bold: true, size: 16 });
  line(`Generated ${formatLocalDateTime(stamp.generatedAt, stamp.timezone)}`);
  y -= 8;
  const walk = (label: string, value: unknown, depth = 0) => {
    const pad = '  '.repeat(depth);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      line(`${pad}${label}:`, { bold: depth === 0 });
      for (const [k, v] of Object.entries(value)) walk(k, v, depth + 1);
    } else if (Array.isArray(value)) {
      line(`${pad}${label}: ${value.length === 0 ? '(none)' : ''}`, { bold: depth === 0 });
      value.forEach((v, i) => walk(`#${i + 1}`, v, depth + 1));
    } else {
      line(`${pad}${label}: ${value === null || value === undefined ? '-' : String(value)}`);
    }
  };
  for (const [k, v] of Object.entries(data)) walk(k, v);
  return doc.save();
}
