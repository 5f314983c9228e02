import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage } from 'pdf-lib';
import { embedUnicodeFonts, unicodeSafe } from '../../lib/pdf-unicode';
import { MARGIN, Writer } from '../../lib/pdf-writer';
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

/** The waiver's own spacing (denser than contracts and manifests). */
const WAIVER_SPACING = { lineHeight: 1.35, ruleRoom: 10 };

/**
 * The signed waiver as a PDF: the template's text, the ticked acknowledgements, the filled
 * fields, the signature images, the signer's details and an audit trail (time, IP address, user
 * agent, SHA-256 of the signed content). The signer's name is also the document author.
 */
export async function buildWaiverPdf(input: WaiverPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fullName = `${input.signer.firstName} ${input.signer.lastName}`;
  setMetadata(doc, input, fullName);
  const { regular: font, bold } = await embedUnicodeFonts(doc);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const images = await embedImages(doc, input.images);
  const w = new Writer(doc, font, bold, WAIVER_SPACING);
  w.text(`${input.businessName} - ${input.locationName}`, { size: 9, grey: true });
  w.text(input.title, { bold: true, size: 18, gap: 6 });
  if (input.description) w.text(input.description, { size: 10, gap: 8 });
  w.rule();
  for (const s of input.sections) writeSection(w, s, input, images, fullName);
  writeExtras(w, input);
  writeSigner(w, input, fullName);
  writeSignatureRecord(w, input, mono);
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    p.drawText(pdfSafe(`${input.signatureId} - page ${i + 1} of ${pages.length}`), { x: MARGIN, y: MARGIN - 24, size: 7, font, color: rgb(0.45, 0.45, 0.45) });
  });
  return doc.save();
}

function setMetadata(doc: PDFDocument, input: WaiverPdfInput, fullName: string) {
  const signedAt = new Date(input.signedAt);
  doc.setTitle(pdfSafe(`${input.title} - ${fullName}`));
  doc.setAuthor(pdfSafe(fullName));
  doc.setSubject('Signed waiver');
  doc.setKeywords([input.signatureId, input.templateId, `sha256:${input.contentHash}`]);
  doc.setCreator('Berth');
  doc.setProducer('Berth (pdf-lib)');
  doc.setCreationDate(signedAt);
  doc.setModificationDate(signedAt);
}

/** The signature images by field; an unreadable one is a `BadImageError` of its field. */
async function embedImages(doc: PDFDocument, images: WaiverPdfInput['images']): Promise<Map<string, PDFImage>> {
  const embedded = new Map<string, PDFImage>();
  for (const img of images) {
    try {
      embedded.set(img.field, img.mime === 'image/png' ? await doc.embedPng(img.bytes) : await doc.embedJpg(img.bytes));
    } catch (err) {
      throw new BadImageError(
        img.field,
        `formData.${img.field} is not a readable ${img.mime === 'image/png' ? 'PNG' : 'JPEG'} image: ${(err as Error).message}`,
      );
    }
  }
  return embedded;
}

function writeSection(w: Writer, s: StoredSection, input: WaiverPdfInput, images: Map<string, PDFImage>, fullName: string) {
  if (s.type === 'text') {
    if (s.title) w.text(s.title, { bold: true, size: 12, gap: 2 });
    w.text(s.content, { gap: 8 });
  } else if (s.type === 'checkbox') {
    w.text(`[${isTicked(input.values[s.id]) ? 'X' : ' '}] ${s.label}`, { gap: 6 });
  } else if (s.type === 'field') {
    w.text(`${s.label}: ${display(input.values[s.id])}`, { gap: 6 });
  } else {
    writeSignature(w, s, images.get(s.id), input, fullName);
  }
}

/** A signature section: its label, the image (or "not signed"), the line and who signed when. */
function writeSignature(w: Writer, s: Extract<StoredSection, { type: 'signature' }>, img: PDFImage | undefined, input: WaiverPdfInput, fullName: string) {
  w.text(`${s.label}${s.signer === 'guardian' ? ' (parent or guardian)' : ''}`, { bold: true, size: 11, gap: 2 });
  if (img) {
    const scale = Math.min(240 / img.width, 90 / img.height, 1);
    const h = img.height * scale;
    w.ensure(h + 8);
    w.y -= h + 4;
    w.page.drawImage(img, { x: MARGIN, y: w.y, width: img.width * scale, height: h });
    w.y -= 4;
  } else {
    w.text('(not signed)', { color: [0.5, 0.5, 0.5] });
  }
  w.page.drawLine({ start: { x: MARGIN, y: w.y }, end: { x: MARGIN + 260, y: w.y }, thickness: 0.7 });
  w.y -= 2;
  w.text(`Signed electronically by ${fullName} on ${formatLocalDateTime(input.signedAt, input.timezone ?? 'UTC')}`, {
    size: 8,
    gap: 10,
    color: [0.3, 0.3, 0.3],
  });
}

/** Values of no section, and the booking's data. */
function writeExtras(w: Writer, input: WaiverPdfInput) {
  const sectionIds = new Set(input.sections.map((s) => s.id));
  const extra = Object.entries(input.values).filter(([k]) => !sectionIds.has(k));
  if (extra.length) {
    w.rule();
    w.text('Additional information', { bold: true, size: 12, gap: 2 });
    for (const [k, v] of extra) w.text(`${k}: ${display(v)}`, { gap: 2 });
  }
  if (input.bookingData && Object.keys(input.bookingData).length) {
    w.rule();
    w.text('Booking', { bold: true, size: 12, gap: 2 });
    for (const [k, v] of Object.entries(input.bookingData).slice(0, 40)) w.text(`${k}: ${display(v)}`, { gap: 2 });
  }
}

function writeSigner(w: Writer, input: WaiverPdfInput, fullName: string) {
  w.rule();
  w.text('Signer', { bold: true, size: 12, gap: 2 });
  w.text(`Name: ${fullName}`, { gap: 1 });
  w.text(`Date of birth: ${display(input.signer.dob)}`, { gap: 1 });
  w.text(`E-mail: ${display(input.signer.email)}`, { gap: 1 });
  w.text(`Phone: ${display(input.signer.phone)}`, { gap: 1 });
  w.text(`Address: ${display(input.signer.addressLine)}`, { gap: 1 });
  if (input.signer.assignTo) w.text(`Assigned to: ${input.signer.assignTo}`, { gap: 1 });
  if (input.waiverNumber) w.text(`Waiver number: ${input.waiverNumber}`, { gap: 1 });
  if (input.transactionId) w.text(`Transaction: ${input.transactionId}`, { gap: 1 });
}

/** The audit trail: when, from where, with what, and the hash of the signed content. */
function writeSignatureRecord(w: Writer, input: WaiverPdfInput, mono: PDFFont) {
  w.rule();
  w.text('Signature record', { bold: true, size: 12, gap: 2 });
  w.text(`Signed at: ${formatLocalDateTime(input.signedAt, input.timezone ?? 'UTC')}`, { gap: 1 });
  w.text(`IP address: ${display(input.ipAddress)}`, { gap: 1 });
  w.text(`User agent: ${display(input.userAgent)}`, { gap: 1 });
  w.text(`Signature id: ${input.signatureId}`, { gap: 1 });
  w.text(`Template id: ${input.templateId}`, { gap: 1 });
  w.text('SHA-256 of the signed content:', { gap: 1 });
  w.text(input.contentHash, { font: mono, size: 9, gap: 1 });
}
