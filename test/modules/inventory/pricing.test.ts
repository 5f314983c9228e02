import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get, post } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { createItem, rentalData, tourData } from './helpers';

describe('GET /inventory-pricing', () => {
  it('returns seasons, hourly rates, tour pricing, add-ons, taxes and schedule exceptions', async () => {
    const op = await createOperator();
    const item = await createItem(
      op,
      rentalData(op, {
        seasons: [
          { name: 'Always', dailyPrices: { Monday: 500 }, hourlyPrices: { Monday: 90, Tuesday: { basePrice: 95, minimumHours: 2 } } },
          { name: 'Peak', startDate: '2026-07-01', endDate: '2026-08-31', dailyPrices: { Saturday: 900 } },
        ],
        scheduleExceptions: [{ date: '2026-12-25', closed: true, note: 'Christmas' }],
        deposit: { amount: 500, required: true },
      }),
    );
    for (const q of [`inventory_id=${item.inventory_id}`, `inventoryId=${item.inventory_id}`]) {
      const r = await get(`/inventory-pricing?${q}`, { key: op.adminKey });
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        inventory_id: item.inventory_id,
        inventoryId: item.inventory_id,
        kind: 'rental',
        currency: 'usd',
        timezone: 'America/New_York',
        version: 1,
      });
      expect(r.body.data.seasons).toHaveLength(2);
      expect(r.body.data.hourlyPrices).toEqual({ Monday: { basePrice: 90 }, Tuesday: { basePrice: 95, minimumHours: 2 } });
      expect(r.body.data.dailyPrices).toEqual({ Monday: 500 });
      expect(r.body.data.addons[0].addonId).toBe('cooler');
      expect(r.body.data.taxes[0]).toMatchObject({ name: 'Sales tax', rate: 7, appliesTo: 'all' });
      expect(r.body.data.scheduleExceptions[0]).toMatchObject({ date: '2026-12-25', closed: true });
      expect(r.body.data.deposit).toEqual({ amount: 500, required: true });
      expect(r.body.data.tourPricing).toBeNull();
    }
  });

  it("needs inventory_id (400); unknown or another operator's item is 404", async () => {
    const op = await createOperator();
    expectError(await get('/inventory-pricing', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/inventory-pricing?inventory_id=inv_nope', { key: op.adminKey }), 404, 'not_found');
    const intruder = await otherOperator();
    const theirs = await createItem(intruder, rentalData(intruder));
    expectError(await get(`/inventory-pricing?inventory_id=${theirs.inventory_id}`, { key: op.adminKey }), 404, 'not_found');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, { method: 'GET', path: `/inventory-pricing?inventory_id=${item.inventory_id}`, otherStatus: 404 });
  });
});

