import { PDFDocument, rgb, type PDFFont } from 'pdf-lib';
import { embedUnicodeFonts, unicodeSafe } from '../../lib/pdf-unicode';
import { MARGIN, Writer } from '../../lib/pdf-writer';
import { formatLocalDateTime } from '../../lib/local-time';

export interface ContractPdfInput {
  contractId: string;
  title: string;
  body: string;
  header: string;
  details: [string, string][];
  signerName: string;
  createdAt: string;
}

/** The contract to sign: header, title, the rendered template, the reservation details and signature lines. */
export async function buildContractPdf(input: ContractPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const at = new Date(input.createdAt);
  doc.setTitle(unicodeSafe(input.title));
  doc.setAuthor(unicodeSafe(input.header));
  doc.setSubject(unicodeSafe(`Slip contract for ${input.signerName}`));
  doc.setKeywords([input.contractId]);
  doc.setCreator('Berth');
  doc.setProducer('Berth (pdf-lib)');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  const { regular, bold } = await embedUnicodeFonts(doc);
  const w = new Writer(doc, regular, bold);
  w.text(input.header, { size: 9, grey: true });
  w.text(input.title, { bold: true, size: 18, gap: 8 });
  w.rule();
  w.text(input.body, { gap: 10 });
  w.rule();
  w.text('Reservation', { bold: true, size: 12, gap: 2 });
  for (const [k, v] of input.details) w.text(`${k}: ${v}`, { gap: 1 });
  w.rule();
  w.text('Signature', { bold: true, size: 12, gap: 2 });
  w.line();
  w.text(`${input.signerName}`, { gap: 1 });
  w.text('Date', { size: 8, grey: true });
  finishPages(doc, regular, input.contractId);
  return doc.save();
}

function finishPages(doc: PDFDocument, font: PDFFont, id: string) {
  const pages = doc.getPages();
  pages.forEach((p, i) => p.drawText(`${id} - page ${i + 1} of ${pages.length}`, { x: MARGIN, y: MARGIN - 24, size: 7, font, color: rgb(0.45, 0.45, 0.45) }));
}

export interface SignatureRecord {
  /** The location's time zone: the signature time is printed in it. */
  timezone: string;
  signerName: string;
  signerEmail: string | null;
  signedAt: string;
  ip: string | null;
  userAgent: string | null;
  documentSha256: string;
  signature: { type: 'typed'; text: string } | { type: 'drawn'; mime: 'image/png' | 'image/jpeg'; bytes: Uint8Array };
}

/** The signed contract: the original pages followed by a signature page (signature, signer, time, IP, user agent, SHA-256 of the signed document). */
export async function buildSignedPdf(original: Uint8Array, contractId: string, rec: SignatureRecord): Promise<Uint8Array> {
  const doc = await PDFDocument.load(original);
  const { regular, bold } = await embedUnicodeFonts(doc);
  doc.setModificationDate(new Date(rec.signedAt));
  const w = new Writer(doc, regular, bold);
  w.text('Signature record', { bold: true, size: 16, gap: 8 });
  if (rec.signature.type === 'drawn') {
    const img = rec.signature.mime === 'image/png' ? await doc.embedPng(rec.signature.bytes) : await doc.embedJpg(rec.signature.bytes);
    const scale = Math.min(260 / img.width, 90 / img.height, 1);
    w.ensure(img.height * scale + 10);
    w.y -= img.height * scale + 4;
    w.page.drawImage(img, { x: MARGIN, y: w.y, width: img.width * scale, height: img.height * scale });
    w.y -= 4;
  } else {
    w.text(rec.signature.text, { bold: true, size: 20, gap: 2 });
  }
  w.page.drawLine({ start: { x: MARGIN, y: w.y }, end: { x: MARGIN + 260, y: w.y }, thickness: 0.7 });
  w.y -= 6;
  w.text(`Signed electronically by ${rec.signerName}`, { gap: 10 });
  w.text(`Signer: ${rec.signerName}`, { gap: 1 });
  w.text(`E-mail: ${rec.signerEmail ?? '-'}`, { gap: 1 });
  w.text(`Signed at: ${formatLocalDateTime(rec.signedAt, rec.timezone)}`, { gap: 1 });
  w.text(`IP address: ${rec.ip ?? '-'}`, { gap: 1 });
  w.text(`User agent: ${rec.userAgent ?? '-'}`, { gap: 1 });
  w.text(`Contract: ${contractId}`, { gap: 1 });
  w.text('SHA-256 of the signed document (the pages before this one):', { gap: 1 });
  w.text(rec.documentSha256, { size: 9, gap: 1 });
  const pages = doc.getPages();
  pages
    .slice(-1)
    .forEach((p) => p.drawText(`${contractId} - signature page`, { x: MARGIN, y: MARGIN - 24, size: 7, font: regular, color: rgb(0.45, 0.45, 0.45) }));
  return doc.save();
}
