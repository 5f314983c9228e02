/** The payment simulator's payment intents: created, confirmed (charging a payment method by its behaviour), captured, cancelled, refunded. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { simPaymentIntents, simPaymentMethods, simRefunds } from '../../db/schema/payments';
import { newId, randomString } from '../../lib/ids';
import { PaymentError, type CreateIntentInput, type PaymentIntent } from './types';
import type { PmRow } from './simulator-customers';
import { SimulatorAccounts } from './simulator-accounts';

type PiRow = typeof simPaymentIntents.$inferSelect;

const piOut = (r: PiRow): PaymentIntent => ({
  id: r.id,
  status: r.status as PaymentIntent['status'],
  amount: r.amount,
  amountCapturable: r.amountCapturable,
  amountReceived: r.amountReceived,
  amountRefunded: r.amountRefunded,
  currency: r.currency,
  customerId: r.customerId,
  paymentMethodId: r.paymentMethodId,
  captureMethod: r.captureMethod,
  clientSecret: r.clientSecret,
  description: r.description,
  metadata: r.metadata ?? {},
  lastError: r.lastError,
  createdAt: r.createdAt,
  applicationFeeAmount: r.applicationFeeAmount ?? null,
  transferDestination: r.transferDestination ?? null,
});

/** Payment intents and refunds of the simulator (they charge its payment methods and check its connected accounts). */
export class SimulatorIntents extends SimulatorAccounts {
  private async charge(pi: PiRow, pm: PmRow): Promise<PiRow> {
    const patch: Partial<PiRow> = { paymentMethodId: pm.id };
    if (pm.behavior === 'decline') {
      Object.assign(patch, { status: 'requires_payment_method', lastError: 'card_declined' });
    } else if (pm.behavior === 'authentication_required') {
      Object.assign(patch, { status: 'requires_action', lastError: 'authentication_required' });
    } else if (pi.captureMethod === 'manual') {
      Object.assign(patch, { status: 'requires_capture', amountCapturable: pi.amount, lastError: null });
    } else {
      Object.assign(patch, { status: 'succeeded', amountReceived: pi.amount, lastError: null });
    }
    await this.db.update(simPaymentIntents).set(patch).where(eq(simPaymentIntents.id, pi.id));
    const out = { ...pi, ...patch } as PiRow;
    if (pm.behavior === 'decline') throw new PaymentError('card_declined', 'Your card was declined.', piOut(out));
    if (pm.behavior === 'authentication_required') throw new PaymentError('authentication_required', 'This payment requires authentication.', piOut(out));
    return out;
  }

  async createPaymentIntent(input: CreateIntentInput) {
    if (input.idempotencyKey) {
      const prior = await this.db
        .select()
        .from(simPaymentIntents)
        .where(eq(simPaymentIntents.id, `pi_sim_${input.idempotencyKey}`))
        .get();
      if (prior) return piOut(prior);
    }
    const id = input.idempotencyKey ? `pi_sim_${input.idempotencyKey}` : newId('pi_sim');
    const row: PiRow = {
      id,
      customerId: input.customerId ?? null,
      paymentMethodId: null,
      amount: input.amount,
      amountCapturable: 0,
      amountReceived: 0,
      amountRefunded: 0,
      currency: (input.currency ?? 'usd').toLowerCase(),
      captureMethod: input.captureMethod ?? 'automatic',
      status: 'requires_payment_method',
      description: input.description ?? null,
      metadata: {
        ...(input.metadata ?? {}),
        ...(input.paymentMethodTypes ? { paymentMethodTypes: input.paymentMethodTypes.join(',') } : {}),
        ...(input.setupFutureUsage ? { setupFutureUsage: input.setupFutureUsage } : {}),
      },
      clientSecret: `${id}_secret_${randomString(24)}`,
      lastError: null,
      applicationFeeAmount: input.applicationFeeAmount ?? null,
      transferDestination: input.transferDestination ?? input.onBehalfOfAccount ?? null,
      createdAt: this.nowIso(),
      updatedAt: this.nowIso(),
    };
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new PaymentError('provider_error', 'Amount must be a positive integer of cents');
    if (input.applicationFeeAmount != null && (input.applicationFeeAmount < 0 || input.applicationFeeAmount > input.amount))
      throw new PaymentError('provider_error', 'The application fee must be between 0 and the amount');
    for (const acct of [input.transferDestination, input.onBehalfOfAccount])
      if (acct && !(await this.getAccount(acct))) throw new PaymentError('provider_error', `No such connected account: ${acct}`);
    await this.db.insert(simPaymentIntents).values(row);
    if (input.confirm && input.paymentMethodId) {
      const pm = await this.resolve(input.paymentMethodId);
      const charged = await this.charge(row, pm);
      // As the provider does: a card kept for later is attached to the customer once the payment succeeds.
      if (input.setupFutureUsage && input.customerId && !pm.customerId) {
        await this.db
          .update(simPaymentMethods)
          .set({ customerId: input.customerId })
          .where(and(eq(simPaymentMethods.id, pm.id), isNull(simPaymentMethods.customerId)));
      }
      return piOut(charged);
    }
    return piOut(row);
  }

