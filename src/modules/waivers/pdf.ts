import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { embedUnicodeFonts, unicodeSafe } from '../../lib/pdf-unicode';
import { wrap } from '../../lib/pdf-writer';
import { formatLocalDateTime } from '../../lib/local-time';

/** A section as stored on a template (after normalization: every section has an id). */
export type StoredSection =
  | { type: 'text'; id: string; title?: string; content: string }
  | { type: 'checkbox'; id: string; label: string; required: boolean }
  | { type: 'field'; id: string; label: string; fieldType: string; required: boolean; options?: string[]; placeholder?: string }
  | { type: 'signature'; id: string; label: string; required: boolean; signer: string };

export interface SignatureImage {
  field: string;
  mime: 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
  sha256: string;
}

export interface WaiverPdfInput {
  signatureId: string;
  templateId: string;
  title: string;
  description: string | null;
  businessName: string;
  locationName: string;
  sections: StoredSection[];
  /** formData without the images (checkbox and field values, extra keys). */
  values: Record<string, unknown>;
  images: SignatureImage[];
  signer: {
    firstName: string;
    lastName: string;
    dob?: string | null;
    email?: string | null;
    phone?: string | null;
    addressLine?: string | null;
    assignTo?: string | null;
  };
  waiverNumber: string | null;
  transactionId: string | null;
  bookingData: Record<string, unknown> | null;
  signedAt: string;
  /** The location's zone: the signing time is printed in it (UTC when not given). */
  timezone?: string;
  ipAddress: string | null;
  userAgent: string | null;
  contentHash: string;
}

/** Raised when an image cannot be embedded; the caller answers 400. */
export class BadImageError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Text as the embedded Unicode fonts print it (Latin, Greek, Cyrillic; anything else becomes '?'). */
export function pdfSafe(s: string): string {
  return unicodeSafe(s);
}

const display = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  return JSON.stringify(v);
};

export const isTicked = (v: unknown) => v === true || v === 1 || (typeof v === 'string' && ['true', 'on', 'yes', '1', 'checked'].includes(v.toLowerCase()));

const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN = 54;
const WIDTH = PAGE_W - 2 * MARGIN;

/**
 * The signed waiver as a PDF: the template's text, the ticked acknowledgements, the filled
 * fields, the signature images, the signer's details and an audit trail (time, IP address, user
 * agent, SHA-256 of the signed content). The signer's name is also the document author.
 */
