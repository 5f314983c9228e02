/**
 * Slips, the slip subscription, the fit rules at their boundaries, marina maps and slip settings.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, get, patch, post, put } from '../../harness';
import { day, makeSlip, marinaOperator } from './helpers';

const key = (op: { adminKey: string }) => ({ key: op.adminKey });
const simQuantity = async (subId: string) => (await env.DB.prepare('SELECT quantity FROM sim_subscriptions WHERE id = ?').bind(subId).first<any>())?.quantity;

describe('slip subscription', () => {
  it('creating slips needs an active subscription; slips above the quota are billed automatically at 10 dollars', async () => {
    const op = await createOperator();
    const none = await get('/slip-subscription/status', key(op));
    expect(none.body).toMatchObject({ status: 'none', active: false });
    expectError(await post('/slips', { locationId: op.locationId, unitNumber: 'X1' }, key(op)), 402, 'slip_subscription_required');
    const co = await post('/slip-subscription/create-checkout', { quota: 2 }, key(op));
    expect(co.status, co.text).toBe(201);
    expect(co.body.url).toContain('session_id=');
    expectError(await post('/slip-subscription/create-checkout', { quota: 2 }, key(op)), 409, 'already_exists');
    const sub = co.body.subscription.providerSubscriptionId;
    expect(await simQuantity(sub)).toBe(2);
    const bulk = await post('/slips/bulk-create', { locationId: op.locationId, prefix: 'D-', start: 1, end: 3, lengthFt: 30 }, key(op));
    expect(bulk.status, bulk.text).toBe(201);
    let st = await get('/slip-subscription/status', key(op));
    expect(st.body).toMatchObject({ quota: 2, slipsInService: 3, extraSlips: 1, billedQuantity: 3, unitPriceCents: 1000, monthlyAmountCents: 3000 });
    expect(await simQuantity(sub)).toBe(3);
    await api('DELETE', `/slips/${bulk.body.data[0].id}`, key(op));
    expect(await simQuantity(sub)).toBe(2);
    st = (await post('/slip-subscription/add-slips', { count: 3 }, key(op))).body;
    expect(st).toMatchObject({ quota: 5, billedQuantity: 5 });
    expect(await simQuantity(sub)).toBe(5);
    const portal = await post('/slip-subscription/portal', {}, key(op));
    expect(portal.body.url).toContain('portal_session=');
    const cancel = await post('/slip-subscription/cancel', {}, key(op));
    expect(cancel.body).toMatchObject({ cancelAtPeriodEnd: true, active: true });
  });
});

describe('slips', () => {
  it('create, unique unit numbers, bulk create is atomic, sections, search, stats, bulk update, status and soft delete', async () => {
    const op = await marinaOperator(100);
    const a = await post(
      '/slips',
      { locationId: op.locationId, unitNumber: 'A-1', section: 'A', lengthFt: 30, power: { amps: [30, 50] }, water: true },
      key(op),
    );
    expect(a.status, a.text).toBe(201);
    expect(a.body).toMatchObject({
      unitNumber: 'A-1',
      status: 'available',
      unitType: 'slip',
      power: { amps: [30, 50], volts: null, phase: null },
      water: true,
    });
    expectError(await post('/slips', { locationId: op.locationId, unitNumber: 'A-1' }, key(op)), 409, 'already_exists');
    const dup = await post('/slips/bulk-create', { locationId: op.locationId, prefix: 'A-', start: 0, end: 4, section: 'A' }, key(op));
    expectError(dup, 409, 'already_exists');
    expect(dup.body.existingUnitNumbers).toEqual(['A-1']);
    expect((await get(`/slips?locationId=${op.locationId}`, key(op))).body.total).toBe(1);
    const ok = await post('/slips/bulk-create', { locationId: op.locationId, prefix: 'A-', start: 2, end: 11, section: 'A', lengthFt: 30 }, key(op));
    expect(ok.body.created).toBe(10);
    const b = await post(
      '/slips/bulk-create',
      { locationId: op.locationId, prefix: 'B', start: 1, end: 3, padding: 3, section: 'B', unitType: 'mooring' },
      key(op),
    );
    expect(b.body.data.map((x: any) => x.unitNumber)).toEqual(['B001', 'B002', 'B003']);
    const list = await get(`/slips?locationId=${op.locationId}&section=A&limit=3`, key(op));
    expect(list.body.total).toBe(11);
    expect(list.body.data.map((x: any) => x.unitNumber)).toEqual(['A-1', 'A-2', 'A-3']);
    expect((await get(`/slips/sections?locationId=${op.locationId}`, key(op))).body.data).toEqual(['A', 'B']);
    const ren = await put('/slips/sections/rename', { locationId: op.locationId, from: 'B', to: 'Moorings' }, key(op));
    expect(ren.body.updated).toBe(3);
    const counts = await get(`/slips/sections/counts?locationId=${op.locationId}`, key(op));
    expect(counts.body.data).toEqual([
      { section: 'A', total: 11, byStatus: { available: 11 } },
      { section: 'Moorings', total: 3, byStatus: { available: 3 } },
    ]);
    expect((await api('DELETE', `/slips/sections/Moorings?locationId=${op.locationId}`, key(op))).body.updated).toBe(3);
    expect((await get(`/slips/sections/counts?locationId=${op.locationId}`, key(op))).body.unsectioned).toBe(3);
    const search = await get(`/slips/search?q=a-1&locationId=${op.locationId}`, key(op));
    expect(search.body.data[0].unitNumber).toBe('A-1');
    expect(search.body.data.map((x: any) => x.unitNumber)).toContain('A-10');
    const bu = await put('/slips/bulk', { slipIds: [ok.body.data[0].id, ok.body.data[1].id], changes: { status: 'maintenance', depthFt: 6 } }, key(op));
    expect(bu.body.updated).toBe(2);
    expectError(await put('/slips/bulk', { slipIds: [ok.body.data[0].id, 'slp_nope'], changes: { depthFt: 7 } }, key(op)), 404);
    expect((await get(`/slips/${ok.body.data[0].id}`, key(op))).body.depthFt).toBe(6);
    expect((await patch(`/slips/${a.body.id}/status`, { status: 'reserved' }, key(op))).body.status).toBe('reserved');
    expect((await api('DELETE', `/slips/${a.body.id}`, key(op))).body.status).toBe('out_of_service');
    const stats = await get(`/slips/stats?locationId=${op.locationId}`, key(op));
    expect(stats.body).toMatchObject({
      total: 14,
      inService: 13,
      byStatus: { out_of_service: 1, maintenance: 2, available: 11 },
      byUnitType: { slip: 11, mooring: 3 },
    });
    const upd = await put(`/slips/${a.body.id}`, { name: 'Sunset', unitNumber: 'A-99' }, key(op));
    expect(upd.body).toMatchObject({ name: 'Sunset', unitNumber: 'A-99' });
    expectError(await put(`/slips/${a.body.id}`, { unitNumber: 'A-2' }, key(op)), 409, 'already_exists');
  });
});

describe('fit rules at their boundaries', () => {
  it('length with overhang, beam with side clearance, draft with under-keel clearance, air draft; each refusal says by how much', async () => {
    const op = await marinaOperator();
    const s = await makeSlip(op, { lengthFt: 40, maxLoaFt: 40, widthFt: 14, depthFt: 8, overheadClearanceFt: 20 });
    const q = (b: Record<string, number>) =>
      get(
        `/slips/availability?locationId=${op.locationId}&arrivalDate=${day(op, 30)}&departureDate=${day(op, 31)}&includeRefused=true&${new URLSearchParams(
          Object.entries(b).map(([k, v]): [string, string] => [k, String(v)]),
        )}`,
        key(op),
      );
    const fits = async (b: Record<string, number>) => {
      const r = await q(b);
      expect(r.status, r.text).toBe(200);
      return r.body.data.some((x: any) => x.id === s.id) ? [] : r.body.refused.find((x: any) => x.slipId === s.id).fit;
    };
    // Defaults: overhang 0, side clearance 1 (beam + 2 ≤ 14), under-keel 1 (draft + 1 ≤ 8).
    expect(await fits({ loaFt: 40, beamFt: 12, draftFt: 7, airDraftFt: 20 })).toEqual([]);
    expect(await fits({ loaFt: 40.01 })).toEqual([expect.objectContaining({ dimension: 'length', requiredFt: 40.01, availableFt: 40, shortByFt: 0.01 })]);
    expect(await fits({ loaFt: 30, beamFt: 12.01 })).toEqual([
      expect.objectContaining({ dimension: 'beam', requiredFt: 14.01, availableFt: 14, shortByFt: 0.01 }),
    ]);
    expect(await fits({ loaFt: 30, draftFt: 7.5 })).toEqual([expect.objectContaining({ dimension: 'draft', requiredFt: 8.5, availableFt: 8, shortByFt: 0.5 })]);
    expect(await fits({ loaFt: 30, airDraftFt: 20.25 })).toEqual([expect.objectContaining({ dimension: 'air_draft', shortByFt: 0.25 })]);
    const all = await fits({ loaFt: 41, beamFt: 13, draftFt: 8, airDraftFt: 21 });
    expect(all.map((f: any) => [f.dimension, f.shortByFt])).toEqual([
      ['length', 1],
      ['beam', 1],
      ['draft', 1],
      ['air_draft', 1],
    ]);
    await put(`/slip-settings/${op.locationId}`, { clearances: { overhangAllowanceFt: 2, sideClearanceFt: 0.5, underKeelClearanceFt: 0 } }, key(op));
    expect(await fits({ loaFt: 42, beamFt: 13, draftFt: 8 })).toEqual([]);
    expect((await fits({ loaFt: 42.01 }))[0]).toMatchObject({ dimension: 'length', availableFt: 42, shortByFt: 0.01 });
    // Creating a reservation for a boat that does not fit answers 409 with the same refusals; overrideFit books it anyway.
    const body = {
      slipId: s.id,
      rateType: 'nightly',
      arrivalDate: day(op, 30),
      departureDate: day(op, 31),
      boat: { vesselName: 'Big', loaFt: 45, beamFt: 13 },
      renter: { firstName: 'A', lastName: 'B', email: 'fit@example.test' },
    };
    const no = await post('/slip-reservations', body, key(op));
    expectError(no, 409, 'slip_does_not_fit');
    expect(no.body.fit[0]).toMatchObject({ dimension: 'length', shortByFt: 3 });
    expect((await post('/slip-reservations', { ...body, overrideFit: true }, key(op))).status).toBe(201);
    const check = await get(`/slip-reservations/check-availability?slipId=${s.id}&arrivalDate=${day(op, 30)}&departureDate=${day(op, 31)}&loaFt=30`, key(op));
    expect(check.body).toMatchObject({ available: false, free: false, fits: true, open: true });
    expect(check.body.conflicts).toHaveLength(1);
  });
});

describe('marina maps', () => {
  it('maps per location, display order, pins (batch is atomic), unassigned slips, toggle, delete', async () => {
    const op = await marinaOperator();
    const [s1, s2, s3] = [await makeSlip(op), await makeSlip(op), await makeSlip(op)];
    const m1 = await post('/slips/maps', { locationId: op.locationId, name: 'North basin' }, key(op));
    expect(m1.status, m1.text).toBe(201);
    const m2 = await post('/slips/maps', { locationId: op.locationId, name: 'South basin' }, key(op));
    expect(m2.body.displayOrder).toBe(1);
    const order = await put('/slips/maps/reorder', { locationId: op.locationId, mapIds: [m2.body.mapId] }, key(op));
    expect(order.body.data.map((m: any) => m.name)).toEqual(['South basin', 'North basin']);
    const bad = await put(
      '/slips/maps/batch-pins',
      {
        mapId: m1.body.mapId,
        pins: [
          { slipId: s1.id, x: 10, y: 20 },
          { slipId: 'slp_missing', x: 1, y: 1 },
        ],
      },
      key(op),
    );
    expectError(bad, 404);
    expect((await get(`/slips/maps/${m1.body.mapId}/pins`, key(op))).body.data).toEqual([]);
    const ok = await put(
      '/slips/maps/batch-pins',
      {
        mapId: m1.body.mapId,
        pins: [
          { slipId: s1.id, x: 10, y: 20, rotation: 90 },
          { slipId: s2.id, x: 30, y: 20 },
        ],
      },
      key(op),
    );
    expect(ok.body.data.map((p: any) => p.slipId).sort()).toEqual([s1.id, s2.id].sort());
    expect((await get(`/slips/maps/${op.locationId}/unassigned`, key(op))).body.data.map((x: any) => x.id)).toEqual([s3.id]);
    const assign = await put(`/slips/${s3.id}/map-pin`, { mapId: m2.body.mapId, x: 50, y: 50 }, key(op));
    expect(assign.body.pin).toMatchObject({ x: 50, y: 50 });
    expect((await patch(`/slips/${s3.id}/map-pin`, { x: 55, y: 60 }, key(op))).body.pin).toMatchObject({ x: 55, y: 60 });
    expect((await get(`/slips/${s3.id}`, key(op))).body.mapPosition).toEqual({ mapId: m2.body.mapId, x: 55, y: 60, rotation: null });
    expect((await api('DELETE', `/slips/${s3.id}/map-pin`, key(op))).body.removed).toBe(true);
    expect((await patch(`/slips/maps/${m1.body.mapId}/toggle-active`, undefined, key(op))).body.isActive).toBe(false);
    const list = await get(`/slips/maps/${op.locationId}?activeOnly=true`, key(op));
    expect(list.body.data.map((m: any) => m.name)).toEqual(['South basin']);
    const one = await get(`/slips/maps/${m1.body.mapId}`, key(op));
    expect(one.body).toMatchObject({ name: 'North basin', pinCount: 2 });
    expect((await put(`/slips/maps/${m1.body.mapId}`, { name: 'North' }, key(op))).body.name).toBe('North');
    const del = await api('DELETE', `/slips/maps/${m1.body.mapId}`, key(op));
    expect(del.body).toMatchObject({ deleted: true, unpinnedSlips: 2 });
    expect((await get(`/slips/maps/${op.locationId}/unassigned`, key(op))).body.total).toBe(3);
  });
});

describe('slip settings', () => {
  it('defaults merged, partial update, validation, reset, available templates', async () => {
    const op = await createOperator();
    const d = await get(`/slip-settings/${op.locationId}`, key(op));
    expect(d.body).toMatchObject({
      isCustomized: false,
      billHoldHours: 48,
      clearances: { sideClearanceFt: 1, underKeelClearanceFt: 1, overhangAllowanceFt: 0 },
    });
    const u = await put(`/slip-settings/${op.locationId}`, { billHoldHours: 24, rates: { nightlyPerFootCents: 500 } }, key(op));
    expect(u.body).toMatchObject({ isCustomized: true, billHoldHours: 24, rates: { nightlyPerFootCents: 500, monthlyPerFootCents: 2500 } });
    expectError(await put(`/slip-settings/${op.locationId}`, { deposit: { policy: 'percent' } }, key(op)), 400, 'validation_failed');
    expectError(await put(`/slip-settings/${op.locationId}`, { nope: true }, key(op)), 400, 'validation_failed');
    const r = await post(`/slip-settings/${op.locationId}/reset`, {}, key(op));
    expect(r.body).toMatchObject({ isCustomized: false, billHoldHours: 48 });
    const t = await post('/slip-contracts/templates', { name: 'Loc', title: 'T', body: 'B', locationId: op.locationId, isDefault: true }, key(op));
    const g = await post('/slip-contracts/templates', { name: 'All', title: 'T', body: 'B' }, key(op));
    const list = await get(`/slip-settings/${op.locationId}/templates`, key(op));
    expect(list.body.defaultTemplateId).toBe(t.body.id);
    expect(list.body.data.map((x: any) => [x.name, x.isLocationDefault])).toEqual([
      ['Loc', true],
      ['All', false],
    ]);
    await put(`/slip-settings/${op.locationId}`, { defaultContractTemplateId: g.body.id }, key(op));
    expect((await get(`/slip-settings/${op.locationId}/templates`, key(op))).body.defaultTemplateId).toBe(g.body.id);
  });
});
