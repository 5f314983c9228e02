/** Money is integer cents inside Berth; the API speaks dollars or cents exactly where the spec says. */
export const toCents = (dollars: number) => Math.round(dollars * 100);
export const toDollars = (cents: number) => Math.round(cents) / 100;
/** Percentage of an amount in cents, rounded half away from zero. */
export const percentOf = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/** Cents as renters read them, in a currency ("$95.00", "€45.00"; an unknown code as "45.00 XYZ"). */
export function formatMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}
