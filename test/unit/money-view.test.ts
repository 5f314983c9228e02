/**
 * The one money view (lib/money-view.ts): lines and total, paid, refunded, credited, balance and the
 * deposit's state from a sale's ledger entries. A property: for any entries, the lines add up to the
 * total and the balance is total − paid + refunded + credited = the sum of the entries that affect it.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { moneyOut, moneyView, type MoneyEntry } from '../../src/lib/money-view';

let n = 0;
const e = (entryType: string, amount: number, more: Partial<MoneyEntry> = {}): MoneyEntry => ({
  id: `led_${String(++n).padStart(4, '0')}`,
  entryType,
  amount,
  affectsBalance: true,
  description: entryType,
  metadata: null,
  ...more,
});

describe('moneyView', () => {
  it('a cancelled booking that keeps a fee: reversed lines drop out, the fee stays, the refund balances it', () => {
    const rental = e('revenue', 20_000, { description: 'Rental' });
    const tax = e('tax', 1_400, { description: 'Tax (7%)' });
    const entries = [
      rental,
      tax,
      e('payment', -21_400),
      e('deposit_hold', 25_000, { affectsBalance: false }),
      e('revenue', -20_000, { metadata: { reversalOf: rental.id } }),
      e('tax', -1_400, { metadata: { reversalOf: tax.id } }),
      e('cancellation_fee', 5_000, { description: 'Cancellation fee' }),
      e('refund', 16_400),
      e('deposit_release', -25_000, { affectsBalance: false }),
    ];
    const m = moneyView(entries, { deposits: [{ status: 'released' }] });
    expect(m).toEqual({
      lines: [{ description: 'Cancellation fee', type: 'cancellation_fee', amount: 5_000 }],
      total: 5_000,
      paid: 21_400,
      refunded: 16_400,
      credited: 0,
      balance: 0,
      deposit: { state: 'released', held: 0, captured: 0, released: 25_000 },
    });
    expect(moneyOut(m, 'usd')).toMatchObject({ total: 50, paid: 214, refunded: 164, balance: 0, balanceDue: 0 });
  });

  it('re-posted charges of one line are one line; a quote stands for charges not posted; memo and deleted entries do not count', () => {
    const posted = moneyView([
      e('revenue', 30_000, { metadata: { line: 'revenue' }, description: 'Slip: revenue' }),
      e('revenue', -5_000, { metadata: { line: 'revenue' }, description: 'Slip: revenue (adjustment)' }),
      e('revenue', 1_000, { affectsBalance: false }),
      e('tip', 999, { deletedAt: '2026-01-01T00:00:00.000Z' }),
      e('payment', -10_000),
    ]);
    expect(posted.lines).toEqual([{ description: 'Slip: revenue', type: 'revenue', amount: 25_000 }]);
    expect([posted.total, posted.paid, posted.balance]).toEqual([25_000, 10_000, 15_000]);
    const quoted = moneyView([e('payment', -4_000)], { unposted: [{ description: 'Quote', type: 'revenue', amount: 12_000 }] });
    expect([quoted.total, quoted.paid, quoted.balance]).toEqual([12_000, 4_000, 8_000]);
  });

  it('a credited invoice: the proration credit given as membership credits', () => {
    const m = moneyView([e('revenue', 3_000), e('discount', -8_000), e('credit', 5_000)]);
    expect([m.total, m.credited, m.balance]).toEqual([-5_000, 5_000, 0]);
  });

  it('deposits: held, partly captured, pending', () => {
    const hold = e('deposit_hold', 10_000, { affectsBalance: false });
    expect(moneyView([hold]).deposit).toEqual({ state: 'held', held: 10_000, captured: 0, released: 0 });
    const partly = moneyView([hold, e('deposit_capture', 6_000, { affectsBalance: false }), e('deposit_release', -4_000, { affectsBalance: false })]);
    expect(partly.deposit).toEqual({ state: 'partially_captured', held: 0, captured: 6_000, released: 4_000 });
    expect(moneyView([], { deposits: [{ status: 'pending' }] }).deposit.state).toBe('pending');
    expect(moneyView([]).deposit.state).toBe('none');
  });

  it('for any entries: lines add up to the total; balance = total − paid + refunded + credited = the sum of the entries', () => {
    const entry = fc.record({
      entryType: fc.constantFrom('revenue', 'discount', 'tax', 'tip', 'payment', 'refund', 'credit', 'cancellation_fee', 'deposit_hold'),
      amount: fc.integer({ min: -100_000, max: 100_000 }),
      affectsBalance: fc.boolean(),
      reverses: fc.option(fc.nat(20), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (raw) => {
        const entries: MoneyEntry[] = [];
        for (const r of raw) {
          const original = r.reverses !== undefined ? entries[r.reverses] : undefined;
          entries.push(e(r.entryType, r.amount, { affectsBalance: r.affectsBalance, metadata: original ? { reversalOf: original.id } : null }));
        }
        const m = moneyView(entries);
        expect(m.lines.reduce((s, l) => s + l.amount, 0)).toBe(m.total);
        expect(m.balance).toBe(m.total - m.paid + m.refunded + m.credited);
        expect(m.balance).toBe(entries.filter((x) => x.affectsBalance).reduce((s, x) => s + x.amount, 0));
      }),
      { numRuns: 300 },
    );
  });
});
