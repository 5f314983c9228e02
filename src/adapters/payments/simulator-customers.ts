/**
 * The payment simulator's customers and payment methods, and the base of the simulator's classes
 * (it holds the D1 handle and the platform region; see simulator.ts). Test tokens resolve to
 * payment methods with the behaviour their name says.
 */
import { eq } from 'drizzle-orm';
import type { DB } from '../../db/client';
import { wallClock, type Clock } from '../../lib/clock';
import { simCustomers, simPaymentMethods, simSetupIntents } from '../../db/schema/payments';
import { newId, randomString } from '../../lib/ids';
import { PaymentError, type PaymentMethod } from './types';

type Behavior = 'success' | 'decline' | 'authentication_required';

/**
 * Test payment-method tokens, named as the provider names its test cards:
 * success `pm_card_visa`, `pm_card_mastercard`, `tok_visa`; decline `pm_card_chargeDeclined`,
 * `pm_card_visa_chargeDeclined`, `tok_chargeDeclined`; authentication required
 * `pm_card_authenticationRequired`, `pm_card_threeDSecureRequired`.
 */
export const TEST_TOKENS: Record<string, { brand: string; last4: string; behavior: Behavior }> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behavior: 'success' },
  tok_visa: { brand: 'visa', last4: '4242', behavior: 'success' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behavior: 'success' },
  pm_card_amex: { brand: 'amex', last4: '8431', behavior: 'success' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  pm_card_visa_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  tok_chargeDeclined: { brand: 'visa', last4: '0002', behavior: 'decline' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3155', behavior: 'authentication_required' },
  pm_card_threeDSecureRequired: { brand: 'visa', last4: '3220', behavior: 'authentication_required' },
};

export type PmRow = typeof simPaymentMethods.$inferSelect;

const pmOut = (r: PmRow, defaultId?: string | null): PaymentMethod => ({
  id: r.id,
  type: r.type,
  brand: r.brand,
  last4: r.last4,
  expMonth: r.expMonth,
  expYear: r.expYear,
  customerId: r.customerId,
  isDefault: defaultId ? r.id === defaultId : undefined,
});

/** Customers and payment methods of the simulator; the base class of the others (simulator.ts). */
export class SimulatorCustomers {
  /**
   * `clock` stamps the simulated provider's objects (customers, payment methods, intents,
   * subscriptions, transfers): the caller's clock when it passed one (`payments(ctx)`, like a
   * provider's test clock following a sandbox operator's time), else the provider's own real time.
   */
  constructor(
    protected readonly db: DB,
    protected readonly region: 'US' | 'CA' = 'US',
    protected readonly clock: Clock = wallClock,
  ) {}

  /** The simulated provider's "now" as ISO (see `clock`). */
  protected nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }

  async createCustomer(input: { email?: string | null; name?: string | null; metadata?: Record<string, string> }) {
    const id = newId('cus_sim');
    const now = this.nowIso();
    await this.db
      .insert(simCustomers)
      .values({ id, email: input.email ?? null, name: input.name ?? null, metadata: input.metadata ?? null, createdAt: now, updatedAt: now });
    return { id };
  }

  async deleteCustomer(id: string) {
    await this.db.update(simCustomers).set({ deleted: true }).where(eq(simCustomers.id, id));
  }

  /** Resolves a test token or an existing simulated payment method. */
  protected async resolve(paymentMethodId: string): Promise<PmRow> {
    const existing = await this.db.select().from(simPaymentMethods).where(eq(simPaymentMethods.id, paymentMethodId)).get();
    if (existing) return existing;
    const token = TEST_TOKENS[paymentMethodId];
    if (!token) throw new PaymentError('invalid_payment_method', `No such payment method: ${paymentMethodId}`);
    const row: PmRow = {
      id: newId('pm_sim'),
      customerId: null,
      type: 'card',
      brand: token.brand,
      last4: token.last4,
      expMonth: 12,
      expYear: new Date(this.clock.now()).getUTCFullYear() + 3,
      behavior: token.behavior,
      createdAt: this.nowIso(),
      updatedAt: this.nowIso(),
    };
    await this.db.insert(simPaymentMethods).values(row);
    return row;
  }

  async attachPaymentMethod(customerId: string, paymentMethodId: string, opts: { makeDefault?: boolean } = {}) {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, customerId)).get();
    if (!cust || cust.deleted) throw new PaymentError('invalid_payment_method', `No such customer: ${customerId}`);
    const pm = await this.resolve(paymentMethodId);
    if (pm.customerId && pm.customerId !== customerId) throw new PaymentError('invalid_payment_method', 'Payment method belongs to another customer');
    await this.db.update(simPaymentMethods).set({ customerId }).where(eq(simPaymentMethods.id, pm.id));
    if (opts.makeDefault ?? true) await this.db.update(simCustomers).set({ defaultPaymentMethodId: pm.id }).where(eq(simCustomers.id, customerId));
    return pmOut({ ...pm, customerId }, (opts.makeDefault ?? true) ? pm.id : cust.defaultPaymentMethodId);
  }

  async listPaymentMethods(customerId: string) {
    const cust = await this.db.select().from(simCustomers).where(eq(simCustomers.id, customerId)).get();
    const rows = await this.db.select().from(simPaymentMethods).where(eq(simPaymentMethods.customerId, customerId)).all();
    return rows.map((r) => pmOut(r, cust?.defaultPaymentMethodId ?? null));
  }

  async createSetupIntent(customerId: string) {
    const id = newId('seti_sim');
    const clientSecret = `${id}_secret_${randomString(24)}`;
    await this.db.insert(simSetupIntents).values({ id, customerId, clientSecret, status: 'requires_payment_method' });
    return { id, clientSecret, status: 'requires_payment_method' };
  }
}
