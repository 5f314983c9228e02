/**
 * Automated condition analysis of check-in photos (spec, Inventory: "check-in records with photos
 * may trigger an automated condition analysis"). A check-in with photos is written with
 * `Details.conditionAnalysis.photoAnalysis = {status: 'queued'}` and a queue message; it never
 * waits for the analysis. The consumer reads the photos through the AI port: with Workers AI vision
 * it lists the visible damage of each photo, does the same for the previous check-out's photos and
 * answers the damage that is new since then; without a vision model the result is honestly
 * `not_analysed` (the rule-based comparison of fuel, engine hours, damage lists and photo counts in
 * `conditionAnalysis` still stands). The result is written into the record with one JSON update of
 * that key only, and only while it is still queued, so a PATCH of other keys is never overwritten
 * and a repeated message changes nothing. A sweep re-sends messages that were lost.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import { ai, type AiVisionResult } from '../../adapters/ai';
import { fetchPublic } from '../../adapters/http';
import type { Ctx } from '../../lib/context';
import { nowIso, nowMs, wallClock } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import type { QueueMessage } from '../../lib/module';
import { enqueue } from '../../lib/queue';
import { boatRecords } from '../../db/schema/inventory';
import { photosOf } from './condition';
import { checkoutBefore } from './queries';
import type { RecordRow } from './views';

export const PHOTO_ANALYSIS_KIND = 'boat-records.analyze-photos';
const MAX_PHOTOS = 6;
const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** A message for a record that is still not committed after this long (real time) is dropped (its batch failed). */
const UNCOMMITTED_DROP_MS = 60_000;
/** A photo analysis still queued this long after its record was written is re-sent by the sweep (a lost send). */
const STALE_MS = 10 * 60_000;
/** The sweep looks this far back. */
const SWEEP_WINDOW_MS = 3 * 86_400_000;

export interface PhotoDamage {
  area: string | null;
  description: string;
  severity: 'minor' | 'major';
}

export const queuedPhotoAnalysis = (ctx: Ctx) => ({ status: 'queued' as const, queuedAt: nowIso(ctx) });

/**
 * The queue message of a record's analysis. `enqueuedAt` is real time: the consumer compares it with
 * real time to tell a batch still in flight from one that failed (a technical delay, not business time).
 */
const analysisMessage = (r: Pick<RecordRow, 'id' | 'customerId'>) => ({
  kind: PHOTO_ANALYSIS_KIND,
  recordId: r.id,
  customerId: r.customerId,
  enqueuedAt: wallClock.now(),
});

/** Sends the record's analysis to the queue after the caller's commit (a lost send is re-sent by the sweep). */
export function enqueuePhotoAnalysis(ctx: Ctx, r: Pick<RecordRow, 'id' | 'customerId'>) {
  ctx.waitUntil(enqueue(ctx, analysisMessage(r)).catch((err) => ctx.log.warn('photo analysis deferred to the sweep', { recordId: r.id, error: String(err) })));
}

const PROMPT = `List the visible damage on this boat photo (scratches, dents, cracks, tears, stains, missing or broken parts).
Answer as JSON: {"damages": [{"area": string|null, "description": string, "severity": "minor"|"major"}]}. An empty list when none is visible.`;

async function photoBytes(ctx: Ctx, url: string): Promise<Uint8Array | null> {
  const data = /^data:image\/[\w.+-]+;base64,(.*)$/s.exec(url);
  if (data) {
    try {
      const bin = atob(data[1].replace(/\s+/g, ''));
      return bin.length <= MAX_PHOTO_BYTES ? Uint8Array.from(bin, (c) => c.charCodeAt(0)) : null;
    } catch {
      return null;
    }
  }
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    return (await fetchPublic(ctx.env, url, { field: 'photo', accept: ['image/'], maxBytes: MAX_PHOTO_BYTES })).body;
  } catch {
    return null;
  }
}

function damagesOf(seen: AiVisionResult): PhotoDamage[] | null {
  if (seen.status !== 'analysed') return null;
  const list = (seen.json as { damages?: unknown })?.damages;
  if (!Array.isArray(list)) return null;
  return list
    .map((d) => d as Record<string, unknown>)
    .filter((d) => typeof d.description === 'string' && d.description.trim())
    .map((d) => ({
      area: typeof d.area === 'string' && d.area.trim() ? d.area.trim().slice(0, 100) : null,
      description: String(d.description).trim().slice(0, 300),
      severity: d.severity === 'major' ? ('major' as const) : ('minor' as const),
    }));
}

async function analyse(ctx: Ctx, urls: string[]) {
  const port = ai(ctx.env);
  const photos: { url: string; status: 'analysed' | 'unreadable'; damages: PhotoDamage[] }[] = [];
  let model: string | null = null;
  for (const url of urls.slice(0, MAX_PHOTOS)) {
    const bytes = await photoBytes(ctx, url);
    const seen = bytes ? await port.see({ prompt: PROMPT, image: bytes }) : null;
    if (seen?.model) model = seen.model;
    const damages = seen ? damagesOf(seen) : null;
    photos.push({ url, status: damages ? 'analysed' : 'unreadable', damages: damages ?? [] });
  }
  return { photos, model };
}

