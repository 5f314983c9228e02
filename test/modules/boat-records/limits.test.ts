/**
 * Issue 28, "a 500 after the write": a record whose `Details` nest 6,000 levels deep answered 500
 * yet was stored (a retry stored it again), and the item's rundown answered 500 from then on.
 * Now the body is refused at the edge (400, nothing written), `Details` deeper than the module's
 * cap are refused before any write, and rows written before the fix are answered with their too
 * deep parts replaced, so the reads, updates and deletes of the item keep working.
 */
import { describe, expect, it } from 'vitest';
import { createOperator, db, del, expectError, get, patch, post } from '../../harness';
import { createItem } from '../inventory/helpers';
import { boatRecords } from '../../../src/db/schema/inventory';
import { newId } from '../../../src/lib/ids';
import { DETAILS_MAX_DEPTH } from '../../../src/modules/boat-records/schemas';
import { TOO_DEEP } from '../../../src/modules/boat-records/views';

const nested = (levels: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

describe('boat records: limits before writes', () => {
  it('refuses Details nested 6,000 levels deep with 400 and stores nothing; a retry stores nothing either', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await post('/boatRecords', { inventoryId: item.inventory_id, RecordType: 'fuel', Details: { x: nested(6000) } }, { key: op.adminKey });
      expectError(r, 400, 'validation_failed');
      expect(r.body.details[0]).toMatchObject({ field: 'body', code: 'too_deep' });
    }
    const list = await get(`/boatRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  it("refuses Details and Updates deeper than the module's cap (under the edge's) before writing", async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const deep = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'fuel', Details: { x: nested(DETAILS_MAX_DEPTH) } },
      { key: op.adminKey },
    );
    expectError(deep, 400, 'validation_failed');
    expect(deep.body.details[0].field).toBe('Details');
    const ts = '2026-05-01T10:00:00.000Z';
    const ok = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'fuel', Details: { x: nested(DETAILS_MAX_DEPTH - 2) }, timestamp: ts },
      { key: op.adminKey },
    );
    expect(ok.status, ok.text).toBe(201);
    const up = await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: ts, Updates: { y: nested(DETAILS_MAX_DEPTH) } }, { key: op.adminKey });
    expectError(up, 400, 'validation_failed');
    const list = await get(`/boatRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].Details.y).toBeUndefined();
  });

  it('answers the rundown, the list, updates and deletes of an item whose old records nest 6,000 levels deep', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const ts = '2026-02-01T10:00:00.000Z';
    await db()
      .insert(boatRecords)
      .values({
        id: newId('rec'),
        customerId: op.customerId,
        inventoryId: item.inventory_id,
        recordType: 'fuel',
        details: { liters: 40, x: nested(6000) },
        timestamp: ts,
      });
    for (const path of [`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}`, `/boatRecords?inventoryId=${item.inventory_id}`]) {
      const r = await get(path, { key: op.adminKey });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
      expect(r.body.data[0].Details.liters).toBe(40);
      expect(r.text).toContain(TOO_DEEP);
    }
    const up = await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: ts, Updates: { checked: true } }, { key: op.adminKey });
    expect(up.status, up.text.slice(0, 200)).toBe(200);
    expect(up.body.Details.checked).toBe(true);
    const gone = await del('/boatRecords', { inventoryId: item.inventory_id, timestamp: ts }, { key: op.adminKey });
    expect(gone.status, gone.text.slice(0, 200)).toBe(200);
  });
});
