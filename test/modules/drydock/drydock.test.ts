/** Drydock CRUD: blocks an item or chosen assets through the item's lock. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { assetOverlaps, at, book, bookBody, dateAhead, rentalItem, tourItem } from '../bookings/factories';

const dd = (op: Operator, body: unknown, key = op.adminKey) => post('/drydock', body, { key });

describe('/drydock', () => {
  it('validates input: required fields, invalid dates, end before start', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    expectError(await dd(op, {}), 400, 'validation_failed');
    expectError(await get('/drydock', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await patch('/drydock', {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await del('/drydock', {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await dd(op, { boatId: item.id, startDate: '2026-02-30', endDate: '2026-03-02' }), 400, 'bad_request');
    expectError(await dd(op, { boatId: item.id, startDate: 'tomorrow!!', endDate: '2026-03-02' }), 400);
    expectError(await dd(op, { boatId: item.id, startDate: '2027-03-05', endDate: '2027-03-02' }), 400, 'bad_request');
    expectError(await dd(op, { boatId: item.id, startDate: '2027-03-01', endDate: '2027-03-02', assetIds: ['ast_nope'] }), 400, 'bad_request');
    expectError(await dd(op, { boatId: 'inv_nope', startDate: '2027-03-01', endDate: '2027-03-02' }), 404, 'not_found');
  });

  it('blocks the whole item for local days (endDate inclusive); lists, moves and ends the period', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const d1 = dateAhead(op.timezone, 10);
    const d2 = dateAhead(op.timezone, 11);
    const r = await dd(op, { boatId: item.id, startDate: d1, endDate: d2, notes: 'Hull paint' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ boatId: item.id, wholeItem: true, startDate: d1, endDate: d2, notes: 'Hull paint' });
    expect(r.body.rentalId).toMatch(/^dd_/);
    expect(r.body.start).toBe(at(op.timezone, 10, '00:00'));
    expect(r.body.end).toBe(at(op.timezone, 12, '00:00'));
    expectError(
      await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 11, '16:00'), endTime: at(op.timezone, 11, '17:00') })),
      409,
      'unavailable',
    );
    expect((await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 12, '10:00'), endTime: at(op.timezone, 12, '11:00') }))).status).toBe(
      201,
    );

    const list = await get(`/drydock?boatId=${item.id}`, { key: op.adminKey });
    expect(list.body.data.map((x: any) => x.rentalId)).toEqual([r.body.rentalId]);
    expect((await get(`/drydock?boatId=${item.id}&assetId=${item.assetIds[1]}`, { key: op.adminKey })).body.total).toBe(1);
    expectError(await get(`/drydock?boatId=${item.id}&assetId=ast_nope`, { key: op.adminKey }), 404);

    // Move it to one asset on other days: the old days are free again, the other boat stays rentable.
    const moved = await patch(
      '/drydock',
      { rentalId: r.body.rentalId, startDate: dateAhead(op.timezone, 20), endDate: dateAhead(op.timezone, 20), assetId: item.assetIds[0] },
      { key: op.adminKey },
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ assetIds: [item.assetIds[0]], wholeItem: false });
    expect((await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 11, '16:00'), endTime: at(op.timezone, 11, '17:00') }))).status).toBe(
      201,
    );
    const on20 = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 20, '10:00'), endTime: at(op.timezone, 20, '11:00') }));
    expect(on20.body.assetIds).toEqual([item.assetIds[1]]);

    const gone = await del('/drydock', { rentalId: r.body.rentalId }, { key: op.adminKey });
    expect(gone.body).toMatchObject({ success: true, rentalId: r.body.rentalId });
    expect(
      (await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 20, '10:00'), endTime: at(op.timezone, 20, '11:00') }))).body.assetIds,
    ).toEqual([item.assetIds[0]]);
    expectError(await del('/drydock', { rentalId: r.body.rentalId }, { key: op.adminKey }), 404);
  });

  it('refuses to overlap bookings (409 with the conflicts); ISO instants work too', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00') }));
    const r = await dd(op, { boatId: item.id, startDate: dateAhead(op.timezone, 5), endDate: dateAhead(op.timezone, 5) });
    expectError(r, 409, 'unavailable');
    expect(r.body.conflicts[0]).toMatchObject({ sourceId: b.body.rentalId, kind: 'booking' });
    // The other boat alone can go to drydock; ISO bounds.
    const other = item.assetIds.find((a) => a !== b.body.assetIds[0])!;
    const ok = await dd(op, { boatId: item.id, startDate: at(op.timezone, 5, '09:00'), endDate: at(op.timezone, 5, '13:00'), assetIds: [other] });
    expect(ok.status, ok.text).toBe(200);
    expectError(
      await dd(op, { boatId: item.id, startDate: at(op.timezone, 5, '12:00'), endDate: at(op.timezone, 5, '14:00'), assetIds: [other] }),
      409,
      'unavailable',
    );
    expect(await assetOverlaps(item.id)).toEqual([]);
  });

  it('tours are blocked whole', async () => {
    const op = await createOperator();
    const tour = await tourItem(op);
    expectError(
      await dd(op, { boatId: tour.id, startDate: dateAhead(op.timezone, 3), endDate: dateAhead(op.timezone, 3), assetIds: ['x'] }),
      400,
      'bad_request',
    );
    expect((await dd(op, { boatId: tour.id, startDate: dateAhead(op.timezone, 3), endDate: dateAhead(op.timezone, 3) })).status).toBe(200);
    const r = await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 3, '10:00'), tickets: { Adult: 1 } }));
    expectError(r, 409, 'unavailable');
    expect(r.body.reasons[0].code).toBe('blocked');
  });

  it('drydock racing bookings: either the period or the bookings, never both', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const day = dateAhead(op.timezone, 6);
    const rs = await Promise.all([
      dd(op, { boatId: item.id, startDate: day, endDate: day }),
      ...Array.from({ length: 6 }, () =>
        book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 6, '10:00'), endTime: at(op.timezone, 6, '12:00') })),
      ),
    ]);
    const wins = rs.filter((r) => r.status === 200 || r.status === 201);
    expect(wins).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409)).toHaveLength(6);
    expect(await assetOverlaps(item.id)).toEqual([]);
    const active = await env.DB.prepare('SELECT kind, COUNT(*) AS n FROM allocations WHERE item_id = ? AND active = 1 AND asset_id IS NOT NULL GROUP BY kind')
      .bind(item.id)
      .all<any>();
    expect(active.results.reduce((s: number, x: any) => s + x.n, 0)).toBe(1);
  });

  it('security: credentials, other operators 404, staff without the inventory permission 403', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const r = await dd(op, { boatId: item.id, startDate: dateAhead(op.timezone, 30), endDate: dateAhead(op.timezone, 31) });
    await checkSecurity(op, {
      method: 'POST',
      path: '/drydock',
      body: { boatId: item.id, startDate: dateAhead(op.timezone, 40), endDate: dateAhead(op.timezone, 41) },
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'GET', path: `/drydock?boatId=${item.id}`, otherStatus: 404 });
    await checkSecurity(op, {
      method: 'PATCH',
      path: '/drydock',
      body: { rentalId: r.body.rentalId, startDate: dateAhead(op.timezone, 32), endDate: dateAhead(op.timezone, 33) },
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'DELETE', path: '/drydock', body: { rentalId: r.body.rentalId }, otherStatus: 404 });
    const staff = await op.addUser({ role: 'staff' });
    expectError(await dd(op, { boatId: item.id, startDate: dateAhead(op.timezone, 50), endDate: dateAhead(op.timezone, 50) }, staff.key), 403, 'forbidden');
    expectError(await del('/drydock', { rentalId: r.body.rentalId }, { key: staff.key }), 403, 'forbidden');
    expect((await get(`/drydock?boatId=${item.id}`, { key: staff.key })).status).toBe(200);
  });
});
