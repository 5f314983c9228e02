/**
 * The manifest as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they hold commas,
 * quotes or line breaks; formula-looking cells prefixed with `'`) and as a printable PDF (US Letter,
 * one block per booking, page numbers).
 */
import type { z } from '@hono/zod-openapi';
import { csv } from '../../lib/csv';
import { PDFDocument, rgb } from 'pdf-lib';
import { formatLocalDateTime, formatLocalDay } from '../../lib/local-time';
import { formatMoney } from '../../lib/money';
import { wallTimeToUtc } from '../../lib/time';
import { embedUnicodeFonts, unicodeSafe } from '../../lib/pdf-unicode';
import { MARGIN, Writer } from '../../lib/pdf-writer';
import type { Manifest, ManifestBooking } from './schemas';

type M = z.output<typeof Manifest>;
type B = z.output<typeof ManifestBooking>;

const CHECK_IN: Record<B['checkIn']['state'], string> = {
  not_checked_in: 'not checked in',
  checked_in: 'checked in',
  checked_out: 'checked out',
  no_show: 'no-show',
};

const staffText = (b: B) => b.staff.map((s) => (s.role ? `${s.displayName} (${s.role})` : s.displayName)).join(', ');
const peopleText = (b: B) => b.participants.map((p) => `${p.name} (${p.waiver === 'signed' ? 'waiver signed' : 'waiver missing'})`).join('; ');

export const CSV_FIELDS = [
  'date',
  'start',
  'end',
  'item',
  'status',
  'renter',
  'email',
  'phone',
  'people',
  'participants',
  'waiversSigned',
  'waiversMissing',
  'checkIn',
  'staff',
  'balanceDueCents',
  'balanceDue',
  'rentalId',
] as const;

export function manifestCsv(m: M): string {
  const data = m.bookings.map((b) => [
    m.date,
    b.localStart,
    b.localEnd,
    b.item.name,
    b.status,
    b.renter.name,
    b.renter.email ?? '',
    b.renter.phone ?? '',
    b.people,
    peopleText(b),
    b.waivers.signed,
    b.waivers.missing,
    CHECK_IN[b.checkIn.state],
    staffText(b),
    b.balanceDueCents,
    b.balanceDue,
    b.rentalId,
  ]);
  return csv(CSV_FIELDS, data);
}

/** The printable manifest (fonts loaded by the caller: `loadPdfFonts`). */
export async function manifestPdf(m: M): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const at = new Date(m.generatedAt);
  const day = formatLocalDay(wallTimeToUtc(m.date, '12:00', m.timezone), m.timezone);
  doc.setTitle(unicodeSafe(`Manifest ${m.locationName} ${m.date}`));
  doc.setCreator('Berth');
  doc.setProducer('Berth (pdf-lib)');
  doc.setCreationDate(at);
  doc.setModificationDate(at);
  const { regular, bold } = await embedUnicodeFonts(doc);
  const w = new Writer(doc, regular, bold);
  const currency = m.bookings[0]?.currency ?? 'usd';
  w.text(`Daily manifest · ${m.locationName}`, { bold: true, size: 18, gap: 2 });
  w.text(`${day} (${m.timezone})`, { size: 11, gap: 2 });
  w.text(
    `${m.totals.bookings} booking(s) · ${m.totals.people} people · ${m.totals.waiversMissing} waiver(s) missing · balance due ${formatMoney(m.totals.balanceDueCents, currency)}`,
    { size: 9, grey: true, gap: 6 },
  );
  w.rule();
  if (!m.bookings.length) w.text('No bookings on this day.', { gap: 4 });
  for (const b of m.bookings) {
    w.text(`${b.localStart}–${b.localEnd}   ${b.item.name}   (${b.status.replace('_', '-')})`, { bold: true, size: 11, gap: 2 });
    w.text(`Renter: ${[b.renter.name, b.renter.phone, b.renter.email].filter(Boolean).join(' · ')}`, { gap: 1 });
    w.text(`People: ${b.people} · Waivers: ${b.waivers.signed} signed, ${b.waivers.missing} missing · Check-in: ${CHECK_IN[b.checkIn.state]}`, { gap: 1 });
    if (b.participants.length) w.text(`Participants: ${peopleText(b)}`, { gap: 1, indent: 0 });
    w.text(`Staff: ${staffText(b) || 'none assigned'}`, { gap: 1 });
    w.text(`Balance due: ${b.balanceDue}`, { bold: b.balanceDueCents > 0, gap: 1 });
    w.text(b.rentalId, { size: 7, grey: true, gap: 2 });
    w.rule();
  }
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(unicodeSafe(`Manifest ${m.date} · generated ${formatLocalDateTime(m.generatedAt, m.timezone)} · page ${i + 1} of ${pages.length}`), {
      x: MARGIN,
      y: MARGIN - 24,
      size: 7,
      font: regular,
      color: rgb(0.45, 0.45, 0.45),
    }),
  );
  return doc.save();
}
