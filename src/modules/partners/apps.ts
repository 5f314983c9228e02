import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { fromNowIso, nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError, notFound, type ErrorDetail } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { checkOutboundUrl, checkUrlShape, deliverSigned, isUrlRefused } from '../../adapters/http';
import { partnerApps, type AppManifestData } from '../../db/schema/partners';
import { requirePartner } from './accounts';
import { partnerFail } from './errors';
import { APP_EVENT_WILDCARD, APP_EVENTS } from './types';
import { appOut, manifestData, manifestOut, type AppRow } from './views';

interface ManifestPatch {
  name?: string;
  scopes?: string[];
  urls?: { embed?: string | null; redirect?: string[] };
  embedLocations?: string[];
  webhooks?: { url?: string | null; events?: string[] };
}

const detail = (field: string, message: string): ErrorDetail => ({ field, location: 'body', code: 'invalid', message });
const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_failed', `Invalid request: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, { details });

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const NATIVE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/;

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** The embed page: https (not a private host in staging and production), or http on localhost while developing. */
function embedProblem(ctx: Ctx, raw: string): string | undefined {
  const u = parseUrl(raw);
  if (!u) return 'must be an absolute URL';
  if (u.username || u.password) return 'must not carry credentials';
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return undefined;
  if (u.protocol !== 'https:') return 'must use https (http only for localhost)';
  try {
    checkUrlShape(ctx.env, raw, { field: 'urls.embed' });
  } catch (err) {
    if (isUrlRefused(err)) return err.reason;
    throw err;
  }
  return undefined;
}

/** RFC 8252 / RFC 9700: https, http on a loopback address, or (public clients) a reverse-domain private-use scheme; no fragment. */
function redirectProblem(raw: string, clientType: 'confidential' | 'public'): string | undefined {
  const u = parseUrl(raw);
  if (!u) return 'must be an absolute URI';
  if (u.hash || raw.includes('#')) return 'must not contain a fragment';
  if (u.username || u.password) return 'must not carry credentials';
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:') return LOOPBACK.has(u.hostname) ? undefined : 'http is allowed only on loopback (localhost, 127.0.0.1, [::1])';
  const scheme = u.protocol.slice(0, -1);
  if (clientType === 'public' && NATIVE_SCHEME.test(scheme)) return undefined;
  return clientType === 'public' ? 'must use https, loopback http or a reverse-domain scheme (com.example.app:/cb)' : 'must use https or loopback http';
}

/** The manifest after a patch, checked as a whole (cross-field rules included). */
function applyPatch(ctx: Ctx, current: AppManifestData, patch: ManifestPatch, clientType: 'confidential' | 'public'): AppManifestData {
  const next: AppManifestData = {
    name: patch.name ?? current.name,
    scopes: patch.scopes ? [...new Set(patch.scopes)].sort() : current.scopes,
    urls: {
      embed: patch.urls?.embed !== undefined ? patch.urls.embed : current.urls.embed,
      redirect: patch.urls?.redirect ? [...new Set(patch.urls.redirect)].sort() : current.urls.redirect,
    },
    embedLocations: patch.embedLocations ? [...new Set(patch.embedLocations)].sort() : current.embedLocations,
    webhooks: {
      url: patch.webhooks?.url !== undefined ? patch.webhooks.url : current.webhooks.url,
      events: patch.webhooks?.events ? [...new Set(patch.webhooks.events)].sort() : current.webhooks.events,
    },
  };
  const problems: ErrorDetail[] = [];
  if (next.urls.embed) {
    const p = embedProblem(ctx, next.urls.embed);
    if (p) problems.push(detail('urls.embed', p));
  }
  next.urls.redirect.forEach((r, i) => {
    const p = redirectProblem(r, clientType);
    if (p) problems.push(detail(`urls.redirect.${i}`, p));
  });
  if (next.embedLocations.length && !next.urls.embed) problems.push(detail('urls.embed', 'is required when embedLocations are set'));
  if (next.webhooks.url) {
    try {
      checkUrlShape(ctx.env, next.webhooks.url, { field: 'webhooks.url' });
    } catch (err) {
      if (!isUrlRefused(err)) throw err;
      problems.push(detail('webhooks.url', err.reason));
    }
  }
  if (next.webhooks.events.length && !next.webhooks.url) problems.push(detail('webhooks.url', 'is required when webhooks.events are set'));
  if (next.webhooks.events.length && !next.scopes.includes('read:bookings'))
    problems.push(detail('webhooks.events', 'booking events need the read:bookings scope'));
  if (problems.length) throw invalid(problems);
  return next;
}

