/** E.164 normalization of phone numbers as people type them (North American default for 10-digit numbers). */
export function toE164(raw: string | null | undefined, defaultCountry = '1'): string | null {
  if (!raw) return null;
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  if (trimmed.startsWith('+')) return `+${digits}`;
  if (trimmed.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.length === 10 && defaultCountry === '1') return `+1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`;
  return `+${defaultCountry}${digits.replace(/^0+/, '')}`;
}

/** SQL expression: the digits of a phone column (spaces, dashes, dots, brackets and + removed). */
export const DIGITS_SQL = (col: string) => `replace(replace(replace(replace(replace(replace(${col}, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', '')`;
