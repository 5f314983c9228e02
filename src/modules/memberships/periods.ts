/**
 * Billing periods and proration (pure; cents and UTC instants).
 *
 * A period is [start, end). A cycle adds one calendar month or year in UTC, keeping the billing
 * anchor day of the month (clamped to the month's last day, so an anchor of 31 bills on Feb 28 or
 * 29 and back on Mar 31).
 *
 * Proration counts whole UTC calendar days. For a change made today T in the period [S, E) of
 * `periodDays = days(S, E)` at the old price P:
 *   credit = -round(P × days(T, E) / periodDays)        the unused part at the old price
 *   charge = +round(P' × days(T, E') / periodDays')     the remaining part at the new price
 * change-price: P' is the new price, E' = E; switch-cycle: the new period starts today, E' = T + one
 * new cycle (the whole new price); change-date: P' = P, E' is the new billing date, periodDays' =
 * periodDays. Each invoice line carries these figures as its formula.
 */
import type { BillingCycle } from './types';
import { formatLocalDay } from '../../lib/local-time';

const DAY = 86_400_000;

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

/** `iso` plus `months` calendar months, on `anchorDay` (default the instant's own day) clamped to the month's length. */
export function addMonths(iso: string, months: number, anchorDay?: number): string {
  const d = new Date(iso);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  const day = Math.min(anchorDay ?? d.getUTCDate(), daysInMonth(y, m));
  return new Date(Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds())).toISOString();
}

export const cycleMonths = (cycle: BillingCycle) => (cycle === 'yearly' ? 12 : 1);

/** The end of a period of `n` cycles starting at `startIso`. */
export const addCycles = (startIso: string, cycle: BillingCycle, n = 1, anchorDay?: number) => addMonths(startIso, cycleMonths(cycle) * n, anchorDay);

export const anchorDayOf = (iso: string) => new Date(iso).getUTCDate();

/** Midnight UTC of the instant's date. */
const utcDay = (iso: string | number) => {
  const d = new Date(iso);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};

/** Whole UTC calendar days from `a` to `b` (negative when b is earlier). */
export const daysBetween = (a: string | number, b: string | number) => Math.round((utcDay(b) - utcDay(a)) / DAY);

export const addDaysIso = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY).toISOString();

export interface Proration {
  days: number;
  periodDays: number;
  /** Cents per period. */
  rate: number;
  formula: string;
}

export interface InvoiceLine {
  description: string;
  kind: 'membership' | 'proration_credit' | 'proration_charge' | 'free_period';
  /** Cents; negative for a credit. */
  amount: number;
  proration?: Proration;
}

/** round(rate × days / periodDays), signed; with the formula written out in cents. */
export function prorationLine(kind: 'proration_credit' | 'proration_charge', description: string, rate: number, days: number, periodDays: number): InvoiceLine {
  const d = Math.max(0, days);
  const raw = periodDays > 0 ? Math.round((rate * d) / periodDays) : 0;
  const amount = kind === 'proration_credit' ? -raw : raw;
  const sign = kind === 'proration_credit' ? '-' : '';
  return {
    description,
    kind,
    amount,
    proration: { days: d, periodDays, rate, formula: `${sign}round(${rate} × ${d} / ${periodDays}) = ${amount}` },
  };
}

export const linesTotal = (lines: InvoiceLine[]) => lines.reduce((s, l) => s + l.amount, 0);

/** The local day of an instant, as members read it ("Sun 14 Feb 2027"), in the operator's zone `tz`. */
export const localDay = (iso: string, tz: string) => formatLocalDay(Date.parse(iso), tz);

/** "$49.00" from cents (for e-mails and line descriptions). */
export const money = (cents: number, currency = 'usd') => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * Dunning: a declined renewal is retried 1, 3 and 5 days after the due date (attempts 2, 3, 4);
 * when the fourth attempt fails the membership becomes `past_due`.
 */
export const DUNNING_RETRY_DAYS = [1, 3, 5] as const;
export const MAX_RENEWAL_ATTEMPTS = DUNNING_RETRY_DAYS.length + 1;

/** When attempt `attemptsSoFar + 1` is due, counted from the renewal's due date; null when no retry is left. */
export function nextDunningAttempt(dueIso: string, attemptsSoFar: number): string | null {
  const days = DUNNING_RETRY_DAYS[attemptsSoFar - 1];
  return days == null ? null : addDaysIso(dueIso, days);
}
