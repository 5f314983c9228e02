import { describe, it, expect } from 'vitest';
import Papa from 'papaparse';
import { and, eq } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { ledgerEntries, renters } from '../../../src/db/schema/bookings';
import { webhookEvents } from '../../../src/db/schema/events';
import { simCustomers } from '../../../src/db/schema/payments';
import { newId } from '../../../src/lib/ids';
import { EXPORT_PAGE_SIZE } from '../../../src/modules/renters/service';

const base = (op: Operator, extra: Record<string, unknown> = {}) => ({
  customerId: op.customerId,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  address: { line1: '1 Harbour Way', city: 'Miami', country: 'US' },
  ...extra,
});

async function createRenter(op: Operator, extra: Record<string, unknown> = {}) {
  const r = await post('/renters', base(op, extra), { key: op.adminKey });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function ledger(op: Operator, renterId: string, amount: number, extra: Partial<typeof ledgerEntries.$inferInsert> = {}) {
  await db()
    .insert(ledgerEntries)
    .values({
      id: newId('led'),
      customerId: op.customerId,
      renterId,
      entryType: amount >= 0 ? 'charge' : 'payment',
      amount,
      occurredAt: '2026-03-10T15:00:00.000Z',
      ...extra,
    });
}

describe('POST /renters (upsert by e-mail and customer)', () => {
  it('creates with 201 and customer.created, then updates with 200 (appends and merges)', async () => {
    const op = await createOperator();
    const created = await createRenter(op, {
      email: 'Ada@Example.TEST',
      phone: '+1 555 010 0200',
      transactions: [{ transactionId: 'tx_1' }],
      additional_info: { shoeSize: 40, nested: { a: 1 } },
      waivers_signed_urls: ['https://w.test/1'],
      stripe_customer_id: 'cus_sim_given',
    });
    expect(created.id).toMatch(/^rnt_/);
    expect(created.email).toBe('ada@example.test');
    expect(created.payment_customer_id).toBe('cus_sim_given');
    expect(created.status).toBe('active');
    const events = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.customerId, op.customerId), eq(webhookEvents.type, 'customer.created')))
      .all();
    expect(events).toHaveLength(1);
    expect((events[0].payload as any).data.id).toBe(created.id);

    const updated = await post(
      '/renters',
      base(op, {
        email: 'ADA@example.test',
        firstName: 'Augusta',
        address: '12 Dock St',
        transactions: [{ transactionId: 'tx_2' }, 'tx_3'],
        additional_info: { nested: { b: 2 }, vip: true },
        waivers_signed_urls: ['https://w.test/1', 'https://w.test/2'],
        id_verifications: { licenseNumber: 'LIC-778899' },
      }),
      { key: op.adminKey },
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.id).toBe(created.id);
    expect(updated.body.firstName).toBe('Augusta');
    expect(updated.body.address).toBe('12 Dock St');
    expect(updated.body.phone).toBe('+1 555 010 0200');
    expect(updated.body.transactions).toEqual([{ transactionId: 'tx_1' }, { transactionId: 'tx_2' }, 'tx_3']);
    expect(updated.body.additional_info).toEqual({ shoeSize: 40, nested: { a: 1, b: 2 }, vip: true });
    expect(updated.body.waivers_signed_urls).toEqual(['https://w.test/1', 'https://w.test/2']);
    expect(updated.body.licenseNumber).toBe('LIC-778899');
    const after = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.customerId, op.customerId), eq(webhookEvents.type, 'customer.created')))
      .all();
    expect(after).toHaveLength(1);
  });

  it('keeps renters of different operators apart even with the same e-mail', async () => {
    const a = await createOperator();
    const b = await createOperator();
    const ra = await createRenter(a);
    const rb = await createRenter(b);
    expect(ra.id).not.toBe(rb.id);
  });

  it('racing first-time upserts of one e-mail make one renter', async () => {
    const op = await createOperator();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => post('/renters', base(op, { transactions: [`tx_${i}`] }), { key: op.adminKey })));
    for (const r of results) expect([200, 201], r.text).toContain(r.status);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const rows = await db().select().from(renters).where(eq(renters.customerId, op.customerId)).all();
    expect(rows).toHaveLength(1);
    expect([...(rows[0].transactions as string[])].sort()).toEqual(['tx_0', 'tx_1', 'tx_2', 'tx_3', 'tx_4']);
  });

  it('validates input: required fields, e-mail, foreign customerId', async () => {
    const op = await createOperator();
    const r = await post('/renters', {}, { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    const fields = new Set(r.body.details.map((d: any) => d.field));
    for (const f of ['firstName', 'lastName', 'email', 'address', 'customerId']) expect(fields.has(f), f).toBe(true);
    expectError(await post('/renters', base(op, { email: 'not-an-email' }), { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/renters', base(op, { dob: '12/01/1990' }), { key: op.adminKey }), 400, 'validation_failed');
    const other = await createOperator();
    expectError(await post('/renters', base(op, { customerId: other.customerId }), { key: op.adminKey }), 403, 'forbidden');
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'POST', path: '/renters', body: base(op), otherStatus: 403 });
  });
});

describe('GET /renters', () => {
  async function seed(op: Operator) {
    const a = await createRenter(op, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test', phone: '(305) 555-0101' });
    const b = await createRenter(op, {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@navy.test',
      phone: '+1 212 555 0199',
      id_verifications: { licenseNumber: 'FL-BOAT-42' },
    });
    const c = await createRenter(op, { firstName: 'Alan', lastName: 'Turing', email: 'alan@bletchley.test' });
    await patch(`/renters/${c.id}`, { status: 'blocked', riskScore: 80 }, { key: op.adminKey });
    await patch(`/renters/${a.id}`, { riskScore: 10 }, { key: op.adminKey });
    return { a, b, c };
  }

  it('searches name, e-mail, phone digits and licence; filters status; sorts; pages', async () => {
    const op = await createOperator();
    const { a, b, c } = await seed(op);
    const q = (s: string) => get(`/renters?customerId=${op.customerId}&${s}`, { key: op.adminKey });
    const ids = (r: any) => r.body.data.map((x: any) => x.id);
    expect(ids(await q('search=lovel'))).toEqual([a.id]);
    expect(ids(await q('search=grace%20hop'))).toEqual([b.id]);
    expect(ids(await q('search=NAVY.test'))).toEqual([b.id]);
    expect(ids(await q('search=3055550101'))).toEqual([a.id]);
    expect(ids(await q('search=boat-42'))).toEqual([b.id]);
    expect(ids(await q('search=100%25'))).toEqual([]);
    expect(ids(await q('status=blocked'))).toEqual([c.id]);
    expect(ids(await q('sortField=lastName&sortDirection=asc'))).toEqual([b.id, a.id, c.id]);
    expect(ids(await q('sortField=riskScore&sortDirection=desc'))).toEqual([c.id, a.id, b.id]);
    const p1 = await q('sortField=email&sortDirection=asc&limit=2&page=1');
    expect(ids(p1)).toEqual([a.id, c.id]);
    expect(p1.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(ids(await q('sortField=email&sortDirection=asc&limit=2&page=2'))).toEqual([b.id]);
    expect(p1.body.data[0].accounting).toBeUndefined();
  });

  it('adds accounting from the ledger and sorts by balance', async () => {
    const op = await createOperator();
    const { a, b } = await seed(op);
    await ledger(op, a.id, 12_500);
    await ledger(op, a.id, -2_500);
    await ledger(op, a.id, 99_900, { affectsBalance: false, entryType: 'deposit_hold' });
    await ledger(op, a.id, 50_000, { deletedAt: new Date().toISOString() });
    await ledger(op, b.id, 500);
    const r = await get(`/renters?customerId=${op.customerId}&includeAccounting=true&sortField=balance&sortDirection=desc`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data[0].id).toBe(a.id);
    expect(r.body.data[0].accounting).toMatchObject({ balanceCents: 10_000, balance: 100, chargesCents: 12_500, creditsCents: 2_500, entryCount: 3 });
    expect(r.body.data[1].accounting.balanceCents).toBe(500);
    expect(r.body.data[2].accounting.balanceCents).toBe(0);
  });

  it('refuses bad queries: missing or foreign customerId, limit over 100, unknown status or sort field', async () => {
    const op = await createOperator();
    const other = await createOperator();
    expectError(await get('/renters', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/renters?customerId=${other.customerId}`, { key: op.adminKey }), 403, 'forbidden');
    expectError(await get(`/renters?customerId=${op.customerId}&limit=101`, { key: op.adminKey }), 400, 'validation_failed');
    expect((await get(`/renters?customerId=${op.customerId}&limit=100`, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/renters?customerId=${op.customerId}&status=gone`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/renters?customerId=${op.customerId}&sortField=password`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/renters?customerId=${op.customerId}&page=0`, { key: op.adminKey }), 400, 'validation_failed');
  });

  it("never lists another operator's renters", async () => {
    const op = await createOperator();
    const other = await createOperator();
    await createRenter(other, { email: 'secret@other.test' });
    const r = await get(`/renters?customerId=${op.customerId}&search=secret`, { key: op.adminKey });
    expect(r.body.data).toEqual([]);
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'GET', path: `/renters?customerId=${op.customerId}`, otherStatus: 403 });
  });
});

describe('GET /renters/export', () => {
  it('CSV parses back to the same rows as the JSON export, across several pages', async () => {
    const op = await createOperator();
    const n = EXPORT_PAGE_SIZE + 37;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId('rnt'),
      customerId: op.customerId,
      firstName: i === 0 ? '=HYPERLINK("http://evil.test")' : `First${i}`,
      lastName: i === 1 ? 'O"Neil, Jr.' : `Last${String(i).padStart(4, '0')}`,
      email: `r${i}@export.test`,
      phone: i % 2 ? `+1 555 ${String(i).padStart(4, '0')}` : null,
      address: i % 3 ? { line1: `${i} Quay`, city: 'Kiel' } : 'Line one\nLine two',
      riskScore: i % 5 ? null : -i,
    }));
    for (let i = 0; i < rows.length; i += 40) await db().batch(rows.slice(i, i + 40).map((r) => db().insert(renters).values(r)) as any);
    await ledger(op, rows[5].id, 4_200);

    const json = await api('GET', `/renters/export?customerId=${op.customerId}&format=JSON&includeAccounting=true&sortField=lastName&sortDirection=asc`, {
      key: op.adminKey,
    });
    expect(json.status, json.text).toBe(200);
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(json.body).toHaveLength(n);

    const csv = await api('GET', `/renters/export?customerId=${op.customerId}&includeAccounting=true&sortField=lastName&sortDirection=asc`, {
      key: op.adminKey,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="renters-\d{4}-\d{2}-\d{2}\.csv"/);
    const parsed = Papa.parse<Record<string, string>>(csv.text, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(n);
    for (let i = 0; i < n; i++) {
      const j = json.body[i];
      const c = parsed.data[i];
      expect(c.id).toBe(j.id);
      expect(c.lastName).toBe(j.lastName);
      expect(c.email).toBe(j.email);
      expect(c.phone).toBe(j.phone ?? '');
      expect(c.address).toBe(typeof j.address === 'string' ? j.address : JSON.stringify(j.address));
      expect(c.riskScore).toBe(j.riskScore == null ? '' : String(j.riskScore));
      expect(Number(c.balanceCents)).toBe(j.accounting.balanceCents);
      if (j.firstName.startsWith('=')) expect(c.firstName).toBe(`'${j.firstName}`);
      else expect(c.firstName).toBe(j.firstName);
    }
    expect(json.body.find((r: any) => r.id === rows[5].id).accounting.balanceCents).toBe(4_200);
  });

  it('an empty export is a header row or an empty array', async () => {
    const op = await createOperator();
    const csv = await api('GET', `/renters/export?customerId=${op.customerId}&format=csv`, { key: op.adminKey });
    expect(csv.text.trim().split('\r\n')).toHaveLength(1);
    expect(csv.text).toContain('id,firstName,lastName,email');
    const json = await api('GET', `/renters/export?customerId=${op.customerId}&format=json&search=nobody`, { key: op.adminKey });
    expect(json.body).toEqual([]);
  });

  it('refuses an unknown format, a foreign customerId and a staff user without the renters permission', async () => {
    const op = await createOperator();
    expectError(await get(`/renters/export?customerId=${op.customerId}&format=xlsx`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/renters/export', { key: op.adminKey }), 400, 'validation_failed');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await get(`/renters/export?customerId=${op.customerId}`, { key: staff.key }), 403, 'forbidden');
    const clerk = await op.addUser({ role: 'staff', permissions: ['renters'] });
    expect((await get(`/renters/export?customerId=${op.customerId}`, { key: clerk.key })).status).toBe(200);
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'GET', path: `/renters/export?customerId=${op.customerId}`, otherStatus: 403 });
  });
});

