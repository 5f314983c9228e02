/** Money is integer cents inside Berth; the API speaks dollars or cents exactly where the spec says. */
export const toCents = (dollars: number) => Math.round(dollars * 100);
export const toDollars = (cents: number) => Math.round(cents) / 100;
/** Percentage of an amount in cents, rounded half away from zero (a credit's percentage rounds like the charge it mirrors). */
export const percentOf = (cents: number, percent: number) => Math.sign(cents) * Math.round((Math.abs(cents) * percent) / 100);

/** Cents as renters read them, in a currency ("$95.00", "€45.00"; a three-letter code without a symbol as "XYZ 45.00", anything else as "45.00 DOLLARS"). */
export function formatMoney(cents: number, currency: string): string {
  const f = currencyFormat(currency);
  return f ? f.format(cents / 100) : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

/**
 * One formatter per currency per isolate: building an Intl.NumberFormat costs far more than using
 * one, and a sale's e-mail formats a dozen amounts (a profile under 16 booking clients put 2.5% of
 * the Worker's samples in formatMoney). null for a code Intl does not know.
 */
const formats = new Map<string, Intl.NumberFormat | null>();
function currencyFormat(currency: string): Intl.NumberFormat | null {
  const code = currency.toUpperCase();
  let f = formats.get(code);
  if (f === undefined) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    } catch {
      f = null;
    }
    formats.set(code, f);
  }
  return f;
}

/** A unit rate in cents as renters read it: like formatMoney, but a fraction of a cent is kept (32.5 cents: "$0.325"). */
export function formatRate(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(
      cents / 100,
    );
  } catch {
    return `${String(Math.round(cents * 100) / 10_000)} ${currency.toUpperCase()}`;
  }
}

/**
 * `amount` (cents, at most the weights' sum) shared by weight in whole cents: each share is the
 * rounded running total less the one before, so the shares add up to `amount` exactly, none is
 * negative and none exceeds its weight.
 */
export function shareByWeight(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  let running = 0;
  let given = 0;
  return weights.map((w) => {
    running += w;
    const upTo = total ? Math.round((amount * running) / total) : 0;
    const share = upTo - given;
    given = upTo;
    return share;
  });
}
