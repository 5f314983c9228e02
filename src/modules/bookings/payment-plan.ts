import { dollars } from './pricing';
import type { BookInput } from './schemas';
import { toCents } from '../../lib/money';
import { bad } from './errors';
import type { CreateBookingOptions } from './types';

export interface PaymentPlanOut {
  type: 'full' | 'installments' | 'pay_later' | 'prepaid';
  chargeNow: number;
  schedule?: { dueDate: string; amount: number; status: 'paid' | 'scheduled' }[];
}

/**
 * The payment plan of an order. Installment due dates are dates of the location's calendar: the first
 * is `today` there (on the context's clock), the last the day before the first rental starts.
 */
export function planPayment(input: BookInput, total: number, opts: CreateBookingOptions, firstStartDate: string, today: string): PaymentPlanOut {
  if (opts.prepaid) return { type: 'prepaid', chargeNow: 0 };
  const type = input.paymentPlan?.type ?? (input.paymentMethodId ? 'full' : 'pay_later');
  if (type === 'pay_later') return { type, chargeNow: 0 };
  if (type === 'full') return { type, chargeNow: total };
  const pp = input.paymentPlan!;
  let schedule: { dueDate: string; amount: number }[];
  if (pp.schedule) {
    schedule = pp.schedule.map((s) => ({ dueDate: s.dueDate, amount: toCents(s.amount) }));
    const sum = schedule.reduce((s, x) => s + x.amount, 0);
    if (Math.abs(sum - total) > schedule.length)
      throw bad(`The installments add up to ${dollars(sum)} but the total is ${dollars(total)}`, 'paymentPlan.schedule');
    schedule[0].amount += total - sum;
  } else {
    const n = pp.installments ?? 2;
    const each = Math.floor(total / n);
    const firstDue = Date.parse(`${today}T00:00:00Z`);
    const lastDue = Math.max(firstDue, Date.parse(`${firstStartDate}T00:00:00Z`) - 86_400_000);
    schedule = Array.from({ length: n }, (_, i) => ({
      dueDate: new Date(firstDue + Math.round(((lastDue - firstDue) * i) / (n - 1) / 86_400_000) * 86_400_000).toISOString().slice(0, 10),
      amount: i === 0 ? total - each * (n - 1) : each,
    }));
  }
  return { type: 'installments', chargeNow: schedule[0].amount, schedule: schedule.map((s, i) => ({ ...s, status: i === 0 ? 'paid' : 'scheduled' })) };
}

/** Splits `amount` over lines in proportion to their totals (the last line takes the rounding). */
export function shares(amount: number, totals: number[]): number[] {
  const sum = totals.reduce((s, x) => s + x, 0);
  let left = amount;
  return totals.map((t, i) => {
    const v = i === totals.length - 1 ? left : sum ? Math.round((amount * t) / sum) : 0;
    left -= v;
    return v;
  });
}
