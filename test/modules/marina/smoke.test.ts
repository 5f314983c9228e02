import { describe, it, expect } from 'vitest';
import { get, post } from '../../harness';
import { marinaOperator, makeSlip, reserve } from './helpers';

describe('marina smoke', () => {
  it('creates a slip and a reservation', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op);
    const r = await reserve(op, s.id);
    expect(r.status, r.text).toBe(201);
    const g = await get(`/slip-reservations/${r.body.id}`, { key: op.adminKey });
    expect(g.status, g.text).toBe(200);
    const a = await get(`/slips/availability?locationId=${op.locationId}&arrivalDate=${r.body.arrivalDate}&departureDate=${r.body.departureDate}&includeRefused=true&loaFt=30`, { key: op.adminKey });
    expect(a.status, a.text).toBe(200);
    expect(a.body.refused[0].reasons).toEqual(['reserved']);
    const t = await post('/slip-contracts/templates', { name: 'Std', title: 'Slip agreement {{reservation.number}}', body: 'Between {{marina.name}} and {{renter.fullName}}', isDefault: true }, { key: op.adminKey });
    expect(t.status, t.text).toBe(201);
    const c = await post('/slip-contracts/generate', { reservationId: r.body.id }, { key: op.adminKey });
    expect(c.status, c.text).toBe(201);
  });
});