describe('POST /inventory-pricing', () => {
  it('replaces the given pricing fields, keeps the rest and bumps the version', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const r = await post(
      '/inventory-pricing',
      {
        data: {
          inventory_id: item.inventory_id,
          seasons: [{ name: 'Winter', startDate: '11-01', endDate: '02-28', dailyPrices: { Sunday: 400 }, hourlyPrices: { Sunday: 70 } }],
          addons: [{ addonId: 'tube', name: 'Tube', price: 40, priceType: 'per_day' }],
          taxes: [{ name: 'Florida sales tax', rate: 7 }],
          scheduleExceptions: [{ date: '2026-07-04', open: '10:00', close: '14:00' }],
        },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, version: 2 });
    expect(r.body.data.seasons[0]).toMatchObject({ name: 'Winter', startDate: '11-01', endDate: '02-28', hourlyPrices: { Sunday: { basePrice: 70 } } });
    expect(r.body.data.addons).toEqual([{ addonId: 'tube', name: 'Tube', price: 40, priceType: 'per_day', taxable: true, maxQuantity: 10 }]);
    expect(r.body.data.taxes[0].name).toBe('Florida sales tax');
    // Other settings of the item are untouched.
    const list = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data[0].assets).toHaveLength(2);
    expect(list.body.data[0].data.capacity).toBe(8);
    expect(list.body.data[0].version).toBe(2);
  });

  it('merges top-level hourlyPrices and dailyPrices into the all-year season (created when missing)', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const r = await post(
      '/inventory-pricing',
      { data: { inventoryId: item.inventory_id, hourlyPrices: { Friday: 110 }, dailyPrices: { Friday: 700 } } },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.seasons).toHaveLength(2);
    expect(r.body.data.seasons[1]).toMatchObject({ name: 'Default', hourlyPrices: { Friday: { basePrice: 110 } }, dailyPrices: { Friday: 700 } });
    const again = await post(
      '/inventory-pricing',
      { data: { inventoryId: item.inventory_id, hourlyPrices: { Saturday: { basePrice: 130, minimumHours: 3 } } } },
      { key: op.adminKey },
    );
    expect(again.body.data.seasons).toHaveLength(2);
    expect(again.body.data.hourlyPrices).toEqual({ Friday: { basePrice: 110 }, Saturday: { basePrice: 130, minimumHours: 3 } });
    expect(again.body.version).toBe(3);
  });

  it('updates tour pricing and removes it with null', async () => {
    const op = await createOperator();
    const tour = await createItem(op, tourData(op));
    const r = await post(
      '/inventory-pricing',
      {
        data: {
          inventory_id: tour.inventory_id,
          tourPricing: {
            priceTiers: [{ name: 'Adult', price: 70, isStandard: true }],
            minParticipants: 4,
            isPrivate: true,
            privatePricing: { basePrice: 600, baseHeadcount: 6, extraParticipantPrice: 50 },
          },
        },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.tourPricing).toMatchObject({
      minParticipants: 4,
      isPrivate: true,
      privatePricing: { basePrice: 600, baseHeadcount: 6, extraParticipantPrice: 50 },
    });
    const cleared = await post('/inventory-pricing', { data: { inventory_id: tour.inventory_id, tourPricing: null } }, { key: op.adminKey });
    expect(cleared.body.data.tourPricing).toBeNull();
  });

  it('validates with the model and refuses unknown fields', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const bad = async (data: Record<string, unknown>, field: string) => {
      const r = await post('/inventory-pricing', { data: { inventory_id: item.inventory_id, ...data } }, { key: op.adminKey });
      expectError(r, 400);
      expect(r.body.details.map((d: any) => d.field).join(' '), JSON.stringify(data)).toContain(field);
    };
    await bad({ seasons: [{ name: 'X', startDate: '02-30', endDate: '03-10' }] }, 'data.seasons.0.startDate');
    await bad({ hourlyPrices: { Monday: -1 } }, 'data.hourlyPrices.Monday');
    await bad({ hourlyPrices: { Someday: 10 } }, 'data.hourlyPrices');
    await bad({ addons: [{ addonId: 'a', name: 'A', price: 1, priceType: 'per_week' }] }, 'data.addons.0.priceType');
    await bad({ taxes: [{ name: 'Too much', rate: 250 }] }, 'data.taxes.0.rate');
    await bad({ capacity: 3 }, 'data');
    expectError(await post('/inventory-pricing', { data: { inventory_id: item.inventory_id } }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await post('/inventory-pricing', { data: { taxes: [] } }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/inventory-pricing', {}, { key: op.adminKey }), 400, 'validation_failed');
    const stale = await post('/inventory-pricing', { data: { inventory_id: item.inventory_id, taxes: [], expectedVersion: 7 } }, { key: op.adminKey });
    expectError(stale, 409, 'version_conflict');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, {
      method: 'POST',
      path: '/inventory-pricing',
      body: { data: { inventory_id: item.inventory_id, taxes: [] } },
      otherStatus: 404,
      adminOnly: true,
    });
  });
});
