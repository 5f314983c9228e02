/** Money is integer cents inside Berth; the API speaks dollars or cents exactly where the spec says. */
export const toCents = (dollars: number) => Math.round(dollars * 100);
export const toDollars = (cents: number) => Math.round(cents) / 100;
/** Percentage of an amount in cents, rounded half away from zero. */
export const percentOf = (cents: number, percent: number) => Math.round((cents * percent) / 100);
