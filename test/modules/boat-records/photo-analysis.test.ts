/** Condition analysis of check-in photos: queued without blocking the record, honest `not_analysed` offline, Workers AI vision compared with the check-out. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, createOperator, eventually, patch, post, appHooks, runCron } from '../../harness';
import { createItem } from '../inventory/helpers';
import { systemCtx } from '../../../src/lib/context';
import { fixedClock } from '../../../src/lib/clock';
import { analyzeRecordPhotos, nextStalePhotoAnalysis, PHOTO_ANALYSIS_KIND } from '../../../src/modules/boat-records/service';

const photo = (tag: string) => `data:image/png;base64,${btoa(tag)}`;
const photoAnalysisOf = async (recordId: string) => {
  const row = await env.DB.prepare(`SELECT json_extract(details, '$.conditionAnalysis.photoAnalysis') AS p FROM boat_records WHERE id = ?`)
    .bind(recordId)
    .first<{ p: string | null }>();
  return row?.p ? JSON.parse(row.p) : null;
};

describe('condition analysis of check-in photos', () => {
  it('queues the analysis without blocking the record and answers not_analysed without a vision model', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const r = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'check-in', timestamp: '2026-07-01T12:00:00Z', Details: { photos: ['https://photos.example.test/1.jpg'] } },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.Details.conditionAnalysis.photoAnalysis).toMatchObject({ status: 'queued' });
    const done = await eventually(async () => {
      const p = await photoAnalysisOf(r.body.recordId);
      return p?.status !== 'queued' ? p : null;
    });
    expect(done).toMatchObject({ status: 'not_analysed', reason: 'no_vision_model' });
    // The rule-based comparison is there all along.
    const u = await patch(
      '/boatRecords',
      { inventoryId: item.inventory_id, timestamp: '2026-07-01T12:00:00Z', Updates: { notes: 'ok' } },
      { key: op.adminKey },
    );
    expect(u.body.Details.conditionAnalysis).toMatchObject({ method: 'rules', photoAnalysis: { status: 'not_analysed' } });
    // New photos queue a new analysis.
    const more = await patch(
      '/boatRecords',
      {
        inventoryId: item.inventory_id,
        timestamp: '2026-07-01T12:00:00Z',
        Updates: { photos: ['https://photos.example.test/1.jpg', 'https://photos.example.test/2.jpg'] },
      },
      { key: op.adminKey },
    );
    expect(more.body.Details.conditionAnalysis.photoAnalysis.status).toBe('queued');
    await eventually(async () => (await photoAnalysisOf(r.body.recordId))?.status === 'not_analysed');
  });

  it('with Workers AI vision: lists the damage of each photo and what is new since the check-out', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const asset = item.assets[0].assetId;
    const key = { key: op.adminKey };
    await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkout', AssetId: asset, timestamp: '2026-07-02T09:00:00Z', Details: { photos: [photo('out-bow')] } },
      key,
    );
    const r = await post(
      '/boatRecords',
      {
        inventoryId: item.inventory_id,
        RecordType: 'checkin',
        AssetId: asset,
        timestamp: '2026-07-02T13:00:00Z',
        Details: { photos: [photo('in-bow'), photo('in-stern'), 'ftp://not-a-photo'] },
      },
      key,
    );
    expect(r.status).toBe(201);
    await eventually(async () => (await photoAnalysisOf(r.body.recordId))?.status === 'not_analysed');
    // Queue it again and run the consumer as a deployment with the AI binding would.
    await env.DB.prepare(`UPDATE boat_records SET details = json_set(details, '$.conditionAnalysis.photoAnalysis', json('{"status":"queued"}')) WHERE id = ?`)
      .bind(r.body.recordId)
      .run();
    const seen: Record<string, unknown> = {
      'out-bow': { damages: [{ area: 'bow', description: 'Scratch', severity: 'minor' }] },
      'in-bow': { damages: [{ area: 'bow', description: 'scratch', severity: 'minor' }] },
      'in-stern': { damages: [{ area: 'stern', description: 'Cracked rub rail', severity: 'major' }] },
    };
    const AI = { run: async (_model: string, input: { image: number[] }) => ({ response: JSON.stringify(seen[String.fromCharCode(...input.image)] ?? {}) }) };
    const ctx = systemCtx({ ...env, AI } as never, { hooks: appHooks });
    await analyzeRecordPhotos(ctx, { kind: PHOTO_ANALYSIS_KIND, recordId: r.body.recordId, customerId: op.customerId });
    const p = await photoAnalysisOf(r.body.recordId);
    expect(p).toMatchObject({
      status: 'analysed',
      model: '@cf/meta/llama-3.2-11b-vision-instruct',
      damages: [
        { area: 'bow', description: 'scratch', severity: 'minor' },
        { area: 'stern', description: 'Cracked rub rail', severity: 'major' },
      ],
      newSinceCheckout: [{ area: 'stern', description: 'Cracked rub rail', severity: 'major' }],
      comparedTo: { timestamp: '2026-07-02T09:00:00.000Z', RecordType: 'checkout' },
    });
    expect(p.photos.map((x: any) => x.status)).toEqual(['analysed', 'analysed', 'unreadable']);
    // A repeated message changes nothing (the result is written only while queued).
    await analyzeRecordPhotos(ctx, { kind: PHOTO_ANALYSIS_KIND, recordId: r.body.recordId, customerId: op.customerId });
    expect(await photoAnalysisOf(r.body.recordId)).toEqual(p);
  });

  it('a lost send is re-sent by the sweep ten minutes after the record was written, on the operator clock', async () => {
    const t0 = Date.parse('2027-01-14T15:00:00Z');
    const op = await createOperator({ clockAt: t0 });
    const item = await createItem(op);
    // A check-in whose analysis is queued but whose message was lost (written directly: no message sent).
    const id = `rec_lost_${op.customerId.slice(-8)}`;
    const iso = new Date(t0).toISOString();
    await env.DB.prepare(
      `INSERT INTO boat_records (id, customer_id, inventory_id, record_type, details, timestamp, created_at, updated_at) VALUES (?, ?, ?, 'check-in', ?, ?, ?, ?)`,
    )
      .bind(
        id,
        op.customerId,
        item.inventory_id,
        JSON.stringify({ photos: [photo('x')], conditionAnalysis: { photoAnalysis: { status: 'queued' } } }),
        iso,
        iso,
        iso,
      )
      .run();
    const at = (ms: number) => systemCtx(env, { customerId: op.customerId, clock: fixedClock(ms, op.clockId!) });
    expect(await nextStalePhotoAnalysis(at(t0))).toBe(t0 + 10 * 60_000 + 1);
    expect(await nextStalePhotoAnalysis(at(t0 + 11 * 60_000))).toBeNull();
    // The wall-clock schedule leaves a test-clock operator alone.
    expect((await runCron('*/5 * * * *', new Date(t0 + 3_600_000)))['boat-records.photo-analysis-sweep']).toEqual({ resent: 0 });
    expect((await photoAnalysisOf(id)).status).toBe('queued');
    // Advancing the clock past the due time runs the sweep for this operator: the analysis is re-sent and done.
    expect((await advanceClock(op.clockId!, t0 + 20 * 60_000, op.adminKey)).status).toBe('ready');
    const done = await eventually(async () => {
      const p = await photoAnalysisOf(id);
      return p?.status !== 'queued' ? p : null;
    });
    expect(done).toMatchObject({ status: 'not_analysed', reason: 'no_vision_model' });
  });
});