const key = (d: PhotoDamage) =>
  `${d.area ?? ''} ${d.description}`
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Queue consumer: analyses the photos of one check-in record and writes the result into it. */
export async function analyzeRecordPhotos(ctx: Ctx, msg: QueueMessage): Promise<void> {
  const recordId = typeof msg.recordId === 'string' ? msg.recordId : null;
  const customerId = typeof msg.customerId === 'string' ? msg.customerId : null;
  if (!recordId || !customerId) return;
  const row = await ctx.db
    .select()
    .from(boatRecords)
    .where(and(eq(boatRecords.id, recordId), eq(boatRecords.customerId, customerId)))
    .get();
  if (!row) {
    // Real time, as `enqueuedAt` (see analysisMessage).
    if (wallClock.now() - (typeof msg.enqueuedAt === 'number' ? msg.enqueuedAt : 0) < UNCOMMITTED_DROP_MS)
      throw new Error(`record ${recordId} is not committed yet`);
    return;
  }
  const current = (row.details?.conditionAnalysis as { photoAnalysis?: { status?: string } } | undefined)?.photoAnalysis;
  if (current?.status !== 'queued') return;
  const analyzedAt = nowIso(ctx);
  const port = ai(ctx.env);
  let result: Record<string, unknown>;
  if (port.mode === 'rules') {
    result = {
      status: 'not_analysed',
      reason: 'no_vision_model',
      message: 'The photos were not analysed: this deployment has no vision model (Workers AI). The rule-based comparison above still applies.',
      analyzedAt,
    };
  } else {
    const checkin = await analyse(ctx, photosOf(row.details ?? {}));
    const before = await checkoutBefore(ctx, row);
    const checkout = before ? await analyse(ctx, photosOf(before.Details)) : null;
    const damages = checkin.photos.flatMap((p) => p.damages);
    const known = new Set((checkout?.photos ?? []).flatMap((p) => p.damages).map(key));
    const analysed = checkin.photos.filter((p) => p.status === 'analysed').length;
    result = {
      status: analysed ? 'analysed' : 'not_analysed',
      ...(analysed ? {} : { reason: 'unreadable_photos', message: 'None of the photos could be read (URL, size or model answer).' }),
      model: checkin.model ?? checkout?.model ?? null,
      analyzedAt,
      photos: checkin.photos,
      damages,
      comparedTo: before ? { timestamp: before.timestamp, RecordType: before.RecordType, photos: checkout?.photos ?? [] } : null,
      newSinceCheckout: before ? damages.filter((d) => !known.has(key(d))) : null,
    };
  }
  await ctx.db
    .update(boatRecords)
    .set({
      details: sql`json_set(${boatRecords.details}, '$.conditionAnalysis.photoAnalysis', json(${JSON.stringify(result)}))`,
      updatedAt: analyzedAt,
    })
    .where(
      and(
        eq(boatRecords.id, row.id),
        eq(boatRecords.customerId, row.customerId),
        sql`json_extract(${boatRecords.details}, '$.conditionAnalysis.photoAnalysis.status') = 'queued'`,
      ),
    )
    .run();
}

/** The analyses still queued, of records of the operators in scope written in the sweep's window (before `staleBefore`). */
const queuedAnalyses = (ctx: Ctx, now: number) =>
  and(
    inJobScope(ctx, boatRecords.customerId),
    sql`${boatRecords.updatedAt} >= ${new Date(now - SWEEP_WINDOW_MS).toISOString()}`,
    sql`json_extract(${boatRecords.details}, '$.conditionAnalysis.photoAnalysis.status') = 'queued'`,
  );

/** Cron: re-sends the analyses still queued after ten minutes (a lost queue send), at most 100 a run. */
export async function resendStalePhotoAnalyses(ctx: Ctx) {
  const now = nowMs(ctx);
  const rows = await ctx.db
    .select({ id: boatRecords.id, customerId: boatRecords.customerId })
    .from(boatRecords)
    .where(and(queuedAnalyses(ctx, now), lt(boatRecords.updatedAt, new Date(now - STALE_MS).toISOString())))
    .limit(100)
    .all();
  for (const r of rows) await enqueue(ctx, analysisMessage(r));
  return { resent: rows.length };
}

/** The sweep's next due instant: when the oldest analysis still queued (and not yet stale) becomes stale. */
export async function nextStalePhotoAnalysis(ctx: Ctx): Promise<number | null> {
  const now = nowMs(ctx);
  const row = await ctx.db
    .select({ oldest: sql<string | null>`min(${boatRecords.updatedAt})` })
    .from(boatRecords)
    .where(and(queuedAnalyses(ctx, now), sql`${boatRecords.updatedAt} >= ${new Date(now - STALE_MS).toISOString()}`))
    .get();
  return row?.oldest ? Date.parse(row.oldest) + STALE_MS + 1 : null;
}
