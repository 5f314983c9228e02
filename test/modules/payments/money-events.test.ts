/**
 * Every money path goes through the payments service and fires its event in the same batch as its
 * ledger write: payment.completed for captures, payment.refunded for refunds. One test walks them all.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, post } from '../../harness';
import { payments } from '../../../src/adapters/payments';
import { at, bookBody, eventsOf, rentalItem } from '../bookings/factories';

describe('payment events on every money path', () => {
  it('fires payment.completed / payment.refunded for each path, each with its ledger entry or record', async () => {
    const op = await createOperator();
    const key = { key: op.adminKey };
    const item = await rentalItem(op, { assets: 3 });
    const window = (day: number) => ({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00') });

    // 1. Booking create charge.
    const bk = await post('/coreBooking/book', bookBody(window(3)), key);
    expect(bk.status, bk.text).toBe(201);
    // 2. Deposit capture.
    const dep = await post(
      '/preAuth/authorize-deposit',
      { rentalId: bk.body.rentalId, authorizeAmount: 80, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa' },
      key,
    );
    await post('/preAuth/capture-deposit', { rentalId: bk.body.rentalId, paymentIntentId: dep.body.paymentIntentId, captureAmount: 30 }, key);
    // 3. Protection plan.
    const prot = await post(`/public/bookings/${bk.body.rentalId}/protection-plans`, { planId: 'MARINE_FUEL_EQUIPMENT', planName: 'Fuel', calculatedCost: 10 });
    expect(prot.status, prot.text).toBe(200);
    // 4. Cancellation refund.
    const bk2 = await post('/coreBooking/book', bookBody(window(4)), key);
    await post(`/coreBooking/${bk2.body.rentalId}/cancel`, {}, key);
    // 5. POS: cash and card sales, a cash refund, a card refund, a saved-card charge.
    const p = await post('/pos/inventory', { locationId: op.locationId, name: 'Bait', variants: [{ name: 'Default', price: 4, quantity: 50 }] }, key);
    const sale = (extra: Record<string, unknown>) =>
      post('/pos/transaction', { locationId: op.locationId, userId: op.adminId, items: [{ itemId: p.body.itemId }], ...extra }, key);
    const cash = await sale({ paymentType: 'cash' });
    const card = await sale({ paymentType: 'card', paymentMethodId: 'pm_card_visa' });
    await post('/pos/transaction/refund', { transactionId: cash.body.transactionId, refundType: 'full' }, key);
    await post('/pos/transaction/refund', { transactionId: card.body.transactionId, refundType: 'partial', amount: 1 }, key);
    const cust = await payments(env).createCustomer({ email: 'c@example.test' });
    await post('/pos/charge_customer', { amount: 555, stripe_customer_id: cust.id, payment_method: 'pm_card_visa' }, key);
    // 6. Gift cards: online purchase and saved-card purchase.
    const gi = await post('/public/gift-card/create-payment-intent', {
      amount: 20,
      customerId: op.customerId,
      giftCardCode: 'EVENTS-GC-1',
      paymentMethodId: 'pm_card_visa',
    });
    await post('/public/gift-card/confirm-payment', { paymentIntentId: gi.body.paymentIntentId });
    await post('/public/gift-card/charge-saved-card', { paymentMethodId: 'pm_card_visa', amount: 12, customerId: op.customerId });

    const completed = (await eventsOf(op.customerId, 'payment.completed')).map(
      (e) => `${e.payload.data.kind}:${e.payload.data.method}:${e.payload.data.amountCents}`,
    );
    expect(completed.sort()).toEqual(
      [
        'booking:card:20000',
        'deposit_capture:card:3000',
        'protection_plan:card:1000',
        'booking:card:20000',
        'pos_sale:cash:400',
        'pos_sale:card:400',
        'pos_charge:card:555',
        'gift_card:card:2000',
        'gift_card:card:1200',
      ].sort(),
    );
    const refunded = (await eventsOf(op.customerId, 'payment.refunded')).map(
      (e) => `${e.payload.data.kind}:${e.payload.data.method}:${e.payload.data.amountCents}`,
    );
    expect(refunded.sort()).toEqual(['booking_cancellation:card:20000', 'pos_refund:cash:400', 'pos_refund:card:100'].sort());

    // Each event was written in the batch of its money's record (same request id in the audit log and the ledger exists).
    const ledgerRefs = await env.DB.prepare("SELECT entry_type, source FROM ledger_entries WHERE customer_id = ? AND entry_type IN ('payment', 'refund')")
      .bind(op.customerId)
      .all<{ entry_type: string; source: string }>();
    const kinds = ledgerRefs.results.map((r) => `${r.entry_type}:${r.source}`);
    expect(kinds).toEqual(expect.arrayContaining(['payment:card', 'refund:card', 'payment:protection_plan', 'payment:cash', 'refund:pos']));
  });
});