  async getPaymentIntent(id: string) {
    const row = await this.db.select().from(simPaymentIntents).where(eq(simPaymentIntents.id, id)).get();
    return row ? piOut(row) : null;
  }

  private async mustGet(id: string): Promise<PiRow> {
    const row = await this.db.select().from(simPaymentIntents).where(eq(simPaymentIntents.id, id)).get();
    if (!row) throw new PaymentError('provider_error', `No such payment intent: ${id}`);
    return row;
  }

  async confirmPaymentIntent(id: string, paymentMethodId = 'pm_card_visa') {
    const row = await this.mustGet(id);
    if (row.status !== 'requires_payment_method' && row.status !== 'requires_confirmation' && row.status !== 'requires_action') {
      throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be confirmed`);
    }
    const pm = await this.resolve(paymentMethodId);
    return piOut(await this.charge(row, pm));
  }

  async capturePaymentIntent(id: string, amountToCapture?: number) {
    const row = await this.mustGet(id);
    if (row.status !== 'requires_capture') throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be captured`);
    const amount = amountToCapture ?? row.amountCapturable;
    if (amount <= 0 || amount > row.amountCapturable)
      throw new PaymentError('provider_error', `Capture amount must be between 1 and ${row.amountCapturable} cents`);
    const patch = { status: 'succeeded', amountReceived: amount, amountCapturable: 0 };
    await this.db
      .update(simPaymentIntents)
      .set(patch)
      .where(and(eq(simPaymentIntents.id, id), eq(simPaymentIntents.status, 'requires_capture')));
    return piOut({ ...row, ...patch });
  }

  async cancelPaymentIntent(id: string) {
    const row = await this.mustGet(id);
    if (row.status === 'succeeded' || row.status === 'canceled')
      throw new PaymentError('provider_error', `Payment intent is ${row.status} and cannot be canceled`);
    const patch = { status: 'canceled', amountCapturable: 0 };
    await this.db.update(simPaymentIntents).set(patch).where(eq(simPaymentIntents.id, id));
    return piOut({ ...row, ...patch });
  }

  async refund(paymentIntentId: string, amount?: number, reason?: string) {
    const row = await this.mustGet(paymentIntentId);
    if (row.status !== 'succeeded') throw new PaymentError('provider_error', 'Only a succeeded payment can be refunded');
    const refundable = row.amountReceived - row.amountRefunded;
    const amt = amount ?? refundable;
    if (amt <= 0 || amt > refundable) throw new PaymentError('provider_error', `Refund must be between 1 and ${refundable} cents`);
    const id = newId('re_sim');
    // One conditional UPDATE: two racing refunds can never together exceed what was received.
    const res = await this.db
      .update(simPaymentIntents)
      .set({ amountRefunded: sql`${simPaymentIntents.amountRefunded} + ${amt}` })
      .where(and(eq(simPaymentIntents.id, paymentIntentId), sql`${simPaymentIntents.amountReceived} - ${simPaymentIntents.amountRefunded} >= ${amt}`))
      .run();
    if ((res.meta.changes ?? 0) !== 1) throw new PaymentError('provider_error', 'The refund exceeds what is left to refund');
    await this.db.insert(simRefunds).values({ id, paymentIntentId, amount: amt, status: 'succeeded', reason: reason ?? null });
    return { id, paymentIntentId, amount: amt, status: 'succeeded' };
  }

  async createConnectionToken() {
    return { secret: `pst_sim_${randomString(32)}` };
  }
}
