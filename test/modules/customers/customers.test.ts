import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, patch, post, signToken } from '../../harness';
import { checkSecurity } from '../../security';

describe('Customers (operator account)', () => {
  it('reads the own account', async () => {
    const op = await createOperator({ name: 'Blue Water' });
    const r = await get('/customer', { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ customerId: op.customerId, name: 'Blue Water', plan: 'enterprise' });
    await checkSecurity(op, { method: 'GET', path: '/customer' });
  });

  it('updates fields and merges integrations; 400 when there is no data', async () => {
    const op = await createOperator();
    let r = await patch('/customer', { integrations: { calendar: { enabled: true, calendarId: 'a' }, fleet: { on: true } } }, { key: op.adminKey });
    expect(r.status).toBe(200);
    r = await patch('/customer', { name: 'Renamed', integrations: { calendar: { calendarId: 'b' }, fleet: null, gps: { vendor: 'x' } } }, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('Renamed');
    expect(r.body.integrations).toEqual({ calendar: { enabled: true, calendarId: 'b' }, gps: { vendor: 'x' } });
    expect((await get('/customer', { key: op.adminKey })).body.integrations).toEqual(r.body.integrations);
    expectError(await patch('/customer', {}, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch('/customer', { email: 'not-an-email' }, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'PATCH', path: '/customer', body: { name: 'x' }, adminOnly: true });
  });

  it('changes the plan through the subscription; refuses an upgrade the provider refuses', async () => {
    const sub = `idp|${crypto.randomUUID()}`;
    const token = await signToken({ sub, email: `p-${crypto.randomUUID().slice(0, 6)}@example.test` });
    const created = await post('/customer', { name: 'Plan Co' }, { token });
    expect(created.status).toBe(201);
    expectError(await patch('/customer', { plan: 'enterprise' }, { token }), 400, 'subscription_change_failed');
    expect((await post('/customer/payment-method', { paymentMethodId: 'pm_card_visa' }, { token })).status).toBe(200);
    const up = await patch('/customer', { plan: 'enterprise' }, { token });
    expect(up.status).toBe(200);
    expect(up.body.plan).toBe('enterprise');
    expect((await get('/customer/subscription', { token })).body.plan).toBe('enterprise');
  });

  it('creates the payment-provider customer once', async () => {
    const op = await createOperator();
    const a = await post('/customer/create-stripe-customer', {}, { key: op.adminKey });
    expect(a.status).toBe(200);
    expect(a.body.created).toBe(true);
    const b = await post('/customer/create-stripe-customer', {}, { key: op.adminKey });
    expect(b.body).toEqual({ created: false, paymentCustomerId: a.body.paymentCustomerId });
    await checkSecurity(op, { method: 'POST', path: '/customer/create-stripe-customer', adminOnly: true });
  });

  it('attaches payment methods, sets the default, and refuses declined or unknown tokens cleanly', async () => {
    const op = await createOperator();
    expect((await get('/customer/payment-methods', { key: op.adminKey })).body.data).toEqual([]);
    const a = await post('/customer/payment-method', { paymentMethodId: 'pm_card_visa' }, { key: op.adminKey });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    const b = await post('/customer/payment-method', { paymentMethodId: 'pm_card_mastercard' }, { key: op.adminKey });
    const list = await get('/customer/payment-methods', { key: op.adminKey });
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.find((m: any) => m.isDefault).id).toBe(b.body.id);
    expectError(await post('/customer/payment-method', { paymentMethodId: 'pm_nope' }, { key: op.adminKey }), 400);
    expectError(await post('/customer/payment-method', {}, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'POST', path: '/customer/payment-method', body: { paymentMethodId: 'pm_card_visa' }, adminOnly: true });
    await checkSecurity(op, { method: 'GET', path: '/customer/payment-methods' });
  });

  it('creates a setup intent', async () => {
    const op = await createOperator();
    const r = await post('/customer/create-setup-intent', {}, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.clientSecret).toContain('_secret_');
    await checkSecurity(op, { method: 'POST', path: '/customer/create-setup-intent', adminOnly: true });
  });

  it('reads, cancels at period end and reactivates the subscription; 404 without one', async () => {
    const op = await createOperator();
    expectError(await get('/customer/subscription', { key: op.adminKey }), 404);
    expectError(await post('/customer/cancel-subscription', {}, { key: op.adminKey }), 404);
    const token = await signToken({ sub: `idp|${crypto.randomUUID()}`, email: `s-${crypto.randomUUID().slice(0, 6)}@example.test` });
    await post('/customer', { name: 'Sub Co' }, { token });
    const s = await get('/customer/subscription', { token });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ plan: 'standard', status: 'trialing', cancelAtPeriodEnd: false });
    const c = await post('/customer/cancel-subscription', {}, { token });
    expect(c.body.cancelAtPeriodEnd).toBe(true);
    expect(c.body.currentPeriodEnd).toBe(s.body.currentPeriodEnd);
    const re = await post('/customer/reactivate-subscription', {}, { token });
    expect(re.body.cancelAtPeriodEnd).toBe(false);
    await checkSecurity(op, { method: 'GET', path: '/customer/subscription' });
    await checkSecurity(op, { method: 'POST', path: '/customer/cancel-subscription', adminOnly: true });
    await checkSecurity(op, { method: 'POST', path: '/customer/reactivate-subscription', adminOnly: true });
  });

  it('validates POST /customer input and security', async () => {
    const op = await createOperator();
    expectError(await post('/customer', {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/customer', { name: 'X' }, { key: op.adminKey }), 409, 'already_exists');
    await checkSecurity(op, { method: 'POST', path: '/customer', body: { name: 'X' } });
  });
});