const EMPTY: AppManifestData = { name: '', scopes: [], urls: { embed: null, redirect: [] }, embedLocations: [], webhooks: { url: null, events: [] } };

const rowFields = (m: AppManifestData) => ({
  name: m.name,
  scopes: m.scopes,
  redirectUris: m.urls.redirect,
  embedUrl: m.urls.embed,
  embedLocations: m.embedLocations,
  webhookUrl: m.webhooks.url,
  webhookEvents: m.webhooks.events,
});

const sameManifest = (a: AppManifestData, b: AppManifestData) => JSON.stringify(a) === JSON.stringify(b);

async function newClientSecret() {
  const secret = `bcs_${randomString(40)}`;
  return { secret, hash: await sha256Hex(secret), prefix: secret.slice(0, 10) };
}

/** The partner's own app (not deleted); another partner's app answers 404. */
async function ownApp(ctx: Ctx, appId: string): Promise<AppRow> {
  const partnerId = requirePartner(ctx);
  const row = await ctx.db
    .select()
    .from(partnerApps)
    .where(and(eq(partnerApps.id, appId), eq(partnerApps.partnerId, partnerId), isNull(partnerApps.deletedAt)))
    .get();
  if (!row) throw notFound('App');
  return row;
}

export async function createApp(ctx: Ctx, input: ManifestPatch & { name: string; scopes: string[]; clientType: 'confidential' | 'public' }) {
  const partnerId = requirePartner(ctx);
  const m = applyPatch(ctx, EMPTY, input, input.clientType);
  if (m.webhooks.url) await checkOutboundUrl(ctx.env, m.webhooks.url, { field: 'webhooks.url' });
  const secret = input.clientType === 'confidential' ? await newClientSecret() : null;
  const webhookSecret = `whsec_${randomString(40)}`;
  const now = nowIso(ctx);
  const row: AppRow = {
    id: newId('app'),
    partnerId,
    ...rowFields(m),
    clientType: input.clientType,
    clientSecretHash: secret?.hash ?? null,
    clientSecretPrefix: secret?.prefix ?? null,
    webhookSecret,
    status: 'draft',
    reviewReason: null,
    submittedAt: null,
    reviewedAt: null,
    reviewedBy: null,
    live: null,
    version: 1,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.insert(partnerApps).values(row);
  return { ...appOut(row), clientSecret: secret?.secret ?? null, webhookSecret };
}

export async function listApps(ctx: Ctx, q: { limit: number; offset: number }) {
  const partnerId = requirePartner(ctx);
  const where = and(eq(partnerApps.partnerId, partnerId), isNull(partnerApps.deletedAt));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(partnerApps).where(where).orderBy(desc(partnerApps.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(partnerApps).where(where).get(),
  ]);
  return { data: rows.map(appOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export const getApp = async (ctx: Ctx, appId: string) => appOut(await ownApp(ctx, appId));
export const getManifest = async (ctx: Ctx, appId: string) => {
  const row = await ownApp(ctx, appId);
  return manifestOut(row.id, manifestData(row));
};

/**
 * Applies a manifest change. An approved app whose manifest changes goes back to review (live
 * installs keep running the approved manifest meanwhile; sandbox installs use the new one at once).
 * `expectedVersion` (the `If-Match` of a push) answers 409 `version_conflict` when the app changed since.
 */
async function updateManifest(ctx: Ctx, appId: string, patch: ManifestPatch, expectedVersion?: number) {
  const row = await ownApp(ctx, appId);
  if (expectedVersion !== undefined && expectedVersion !== row.version) {
    throw new ApiError('version_conflict', `The app is at version ${row.version}, not ${expectedVersion}; pull and retry`);
  }
  const current = manifestData(row);
  const next = applyPatch(ctx, current, patch, row.clientType);
  if (next.webhooks.url && next.webhooks.url !== current.webhooks.url) await checkOutboundUrl(ctx.env, next.webhooks.url, { field: 'webhooks.url' });
  if (sameManifest(current, next)) return appOut(row);
  const now = nowIso(ctx);
  const backToReview = row.status === 'approved';
  const set = {
    ...rowFields(next),
    version: row.version + 1,
    updatedAt: now,
    ...(backToReview ? { status: 'in_review' as const, submittedAt: now, reviewReason: null } : {}),
  };
  const updated = await ctx.db
    .update(partnerApps)
    .set(set)
    .where(and(eq(partnerApps.id, row.id), eq(partnerApps.version, row.version)))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The app changed while this update ran; pull and retry');
  await ctx.hooks.emit(ctx, 'app.changed', { appId: row.id, deleted: false });
  return appOut(updated);
}

export const patchApp = (ctx: Ctx, appId: string, patch: ManifestPatch) => updateManifest(ctx, appId, patch);

/** Replaces the manifest with the app file's content (`push`); `appId` in the file must name this app. */
export async function putManifest(ctx: Ctx, appId: string, file: ManifestPatch & { appId?: string; name: string; scopes: string[] }, ifMatch?: string) {
  if (file.appId !== undefined && file.appId !== appId) {
    throw invalid([detail('appId', `the file belongs to app ${file.appId}, not ${appId}`)]);
  }
  let expected: number | undefined;
  if (ifMatch !== undefined) {
    expected = Number(ifMatch.replace(/^W\//, '').replace(/"/g, ''));
    if (!Number.isInteger(expected)) throw new ApiError('bad_request', 'If-Match must be the app version (an integer)');
  }
  const full: ManifestPatch = {
    name: file.name,
    scopes: file.scopes,
    urls: { embed: file.urls?.embed ?? null, redirect: file.urls?.redirect ?? [] },
    embedLocations: file.embedLocations ?? [],
    webhooks: { url: file.webhooks?.url ?? null, events: file.webhooks?.events ?? [] },
  };
  const app = await updateManifest(ctx, appId, full, expected);
  return app;
}

/** What is still missing before review (also the refusal details of `submit`). */
function missingForReview(row: AppRow): ErrorDetail[] {
  const m = manifestData(row);
  const out: ErrorDetail[] = [];
  if (!m.scopes.length) out.push(detail('scopes', 'at least one scope'));
  if (!m.urls.redirect.length) out.push(detail('urls.redirect', 'at least one redirect URI (operators install the app through /oauth/authorize)'));
  for (const [i, r] of m.urls.redirect.entries()) {
    const u = parseUrl(r);
    if (u && u.protocol === 'http:') out.push(detail(`urls.redirect.${i}`, 'live apps need https (loopback http is for development)'));
  }
  if (m.urls.embed && parseUrl(m.urls.embed)?.protocol !== 'https:') out.push(detail('urls.embed', 'live apps need an https embed URL'));
  return out;
}

/** draft -> in_review; refused with the list of what is missing. */
export async function submitApp(ctx: Ctx, appId: string) {
  const row = await ownApp(ctx, appId);
  if (row.status === 'in_review') return appOut(row);
  if (row.status === 'approved') throw new ApiError('invalid_state', 'The app is approved; a change of its manifest sends it back to review by itself');
  const missing = missingForReview(row);
  if (missing.length)
    throw partnerFail('not_ready', `Not ready for review: ${missing.map((d) => `${d.field} (${d.message})`).join('; ')}`, { details: missing });
  const now = nowIso(ctx);
  const updated = await ctx.db
    .update(partnerApps)
    .set({ status: 'in_review', submittedAt: now, reviewReason: null, version: row.version + 1 })
    .where(and(eq(partnerApps.id, row.id), eq(partnerApps.version, row.version)))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The app changed while it was submitted; retry');
  return appOut(updated);
}

/** Soft-deletes the app; every installation is uninstalled and its tokens revoked (app.changed hook). */
export async function deleteApp(ctx: Ctx, appId: string) {
  const row = await ownApp(ctx, appId);
  await ctx.db
    .update(partnerApps)
    .set({ deletedAt: nowIso(ctx), version: row.version + 1 })
    .where(eq(partnerApps.id, row.id));
  await ctx.hooks.emit(ctx, 'app.changed', { appId: row.id, deleted: true });
  return { success: true, appId: row.id };
}

/** A new client secret (confidential clients); the old one stops at once. */
export async function rotateClientSecret(ctx: Ctx, appId: string) {
  const row = await ownApp(ctx, appId);
  if (row.clientType !== 'confidential') throw new ApiError('invalid_state', 'Public clients have no secret (they use PKCE)');
  const s = await newClientSecret();
  await ctx.db
    .update(partnerApps)
    .set({ clientSecretHash: s.hash, clientSecretPrefix: s.prefix, version: row.version + 1 })
    .where(eq(partnerApps.id, row.id));
  return { appId: row.id, clientSecret: s.secret, clientSecretPrefix: s.prefix };
}

/** A new signing secret for event deliveries; installations switch to it at once. */
export async function rotateWebhookSecret(ctx: Ctx, appId: string) {
  const row = await ownApp(ctx, appId);
  const webhookSecret = `whsec_${randomString(40)}`;
  await ctx.db
    .update(partnerApps)
    .set({ webhookSecret, version: row.version + 1 })
    .where(eq(partnerApps.id, row.id));
  await ctx.hooks.emit(ctx, 'app.changed', { appId: row.id, deleted: false });
  return { appId: row.id, webhookSecret };
}

/** A sample booking for test deliveries. */
function sampleBooking(ctx: Ctx, type: string) {
  const start = new Date(fromNowIso(ctx, 7 * 86400_000));
  start.setUTCHours(14, 0, 0, 0);
  const booking = {
    rentalId: 'bk_sample_0000000000000000000',
    transactionId: 'txn_sample_000000000000000000',
    Status: type === 'booking.cancelled' ? 'cancelled' : type === 'booking.checked_in' ? 'checked_in' : 'confirmed',
    itemId: 'inv_sample',
    locationId: 'loc_sample',
    start: start.toISOString(),
    end: new Date(start.getTime() + 2 * 3600_000).toISOString(),
    totalCents: 32100,
    source: 'operator',
  };
  return type === 'booking.status_changed' ? { rentalId: booking.rentalId, from: 'pending', to: 'confirmed', booking } : { booking };
}

/**
 * Sends one signed test event to the app's webhook URL now (what the command-line
 * `webhook trigger` uses) and reports the receiver's answer; signed exactly like real deliveries.
 */
export async function sendTestWebhook(ctx: Ctx, appId: string, event: string) {
  const row = await ownApp(ctx, appId);
  if (!row.webhookUrl) throw new ApiError('invalid_state', 'Set webhooks.url on the app first');
  const id = newId('evt');
  const payload = { id, type: event, createdAt: nowIso(ctx), customerId: 'cus_sample', test: true, data: sampleBooking(ctx, event) };
  // A partner's URL: the outbound policy at send time too, never a local URL (not even while developing). A refused or
  // unreachable URL answers only "not delivered": no status, no reason and no duration (the test is no port scanner).
  const { statusCode, error, durationMs } = await deliverSigned(ctx.env, {
    url: row.webhookUrl,
    secret: row.webhookSecret,
    eventId: id,
    eventType: event,
    deliveryId: newId('whd'),
    body: JSON.stringify(payload),
    policy: { field: 'webhooks.url' },
  });
  return { eventId: id, event, url: row.webhookUrl, delivered: !error, statusCode, error, durationMs };
}

// ---- for other modules (oauth, gateway) ----

/** Any app by its client id (not deleted), for the OAuth endpoints. */
export async function findApp(ctx: Ctx, clientId: string): Promise<AppRow | undefined> {
  if (!/^app_[0-9A-Z]{26}$/.test(clientId)) return undefined;
  return ctx.db
    .select()
    .from(partnerApps)
    .where(and(eq(partnerApps.id, clientId), isNull(partnerApps.deletedAt)))
    .get();
}

/**
 * The manifest an installation runs: the current one in the sandbox; for live operators the one
 * platform staff approved (null until the app has been approved once).
 */
export const effectiveManifest = (app: AppRow, sandbox: boolean): AppManifestData | null => (sandbox ? manifestData(app) : app.live);

/** Client authentication of a confidential client (constant time); public clients have no secret. */
export async function clientSecretMatches(app: AppRow, secret: string | undefined): Promise<boolean> {
  if (app.clientType !== 'confidential' || !app.clientSecretHash || !secret) return false;
  return timingSafeEqual(await sha256Hex(secret), app.clientSecretHash);
}

/** Expands `booking.*` to the booking events. */
export const expandEvents = (events: string[]) => [...new Set(events.flatMap((e) => (e === APP_EVENT_WILDCARD ? [...APP_EVENTS] : [e])))].sort();