export async function buildWaiverPdf(input: WaiverPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fullName = `${input.signer.firstName} ${input.signer.lastName}`;
  const signedAt = new Date(input.signedAt);
  doc.setTitle(pdfSafe(`${input.title} - ${fullName}`));
  doc.setAuthor(pdfSafe(fullName));
  doc.setSubject('Signed waiver');
  doc.setKeywords([input.signatureId, input.templateId, `sha256:${input.contentHash}`]);
  doc.setCreator('Berth');
  doc.setProducer('Berth (pdf-lib)');
  doc.setCreationDate(signedAt);
  doc.setModificationDate(signedAt);

  const { regular: font, bold } = await embedUnicodeFonts(doc);
  const mono = await doc.embedFont(StandardFonts.Courier);

  const embedded = new Map<string, PDFImage>();
  for (const img of input.images) {
    try {
      embedded.set(img.field, img.mime === 'image/png' ? await doc.embedPng(img.bytes) : await doc.embedJpg(img.bytes));
    } catch (err) {
      throw new BadImageError(
        img.field,
        `formData.${img.field} is not a readable ${img.mime === 'image/png' ? 'PNG' : 'JPEG'} image: ${(err as Error).message}`,
      );
    }
  }

  let page: PDFPage = doc.addPage([PAGE_W, PAGE_H]);
  let y = PAGE_H - MARGIN;
  const ensure = (h: number) => {
    if (y - h < MARGIN + 20) {
      page = doc.addPage([PAGE_W, PAGE_H]);
      y = PAGE_H - MARGIN;
    }
  };
  const text = (s: string, opts: { f?: PDFFont; size?: number; indent?: number; gap?: number; color?: [number, number, number] } = {}) => {
    const f = opts.f ?? font;
    const size = opts.size ?? 10;
    const indent = opts.indent ?? 0;
    const lh = size * 1.35;
    for (const line of wrap(s, f, size, WIDTH - indent)) {
      ensure(lh);
      y -= lh;
      if (line) page.drawText(line, { x: MARGIN + indent, y, size, font: f, color: opts.color ? rgb(...opts.color) : rgb(0, 0, 0) });
    }
    y -= opts.gap ?? 4;
  };
  const rule = () => {
    ensure(10);
    y -= 4;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE_W - MARGIN, y }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    y -= 8;
  };

  text(`${input.businessName} - ${input.locationName}`, { size: 9, color: [0.35, 0.35, 0.35] });
  text(input.title, { f: bold, size: 18, gap: 6 });
  if (input.description) text(input.description, { size: 10, gap: 8 });
  rule();

  for (const s of input.sections) {
    if (s.type === 'text') {
      if (s.title) text(s.title, { f: bold, size: 12, gap: 2 });
      text(s.content, { gap: 8 });
    } else if (s.type === 'checkbox') {
      const ticked = isTicked(input.values[s.id]);
      text(`[${ticked ? 'X' : ' '}] ${s.label}`, { f: ticked ? font : font, gap: 6 });
    } else if (s.type === 'field') {
      text(`${s.label}: ${display(input.values[s.id])}`, { gap: 6 });
    } else {
      const img = embedded.get(s.id);
      text(`${s.label}${s.signer === 'guardian' ? ' (parent or guardian)' : ''}`, { f: bold, size: 11, gap: 2 });
      if (img) {
        const scale = Math.min(240 / img.width, 90 / img.height, 1);
        const w = img.width * scale;
        const h = img.height * scale;
        ensure(h + 8);
        y -= h + 4;
        page.drawImage(img, { x: MARGIN, y, width: w, height: h });
        y -= 4;
      } else {
        text('(not signed)', { color: [0.5, 0.5, 0.5] });
      }
      page.drawLine({ start: { x: MARGIN, y }, end: { x: MARGIN + 260, y }, thickness: 0.7 });
      y -= 2;
      text(`Signed electronically by ${fullName} on ${formatLocalDateTime(input.signedAt, input.timezone ?? 'UTC')}`, {
        size: 8,
        gap: 10,
        color: [0.3, 0.3, 0.3],
      });
    }
  }

  const sectionIds = new Set(input.sections.map((s) => s.id));
  const extra = Object.entries(input.values).filter(([k]) => !sectionIds.has(k));
  if (extra.length) {
    rule();
    text('Additional information', { f: bold, size: 12, gap: 2 });
    for (const [k, v] of extra) text(`${k}: ${display(v)}`, { gap: 2 });
  }
  if (input.bookingData && Object.keys(input.bookingData).length) {
    rule();
    text('Booking', { f: bold, size: 12, gap: 2 });
    for (const [k, v] of Object.entries(input.bookingData).slice(0, 40)) text(`${k}: ${display(v)}`, { gap: 2 });
  }

  rule();
  text('Signer', { f: bold, size: 12, gap: 2 });
  text(`Name: ${fullName}`, { gap: 1 });
  text(`Date of birth: ${display(input.signer.dob)}`, { gap: 1 });
  text(`E-mail: ${display(input.signer.email)}`, { gap: 1 });
  text(`Phone: ${display(input.signer.phone)}`, { gap: 1 });
  text(`Address: ${display(input.signer.addressLine)}`, { gap: 1 });
  if (input.signer.assignTo) text(`Assigned to: ${input.signer.assignTo}`, { gap: 1 });
  if (input.waiverNumber) text(`Waiver number: ${input.waiverNumber}`, { gap: 1 });
  if (input.transactionId) text(`Transaction: ${input.transactionId}`, { gap: 1 });

  rule();
  text('Signature record', { f: bold, size: 12, gap: 2 });
  text(`Signed at: ${formatLocalDateTime(input.signedAt, input.timezone ?? 'UTC')}`, { gap: 1 });
  text(`IP address: ${display(input.ipAddress)}`, { gap: 1 });
  text(`User agent: ${display(input.userAgent)}`, { gap: 1 });
  text(`Signature id: ${input.signatureId}`, { gap: 1 });
  text(`Template id: ${input.templateId}`, { gap: 1 });
  text('SHA-256 of the signed content:', { gap: 1 });
  text(input.contentHash, { f: mono, size: 9, gap: 1 });

  const pages = doc.getPages();
  pages.forEach((p, i) => {
    p.drawText(pdfSafe(`${input.signatureId} - page ${i + 1} of ${pages.length}`), { x: MARGIN, y: MARGIN - 24, size: 7, font, color: rgb(0.45, 0.45, 0.45) });
  });
  return doc.save();
}
