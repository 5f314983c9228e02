/**
 * The outside services' adapters and time: the payment simulator stamps its objects with the
 * caller's clock when it is given one (`payments(ctx)`, like a provider's test clock following a
 * sandbox operator), and with the provider's own real time otherwise; signatures other parties
 * check stay on real time.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { payments, signWebhookPayload, verifyWebhookSignature } from '../../../src/adapters/payments';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';

const AT = Date.parse('2025-03-05T15:00:00.000Z');

describe('payment simulator and the clock', () => {
  it("stamps intents, customers' cards and subscriptions with the caller's clock", async () => {
    const pay = payments(systemCtx(env, { clock: fixedClock(AT, 'clk_test') }));
    const customer = await pay.createCustomer({ email: 'clock@example.test', name: 'Clock' });
    const card = await pay.attachPaymentMethod(customer.id, 'pm_card_visa', { makeDefault: true });
    expect(card.expYear).toBe(2028);
    const intent = await pay.createPaymentIntent({ amount: 1234, customerId: customer.id, paymentMethodId: card.id, confirm: true });
    expect(intent).toMatchObject({ status: 'succeeded', createdAt: new Date(AT).toISOString() });
    const sub = await pay.createSubscription(customer.id, 'standard', { trialDays: 14 });
    expect(sub).toMatchObject({ currentPeriodStart: new Date(AT).toISOString(), currentPeriodEnd: new Date(AT + 14 * 86_400_000).toISOString() });
    expect((await pay.updateSubscription(sub.id, { cancelAtPeriodEnd: true })).canceledAt).toBe(new Date(AT).toISOString());
  });

  it('without a caller clock, the simulated provider keeps real time', async () => {
    const before = Date.now();
    const intent = await payments(env).createPaymentIntent({ amount: 500 });
    expect(Date.parse(intent.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(intent.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("webhook signatures are checked against real time, whatever a caller's clock says", async () => {
    const header = await signWebhookPayload('{}', 'whsec_test');
    expect(await verifyWebhookSignature('{}', header, 'whsec_test')).toEqual({ ok: true });
    const old = await signWebhookPayload('{}', 'whsec_test', Math.floor(AT / 1000));
    expect(await verifyWebhookSignature('{}', old, 'whsec_test')).toMatchObject({ ok: false, reason: 'timestamp outside the tolerance' });
  });
});