describe('GET /renters/search-suggestions', () => {
  it('suggests by partial name, e-mail or phone; needs 2 characters', async () => {
    const op = await createOperator();
    const a = await createRenter(op, { firstName: 'Marie', lastName: 'Curie', email: 'marie@radium.test' });
    await createRenter(op, { firstName: 'Pierre', lastName: 'Curie', email: 'pierre@radium.test' });
    await createRenter(op, { firstName: 'Niels', lastName: 'Bohr', email: 'niels@copenhagen.test' });
    const r = await get(`/renters/search-suggestions?customerId=${op.customerId}&query=cur`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((s: any) => s.firstName)).toEqual(['Marie', 'Pierre']);
    expect(r.body.data[0]).toMatchObject({ id: a.id, label: 'Marie Curie <marie@radium.test>' });
    expectError(await get(`/renters/search-suggestions?customerId=${op.customerId}&query=c`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/renters/search-suggestions?customerId=${op.customerId}`, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'GET', path: `/renters/search-suggestions?customerId=${op.customerId}&query=ab`, otherStatus: 403 });
  });
});

describe('GET /renters/{id}', () => {
  it('answers the renter with accounting; unknown id 404', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await ledger(op, a.id, 3_000, { occurredAt: '2026-01-02T10:00:00.000Z' });
    await ledger(op, a.id, -1_000, { occurredAt: '2026-01-05T10:00:00.000Z' });
    const r = await get(`/renters/${a.id}`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.accounting).toEqual({
      balanceCents: 2_000,
      balance: 20,
      chargesCents: 3_000,
      creditsCents: 1_000,
      entryCount: 2,
      lastEntryAt: '2026-01-05T10:00:00.000Z',
      accountCreditCents: 0,
      accountCredit: 0,
    });
    expectError(await get('/renters/rnt_nope', { key: op.adminKey }), 404, 'not_found');
  });

  it('security', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await checkSecurity(op, { method: 'GET', path: `/renters/${a.id}`, otherStatus: 404 });
  });
});

describe('PATCH /renters/{id}', () => {
  it('adds notes, appends transactions, sets risk score and status, merges additional_info', async () => {
    const op = await createOperator();
    const a = await createRenter(op, { transactions: ['tx_0'], additional_info: { a: 1 } });
    const r = await patch(
      `/renters/${a.id}`,
      {
        add_note: true,
        note: { text: 'Prefers the pontoon' },
        transactions: ['tx_1'],
        riskScore: 42.5,
        status: 'inactive',
        additional_info: { b: 2, a: null },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.notes).toHaveLength(1);
    expect(r.body.notes[0]).toMatchObject({ text: 'Prefers the pontoon', createdBy: op.adminId });
    expect(r.body.notes[0].id).toMatch(/^note_/);
    expect(r.body.transactions).toEqual(['tx_0', 'tx_1']);
    expect(r.body.riskScore).toBe(42.5);
    expect(r.body.status).toBe('inactive');
    expect(r.body.additional_info).toEqual({ b: 2 });
    expect(r.body.accounting.balanceCents).toBe(0);
    const r2 = await patch(`/renters/${a.id}`, { add_note: true, note: { text: 'Second' } }, { key: op.adminKey });
    expect(r2.body.notes.map((n: any) => n.text)).toEqual(['Prefers the pontoon', 'Second']);
  });

  it('keeps every append when updates race', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(`/renters/${a.id}`, { transactions: [{ n: i }], add_note: true, note: { n: i } }, { key: op.adminKey })),
    );
    for (const r of rs) expect(r.status, r.text).toBe(200);
    const final = await get(`/renters/${a.id}`, { key: op.adminKey });
    expect(final.body.transactions.map((t: any) => t.n).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(final.body.notes).toHaveLength(6);
  });

  it('answers 400 for no valid field, invalid values or add_note without a note; 409 for a taken e-mail', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await createRenter(op, { email: 'taken@example.test' });
    expectError(await patch(`/renters/${a.id}`, {}, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch(`/renters/${a.id}`, { favouriteColour: 'blue' }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch(`/renters/${a.id}`, { riskScore: 'high' }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await patch(`/renters/${a.id}`, { status: 'vip' }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await patch(`/renters/${a.id}`, { transactions: 'tx' }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await patch(`/renters/${a.id}`, { add_note: true }, { key: op.adminKey }), 400, 'bad_request');
    expectError(await patch(`/renters/${a.id}`, { email: 'TAKEN@example.test' }, { key: op.adminKey }), 409, 'already_exists');
    expectError(await patch('/renters/rnt_nope', { status: 'active' }, { key: op.adminKey }), 404, 'not_found');
    const ok = await patch(`/renters/${a.id}`, { email: 'New@Example.test', firstName: 'Ada B.' }, { key: op.adminKey });
    expect(ok.body).toMatchObject({ email: 'new@example.test', firstName: 'Ada B.' });
  });

  it('security', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await checkSecurity(op, { method: 'PATCH', path: `/renters/${a.id}`, body: { status: 'inactive' }, otherStatus: 404 });
  });
});

describe('DELETE /renters/{id}', () => {
  it('deletes the renter and its payment-provider customer; a later upsert restores it', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    const pm = await post(`/renters/${a.id}/payment-method`, { payment_method_id: 'pm_card_visa' }, { key: op.adminKey });
    const payCustomer = pm.body.payment_customer_id;
    await ledger(op, a.id, 700);
    const r = await del(`/renters/${a.id}`, undefined, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, id: a.id, paymentCustomerDeleted: true });
    const sim = await db().select().from(simCustomers).where(eq(simCustomers.id, payCustomer)).get();
    expect(sim?.deleted).toBe(true);
    expectError(await get(`/renters/${a.id}`, { key: op.adminKey }), 404);
    expectError(await del(`/renters/${a.id}`, undefined, { key: op.adminKey }), 404);
    const list = await get(`/renters?customerId=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data).toEqual([]);
    const journal = await get(`/renters/journal-entries/${a.id}`, { key: op.adminKey });
    expect(journal.body.data).toHaveLength(1);
    const back = await post('/renters', base(op), { key: op.adminKey });
    expect(back.status).toBe(200);
    expect(back.body.id).toBe(a.id);
    expect(back.body.payment_customer_id).toBeNull();
  });

  it('needs the renters permission', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await del(`/renters/${a.id}`, undefined, { key: staff.key }), 403, 'forbidden');
  });

  it('security', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await checkSecurity(op, { method: 'DELETE', path: `/renters/${a.id}`, otherStatus: 404 });
  });
});

