/**
 * Offerings, as their partner manages them: create (the signing secret is answered once), read,
 * change, delete, rotate the secret, the readiness list, submit for review, and the call log.
 *
 * States: `draft` (usable in the sandbox at once) -> `in_review` (submit; refused with what is
 * missing) -> `approved` (platform staff). A change of `baseUrl`, payout account, countries or
 * currencies while approved goes back to `in_review` (live operators stop being offered it until it
 * is approved again; the sandbox keeps using it); name, support address, timeout and the switch
 * change freely.
 */
import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { checkOutboundUrl, isOwnerLoopbackUrl } from '../../adapters/http';
import { isReferenceUrl } from '../../adapters/underwriter';
import { coverageOfferings } from '../../db/schema/coverage';
import { requirePartner } from '../partners/service';
import { coverageFail } from './errors';
import { activeSecrets, newSigningSecret, rotationStmts, secretInfo, secretInsert } from './secrets';
import { payoutAccountOf } from './payout';
import { PAYOUT_COUNTRIES } from './types';
import { listCalls, listPartnerOfferings, ownOffering } from './queries';
import { callOut, offeringOut, type OfferingRow } from './views';

/**
 * An underwriter base URL: https only, no query, fragment or credentials, and the outbound URL
 * policy (adapters/http.ts) as for every URL a self-registered partner gives: never a local,
 * private or special-use host, in any environment, unless the machine's owner opts in under `wrangler dev`
 * (DEV_PARTNER_LOOPBACK: then a loopback URL, http too, reaches a local underwriter such as `npm run underwriter`).
 * The in-process reference underwriter's host is served without the network and needs no check.
 */
export async function checkBaseUrl(ctx: Ctx, raw: string): Promise<string> {
  const bad = (message: string) => new ApiError('validation_failed', `baseUrl ${message}`, { details: [{ field: 'baseUrl', message }] });
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw bad('must be an absolute URL');
  }
  // The one exception to https: a local underwriter on the owner's machine under `wrangler dev` (DEV_PARTNER_LOOPBACK).
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isOwnerLoopbackUrl(ctx.env, raw))) throw bad('must use https');
  if (u.search || u.hash || u.username || u.password) throw bad('must not carry a query, a fragment or credentials');
  if (!isReferenceUrl(u.toString())) await checkOutboundUrl(ctx.env, raw, { field: 'baseUrl' });
  return u.toString().replace(/\/+$/, '');
}

async function view(ctx: Ctx, row: OfferingRow) {
  return offeringOut(row, await secretInfo(ctx, row.id));
}

