/**
 * Money keeps its currency (issue 28): gift cards, promo amounts, credits and payments are redeemed
 * only in their own currency (400 `currency_mismatch`, nothing redeemed or charged); cards issued by
 * an operator take the location's currency; a card is bought only in a currency the operator sells in.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db, expectError, get, patch, post, type Operator } from '../../harness';
import { newId } from '../../../src/lib/ids';
import { ledgerEntries, renters } from '../../../src/db/schema/bookings';
import { payments } from '../../../src/adapters/payments';
import { at, book, bookBody, email, rentalItem } from '../bookings/factories';

const k = (op: Operator) => ({ key: op.adminKey });

async function location(op: Operator, currency: string): Promise<string> {
  const r = await post(
    '/location',
    { name: `Dock ${currency}`, address: '1 Quay Street', phoneNumber: '+15555550123', timezone: op.timezone, currency },
    k(op),
  );
  expect(r.status, r.text).toBe(200);
  return r.body.id ?? r.body.locationId;
}

const giftCard = (op: Operator, promoCode: string, dollars: number, extra: Record<string, unknown> = {}) =>
  post(
    '/promoGiftCards',
    { customerId: op.customerId, promoCode, ExpiryDate: '2099-12-31', Details: { $Discount: dollars, type: 'gift_card' }, ...extra },
    k(op),
  );

const bookingsOf = async (customerId: string) =>
  Number((await env.DB.prepare('SELECT COUNT(*) AS n FROM bookings WHERE customer_id = ?').bind(customerId).first<{ n: number }>())?.n ?? 0);
const balanceOf = async (op: Operator, code: string) => (await get(`/promoGiftCards/balance?promoCode=${code}&customerId=${op.customerId}`, k(op))).body;

describe('gift cards keep their currency', () => {
  it('a card bought online in IDR cannot pay a USD booking (widget quote, checkout, POST /promoGiftCards/use); it pays in IDR', async () => {
    const op = await createOperator();
    const idr = await location(op, 'idr');
    const boat = await rentalItem(op); // at the operator's USD location
    const bought = await post('/public/gift-card/create-payment-intent', {
      customerId: op.customerId,
      giftCardCode: `IDR-${crypto.randomUUID().slice(0, 8)}`,
      amount: 50,
      currency: 'idr',
      paymentMethodId: 'pm_card_visa',
    });
    expect(bought.status, bought.text).toBe(200);
    expect(bought.body.currency).toBe('idr');
    const issued = await post('/public/gift-card/confirm-payment', { paymentIntentId: bought.body.paymentIntentId });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.body.giftCard).toMatchObject({ currency: 'idr', balance: 50 });
    const code = issued.body.giftCard.promoCode;

    const order = { customerId: op.customerId, inventoryId: boat.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    expectError(await post('/public/widget/quote', { ...order, giftCardCode: code }), 400, 'currency_mismatch');
    const checkout = await post('/public/widget/checkout', {
      ...order,
      giftCardCode: code,
      customerInfo: { firstName: 'Ida', lastName: 'Rupiah', email: email('idr') },
      paymentMethodId: 'pm_card_visa',
    });
    expectError(checkout, 400, 'currency_mismatch');
    expect(checkout.body.message).toMatch(/IDR.*USD/);
    // The same code in the "promo or gift code" field is refused the same way.
    expectError(
      await post('/public/widget/checkout', {
        ...order,
        promoCode: code,
        customerInfo: { firstName: 'Ida', lastName: 'Rupiah', email: email('idr') },
        paymentMethodId: 'pm_card_visa',
      }),
      400,
      'currency_mismatch',
    );
    expect(await bookingsOf(op.customerId)).toBe(0);
    expect((await balanceOf(op, code)).balance).toBe(50);

    const use = (body: Record<string, unknown>) => post('/promoGiftCards/use', { promoCode: code, customerId: op.customerId, orderAmount: 50, ...body }, k(op));
    expectError(await use({ currency: 'usd' }), 400, 'currency_mismatch');
    expectError(await use({ locationId: op.locationId }), 400, 'currency_mismatch');
    expect((await balanceOf(op, code)).balance).toBe(50);
    const ok = await use({ locationId: idr });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ discount: 50, balance: 0 });
  });

  it('an operator selling only in USD sells no card in another currency, and nothing is charged', async () => {
    const op = await createOperator();
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM gift_card_purchases WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    const r = await post('/public/gift-card/create-payment-intent', {
      customerId: op.customerId,
      giftCardCode: `IDR-${crypto.randomUUID().slice(0, 8)}`,
      amount: 50,
      currency: 'idr',
      paymentMethodId: 'pm_card_visa',
    });
    expectError(r, 400, 'currency_mismatch');
    expectError(
      await post('/public/gift-card/charge-saved-card', { customerId: op.customerId, paymentMethodId: 'pm_card_visa', amount: 50, currency: 'eur' }),
      400,
      'currency_mismatch',
    );
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM gift_card_purchases WHERE customer_id = ?').bind(op.customerId).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    const usd = await post('/public/gift-card/create-payment-intent', {
      customerId: op.customerId,
      giftCardCode: `USD-${crypto.randomUUID().slice(0, 8)}`,
      amount: 50,
    });
    expect(usd.status, usd.text).toBe(200);
    expect(usd.body.currency).toBe('usd');
  });

  it("cards issued by an operator take the location's currency (EUR at a EUR location); several currencies need the location or currency", async () => {
    const op = await createOperator();
    const eur = await location(op, 'eur');
    const atEur = await giftCard(op, 'EUR-CARD-1', 40, { locationId: eur });
    expect(atEur.status, atEur.text).toBe(201);
    expect(atEur.body.currency).toBe('eur');
    expect((await balanceOf(op, 'EUR-CARD-1')).currency).toBe('eur');
    expectError(await giftCard(op, 'NO-LOC-1', 40), 400, 'validation_failed');
    const named = await giftCard(op, 'NAMED-EUR', 40, { currency: 'EUR' });
    expect(named.status, named.text).toBe(201);
    expect(named.body.currency).toBe('eur');
    expectError(await giftCard(op, 'YEN-CARD', 40, { currency: 'jpy' }), 400, 'currency_mismatch');
    expectError(await giftCard(op, 'LOC-VS-CUR', 40, { locationId: eur, currency: 'usd' }), 400, 'currency_mismatch');
    // A card's money cannot move to a location selling in another currency.
    expectError(
      await patch('/promoGiftCards', { promoCode: 'EUR-CARD-1', customerId: op.customerId, Updates: { locationId: op.locationId } }, k(op)),
      400,
      'currency_mismatch',
    );

    // An operator whose only location sells in EUR issues EUR cards without naming it.
    const solo = await createOperator();
    await env.DB.prepare('UPDATE locations SET currency = ? WHERE id = ?').bind('eur', solo.locationId).run();
    const soloCard = await giftCard(solo, 'SOLO-EUR', 25);
    expect(soloCard.status, soloCard.text).toBe(201);
    expect(soloCard.body.currency).toBe('eur');
  });
});

describe('promo amounts keep their currency', () => {
  it('an amount off in EUR is refused on a USD booking; a percentage applies anywhere', async () => {
    const op = await createOperator();
    const eur = await location(op, 'eur');
    const boat = await rentalItem(op);
    expect(
      (
        await post(
          '/promoGiftCards',
          { customerId: op.customerId, promoCode: 'TENEUR', ExpiryDate: '2099-12-31', Details: { $Discount: 10 }, currency: 'eur' },
          k(op),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await post(
          '/promoGiftCards',
          { customerId: op.customerId, promoCode: 'TENPCT', ExpiryDate: '2099-12-31', Details: { '%Discount': 10 }, locationId: eur },
          k(op),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await post(
          '/promoGiftCards',
          { customerId: op.customerId, promoCode: 'ANYPCT', ExpiryDate: '2099-12-31', Details: { '%Discount': 10 }, currency: 'eur' },
          k(op),
        )
      ).status,
    ).toBe(201);
    const body = (promoCode: string) =>
      bookBody({
        inventoryId: boat.id,
        startTime: at(op.timezone, 4, '10:00'),
        endTime: at(op.timezone, 4, '12:00'),
        extra: { discountDetails: { promoCode } },
      });
    expectError(await book(op, body('TENEUR')), 400, 'currency_mismatch');
    expectError(
      await post('/promoGiftCards/use', { promoCode: 'TENEUR', customerId: op.customerId, orderAmount: 100, currency: 'usd' }, k(op)),
      400,
      'currency_mismatch',
    );
    const pct = await book(op, body('ANYPCT'));
    expect(pct.status, pct.text).toBe(201);
    expect((await post('/promoGiftCards/use', { promoCode: 'ANYPCT', customerId: op.customerId, orderAmount: 100, currency: 'usd' }, k(op))).status).toBe(200);
  });
});

describe('payments and credits keep their currency at the point of sale', () => {
  async function eurTill(op: Operator) {
    const eur = await location(op, 'eur');
    const p = await post(
      '/pos/inventory',
      { locationId: eur, name: 'Balance payment', taxRate: 0, variants: [{ name: 'Default', price: 20, quantity: 100 }] },
      k(op),
    );
    expect(p.status, p.text).toBe(201);
    const sale = (body: Record<string, unknown>) =>
      post('/pos/transaction', { locationId: eur, userId: op.adminId, paymentType: 'cash', items: [{ itemId: p.body.itemId }], ...body }, k(op));
    return { eur, sale };
  }

  it('a EUR till cannot settle a USD booking, record a USD terminal payment, or spend a USD account credit', async () => {
    const op = await createOperator();
    const { sale } = await eurTill(op);
    const item = await rentalItem(op);
    const bk = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00'), paymentMethodId: null }),
    );
    expect(bk.status, bk.text).toBe(201);
    expectError(await sale({ settleBooking: true, rentalId: bk.body.rentalId }), 400, 'currency_mismatch');
    expect((await get(`/coreBooking/${bk.body.rentalId}`, k(op))).body).toMatchObject({ pricing: { amountPaid: 0 } });

    const intent = await post('/pos/create_payment', { amount: 2000, currency: 'usd' }, k(op));
    expect(intent.status, intent.text).toBe(200);
    await payments(env).confirmPaymentIntent(intent.body.id, 'pm_card_visa');
    expectError(await sale({ paymentType: 'terminal', paymentIntentId: intent.body.id }), 400, 'currency_mismatch');
    const eurIntent = await post('/pos/create_payment', { amount: 2000, currency: 'eur' }, k(op));
    await payments(env).confirmPaymentIntent(eurIntent.body.id, 'pm_card_visa');
    const term = await sale({ paymentType: 'terminal', paymentIntentId: eurIntent.body.id });
    expect(term.status, term.text).toBe(201);
    expect(term.body.currency).toBe('eur');

    // A renter holding a USD credit (money owed to them) cannot spend it on a EUR account sale.
    const renterId = newId('rnt');
    await db()
      .insert(renters)
      .values({ id: renterId, customerId: op.customerId, firstName: 'Carl', lastName: 'Credit', email: email('credit') });
    await db()
      .insert(ledgerEntries)
      .values({
        id: newId('led'),
        customerId: op.customerId,
        locationId: op.locationId,
        renterId,
        entryType: 'credit',
        amount: -5000,
        currency: 'usd',
        occurredAt: new Date().toISOString(),
        description: 'Store credit',
      });
    expectError(await sale({ paymentType: 'account', accountId: renterId }), 400, 'currency_mismatch');
    // A renter without credit elsewhere buys on account.
    const clean = newId('rnt');
    await db()
      .insert(renters)
      .values({ id: clean, customerId: op.customerId, firstName: 'Dora', lastName: 'Debit', email: email('debit') });
    expect((await sale({ paymentType: 'account', accountId: clean })).status).toBe(201);
  });
});