describe('renter payment methods', () => {
  it('attaches a payment method as the default and lists them', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    const none = await get(`/renters/${a.id}/payment-methods`, { key: op.adminKey });
    expect(none.body).toEqual({ renterId: a.id, payment_customer_id: null, data: [] });
    const one = await post(`/renters/${a.id}/payment-method`, { payment_method_id: 'pm_card_visa' }, { key: op.adminKey });
    expect(one.status, one.text).toBe(200);
    expect(one.body.paymentMethod).toMatchObject({ brand: 'visa', last4: '4242', isDefault: true });
    const two = await post(`/renters/${a.id}/payment-method`, { payment_method_id: 'pm_card_mastercard' }, { key: op.adminKey });
    expect(two.body.payment_customer_id).toBe(one.body.payment_customer_id);
    const list = await get(`/renters/${a.id}/payment-methods`, { key: op.adminKey });
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data.find((m: any) => m.isDefault).last4).toBe('4444');
    const renter = await get(`/renters/${a.id}`, { key: op.adminKey });
    expect(renter.body.payment_customer_id).toBe(one.body.payment_customer_id);
  });

  it('refuses an unknown payment method and a missing one', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    expectError(await post(`/renters/${a.id}/payment-method`, { payment_method_id: 'pm_made_up' }, { key: op.adminKey }), 400, 'invalid_payment_method');
    expectError(await post(`/renters/${a.id}/payment-method`, {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/renters/rnt_nope/payment-method', { payment_method_id: 'pm_card_visa' }, { key: op.adminKey }), 404);
  });

  it('security', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await checkSecurity(op, { method: 'POST', path: `/renters/${a.id}/payment-method`, body: { payment_method_id: 'pm_card_visa' }, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/renters/${a.id}/payment-methods`, otherStatus: 404 });
  });
});

describe('GET /owing/renters and journal entries', () => {
  it('lists renters owing at least one dollar as of a date', async () => {
    const op = await createOperator();
    const a = await createRenter(op, { email: 'a@owe.test' });
    const b = await createRenter(op, { email: 'b@owe.test' });
    const c = await createRenter(op, { email: 'c@owe.test' });
    const d = await createRenter(op, { email: 'd@owe.test' });
    await ledger(op, a.id, 100, { occurredAt: '2026-03-01T12:00:00.000Z' }); // exactly 1 dollar
    await ledger(op, b.id, 99, { occurredAt: '2026-03-01T12:00:00.000Z' }); // 99 cents
    await ledger(op, c.id, 5_000, { occurredAt: '2026-03-01T12:00:00.000Z' });
    await ledger(op, c.id, 10_000, { occurredAt: '2026-03-20T12:00:00.000Z' }); // after the date
    await ledger(op, d.id, 9_000, { occurredAt: '2026-03-01T12:00:00.000Z', affectsBalance: false });
    await ledger(op, d.id, 9_000, { occurredAt: '2026-03-01T12:00:00.000Z', deletedAt: '2026-03-02T00:00:00.000Z' });
    const other = await createOperator();
    const o = await createRenter(other, { email: 'o@owe.test' });
    await ledger(other, o.id, 100_000);

    const r = await get('/owing/renters?asOfDate=2026-03-15', { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((x: any) => [x.renterId, x.balanceCents])).toEqual([
      [c.id, 5_000],
      [a.id, 100],
    ]);
    expect(r.body).toMatchObject({ asOfDate: '2026-03-15', total: 2, totalOwedCents: 5_100, totalOwed: 51 });
    const later = await get('/owing/renters?asOfDate=2026-03-20T12:00:00Z', { key: op.adminKey });
    expect(later.body.data[0]).toMatchObject({ renterId: c.id, balanceCents: 15_000, balance: 150 });
    const now = await get('/owing/renters', { key: op.adminKey });
    expect(now.body.total).toBe(2);
    expectError(await get('/owing/renters?asOfDate=yesterday', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/owing/renters?customerId=${other.customerId}`, { key: op.adminKey }), 403, 'forbidden');
  });

  it('journal entries: non-deleted entries in order with the balance', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await ledger(op, a.id, -2_000, { occurredAt: '2026-02-02T00:00:00.000Z', description: 'Card payment' });
    await ledger(op, a.id, 15_000, { occurredAt: '2026-02-01T00:00:00.000Z', description: 'Pontoon 4h', transactionId: 'txn_1' });
    await ledger(op, a.id, 900, { occurredAt: '2026-02-03T00:00:00.000Z', deletedAt: '2026-02-04T00:00:00.000Z' });
    await ledger(op, a.id, 30_000, { occurredAt: '2026-02-03T00:00:00.000Z', affectsBalance: false, entryType: 'deposit_hold' });
    const r = await get(`/renters/journal-entries/${a.id}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: any) => e.amountCents)).toEqual([15_000, -2_000, 30_000]);
    expect(r.body.data[0]).toMatchObject({ amount: 150, description: 'Pontoon 4h', transactionId: 'txn_1', affectsBalance: true });
    expect(r.body.balanceCents).toBe(13_000);
    expectError(await get('/renters/journal-entries/rnt_nope', { key: op.adminKey }), 404);
  });

  it('security', async () => {
    const op = await createOperator();
    const a = await createRenter(op);
    await checkSecurity(op, { method: 'GET', path: '/owing/renters' });
    await checkSecurity(op, { method: 'GET', path: `/renters/journal-entries/${a.id}`, otherStatus: 404 });
  });
});
