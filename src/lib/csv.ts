/**
 * CSV as exports write it (RFC 4180: CRLF line ends, quoted when needed), safe to open in a
 * spreadsheet: cells that a spreadsheet would run as a formula get an apostrophe (CSV injection),
 * while phone numbers and signed numbers are left alone.
 */
import Papa from 'papaparse';

type Cell = string | number | boolean | null | undefined;

const CSV_FORMULA = /^(?:[=@\t\r]|[+-](?![0-9 ().-]*$))/;

/** The rows under their header line (`header: false`: the rows alone, for a stream's later chunks), each line ending in CRLF. */
export function csv(fields: readonly string[], data: Cell[][], opts: { header?: boolean } = {}): string {
  const rows = data.map((r) => r.map((v) => (v === null || v === undefined ? '' : v)));
  if (!rows.length && opts.header === false) return '';
  return Papa.unparse({ fields: [...fields], data: rows }, { header: opts.header ?? true, newline: '\r\n', escapeFormulae: CSV_FORMULA }) + '\r\n';
}