export async function createOffering(
  ctx: Ctx,
  input: { name: string; supportEmail: string; baseUrl: string; supportedCountries: string[]; currencies: string[]; quoteTimeoutMs: number; enabled: boolean },
) {
  const partnerId = requirePartner(ctx);
  const baseUrl = await checkBaseUrl(ctx, input.baseUrl);
  const payout = await payoutAccountOf(ctx, partnerId);
  const now = nowIso(ctx);
  const row: OfferingRow = {
    id: newId('cov'),
    partnerId,
    name: input.name,
    supportEmail: input.supportEmail,
    baseUrl,
    supportedCountries: input.supportedCountries,
    currencies: input.currencies,
    quoteTimeoutMs: input.quoteTimeoutMs,
    enabled: input.enabled,
    status: 'draft',
    payoutAccountId: payout?.status === 'active' ? payout.accountId : null,
    rescheduleDelivery: 'hourly',
    reviewReasons: null,
    reviewNote: null,
    submittedAt: null,
    reviewedAt: null,
    approvedAt: null,
    version: 1,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const secret = newSigningSecret();
  await ctx.db.batch([ctx.db.insert(coverageOfferings).values(row), (await secretInsert(ctx, row.id, secret)).stmt]);
  return { ...(await view(ctx, row)), signingSecret: secret };
}

export async function listOfferings(ctx: Ctx, q: { limit: number; offset: number }) {
  const partnerId = requirePartner(ctx);
  const { rows, total } = await listPartnerOfferings(ctx, partnerId, q);
  return { data: await Promise.all(rows.map((r) => view(ctx, r))), total, limit: q.limit, offset: q.offset };
}

export async function getOfferingOfPartner(ctx: Ctx, offeringId: string) {
  return view(ctx, await ownOffering(ctx, requirePartner(ctx), offeringId));
}

const sameList = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export async function updateOffering(
  ctx: Ctx,
  offeringId: string,
  input: {
    name?: string;
    supportEmail?: string;
    baseUrl?: string;
    supportedCountries?: string[];
    currencies?: string[];
    quoteTimeoutMs?: number;
    enabled?: boolean;
  },
) {
  const row = await ownOffering(ctx, requirePartner(ctx), offeringId);
  if (!Object.values(input).some((v) => v !== undefined)) throw new ApiError('no_changes', 'Give at least one field to change');
  const set: Partial<OfferingRow> = {};
  if (input.name !== undefined) set.name = input.name;
  if (input.supportEmail !== undefined) set.supportEmail = input.supportEmail;
  if (input.quoteTimeoutMs !== undefined) set.quoteTimeoutMs = input.quoteTimeoutMs;
  if (input.enabled !== undefined) set.enabled = input.enabled;
  let reviewed = false;
  if (input.baseUrl !== undefined) {
    const url = await checkBaseUrl(ctx, input.baseUrl);
    if (url !== row.baseUrl) {
      set.baseUrl = url;
      reviewed = true;
    }
  }
  if (input.supportedCountries !== undefined && !sameList(input.supportedCountries, row.supportedCountries)) {
    set.supportedCountries = input.supportedCountries;
    reviewed = true;
  }
  if (input.currencies !== undefined && !sameList(input.currencies, row.currencies)) {
    set.currencies = input.currencies;
    reviewed = true;
  }
  if (reviewed && row.status === 'approved') Object.assign(set, { status: 'in_review', submittedAt: nowIso(ctx) });
  const updated = await ctx.db
    .update(coverageOfferings)
    .set({ ...set, version: row.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(coverageOfferings.id, row.id), eq(coverageOfferings.version, row.version)))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The offering changed meanwhile; reload it and try again');
  return view(ctx, updated);
}

/** Deletes an offering: it is offered nowhere from now on; policies already sold keep being bound, amended and cancelled. */
export async function deleteOffering(ctx: Ctx, offeringId: string) {
  const row = await ownOffering(ctx, requirePartner(ctx), offeringId);
  await ctx.db
    .update(coverageOfferings)
    .set({ deletedAt: nowIso(ctx), enabled: false, version: row.version + 1 })
    .where(eq(coverageOfferings.id, row.id));
  return { success: true, offeringId: row.id };
}

export async function rotateSecret(ctx: Ctx, offeringId: string) {
  const row = await ownOffering(ctx, requirePartner(ctx), offeringId);
  const secret = newSigningSecret();
  const { stmts, previousValidUntil } = await rotationStmts(ctx, row.id, secret);
  await ctx.db.batch(stmts as [(typeof stmts)[number], ...typeof stmts]);
  return { offeringId: row.id, signingSecret: secret, previousValidUntil };
}

/** What must still be true before review (the command line's `coverage status`). */
export async function readiness(ctx: Ctx, offeringId: string) {
  const partnerId = requirePartner(ctx);
  const row = await ownOffering(ctx, partnerId, offeringId);
  const payout = await payoutAccountOf(ctx, partnerId, { refresh: true });
  // The refresh may have attached the payout account (and moved the offering back to review).
  const fresh = await ownOffering(ctx, partnerId, offeringId);
  const missing: { item: 'payout_account' | 'licensed_country' | 'signing_secret'; message: string }[] = [];
  if (!payout)
    missing.push({
      item: 'payout_account',
      message: 'Connect a payout account (POST /partners/payout-account); payouts go to the US, the UK, the EEA, Canada or Switzerland only',
    });
  else if (!PAYOUT_COUNTRIES.includes(payout.country))
    missing.push({
      item: 'payout_account',
      message: `The payout account ${payout.accountId} is in ${payout.country}: payouts go only to the US, the UK, the EEA, Canada and Switzerland; connect another`,
    });
  else if (payout.status !== 'active')
    missing.push({
      item: 'payout_account',
      message: `Finish the payout account's onboarding (${payout.accountId}, ${payout.country}) with its onboarding link`,
    });
  if (!fresh.supportedCountries.length) missing.push({ item: 'licensed_country', message: 'List at least one licensed country in supportedCountries' });
  if (!(await activeSecrets(ctx, row.id)).length) missing.push({ item: 'signing_secret', message: 'Rotate the signing secret to make a new one' });
  return {
    offeringId: row.id,
    status: fresh.status,
    ready: missing.length === 0,
    missing,
    payoutAccount: payout ? { accountId: payout.accountId, country: payout.country, status: payout.status } : null,
    supportedCountries: fresh.supportedCountries,
    currencies: fresh.currencies,
  };
}

export async function submitOffering(ctx: Ctx, offeringId: string) {
  const report = await readiness(ctx, offeringId);
  const row = await ownOffering(ctx, requirePartner(ctx), offeringId);
  if (row.status !== 'draft') throw new ApiError('invalid_state', `Only a draft offering can be submitted (this one is ${row.status})`);
  if (!report.ready)
    throw coverageFail('offering_not_ready', `Not ready for review: ${report.missing.map((m) => m.message).join('; ')}`, {
      details: report.missing.map((m) => ({ field: m.item, message: m.message })),
    });
  const updated = await ctx.db
    .update(coverageOfferings)
    .set({ status: 'in_review', submittedAt: nowIso(ctx), version: row.version + 1 })
    .where(and(eq(coverageOfferings.id, row.id), eq(coverageOfferings.version, row.version), eq(coverageOfferings.status, 'draft')))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The offering changed meanwhile; reload it and try again');
  return view(ctx, updated);
}

export async function offeringCalls(ctx: Ctx, offeringId: string, q: { limit: number; offset: number }) {
  const row = await ownOffering(ctx, requirePartner(ctx), offeringId);
  const { rows, total } = await listCalls(ctx, row.id, q);
  return { data: rows.map(callOut), total, limit: q.limit, offset: q.offset };
}

export { view as offeringView };
