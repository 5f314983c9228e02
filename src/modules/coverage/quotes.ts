/**
 * Coverage at checkout: quotes (one card per eligible offering), the renter's answers and the
 * requote, and the explicit acceptance of a higher price.
 *
 * `/quote` is called as soon as an item and a time are chosen, with no renter identity, within the
 * offering's `quoteTimeoutMs` (never more than 5000 ms). A timeout, an error, a premium that is not
 * a JSON number, or a reducing deposit effect without `depositEffectValue` means no card: the
 * booking goes on without coverage. `/schema` is fetched once per version (cached, sanitised) and
 * pinned to the quote. Answers are checked against that version before `/requote`; a higher final
 * price than Berth's record of the displayed estimate blocks the purchase until the renter accepts
 * it; a lower one goes on at the new price; a decline or a failure removes the card.
 */
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import { localDate } from '../../lib/time';
import { coverageQuotes, coverageSchemas } from '../../db/schema/coverage';
import { departureAt, loadItemContext, publicItem, type ItemContext, type LocationRow } from '../availability/service';
import { callOffering, logRejected } from './calls';
import { coverageFail } from './errors';
import { answerable, sanitiseSchema, validateAnswers, type Question } from './questions';
import { cachedSchema, enablementsOf, getOffering, getQuoteById, getQuoteInTenant, operatorAccount } from './queries';
import { usableBy } from './enablements';
import { DEPOSIT_EFFECTS, MAX_QUOTE_TIMEOUT_MS, QUOTE_TTL_MS, type DepositEffect } from './types';
import { quoteOut, type OfferingRow, type QuoteRow } from './views';

const COUNTRY_NAMES: Record<string, string> = {
  usa: 'US', 'u.s.a.': 'US', 'united states': 'US', 'united states of america': 'US', canada: 'CA', 'united kingdom': 'GB', uk: 'GB',
  'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', switzerland: 'CH', schweiz: 'CH', suisse: 'CH',
  germany: 'DE', deutschland: 'DE', france: 'FR', spain: 'ES', españa: 'ES', italy: 'IT', italia: 'IT', netherlands: 'NL', 'the netherlands': 'NL',
  austria: 'AT', österreich: 'AT', belgium: 'BE', ireland: 'IE', portugal: 'PT', sweden: 'SE', norway: 'NO', denmark: 'DK', finland: 'FI',
  greece: 'GR', croatia: 'HR', poland: 'PL', malta: 'MT', cyprus: 'CY', iceland: 'IS', mexico: 'MX', australia: 'AU', 'new zealand': 'NZ',
  bahamas: 'BS', 'the bahamas': 'BS',
}; // prettier-ignore

/**
 * The country of a location: `details.country` (ISO 3166-1 alpha-2, set with PATCH /location), or
 * the country named at the end of its address ("..., Hamburg, Germany"); null when neither says.
 */
export function locationCountry(loc: Pick<LocationRow, 'details' | 'address'>): string | null {
  const c = (loc.details as { country?: unknown } | null)?.country;
  if (typeof c === 'string' && /^[A-Za-z]{2}$/.test(c.trim())) return c.trim().toUpperCase();
  const last = loc.address.split(',').pop() ?? '';
  const name = last
    .replace(/[0-9-]+/g, ' ')
    .trim()
    .toLowerCase();
  return COUNTRY_NAMES[name] ?? null;
}

/** The deposit with the coverage's effect (cents). */
export function applyDepositEffect(effect: DepositEffect, value: number | null, cents: number): number {
  switch (effect) {
    case 'none':
      return cents;
    case 'waive':
      return 0;
    case 'reduce_to':
      return Math.min(cents, toCents(value ?? 0));
    case 'reduce_by':
      return Math.max(0, cents - toCents(value ?? 0));
    case 'reduce_by_percent':
      return Math.max(0, Math.round((cents * (100 - Math.min(100, value ?? 0))) / 100));
  }
}

type QuoteOk = { premium: number; effect: DepositEffect; value: number | null; quoteId: string; version: string };

/** Checks a `/quote` answer against the contract (spec rules 3 and 4); answers why it is rejected. */
export function readQuoteAnswer(json: unknown, currency: string): QuoteOk | string {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return 'the answer is not a JSON object';
  const a = json as Record<string, unknown>;
  if (typeof a.premium !== 'number' || !Number.isFinite(a.premium)) return 'premium is not a JSON number';
  if (a.premium < 0 || a.premium > 1_000_000) return 'premium is out of range';
  const effect = (a.depositEffect ?? 'none') as DepositEffect;
  if (!DEPOSIT_EFFECTS.includes(effect)) return `depositEffect ${String(a.depositEffect).slice(0, 40)} is not one of ${DEPOSIT_EFFECTS.join(', ')}`;
  let value: number | null = null;
  if (effect !== 'none' && effect !== 'waive') {
    if (typeof a.depositEffectValue !== 'number' || !Number.isFinite(a.depositEffectValue) || a.depositEffectValue < 0)
      return `depositEffect ${effect} without a numeric depositEffectValue`;
    if (effect === 'reduce_by_percent' && a.depositEffectValue > 100) return 'depositEffectValue above 100 percent';
    value = a.depositEffectValue;
  }
  if (typeof a.quoteId !== 'string' || !a.quoteId || a.quoteId.length > 500) return 'quoteId is missing';
  if (typeof a.questionSchemaVersion !== 'string' || !a.questionSchemaVersion || a.questionSchemaVersion.length > 100)
    return 'questionSchemaVersion is missing';
  if (a.currency !== undefined && (typeof a.currency !== 'string' || a.currency.toLowerCase() !== currency)) return `the quote is not in ${currency}`;
  return { premium: toCents(a.premium), effect, value, quoteId: a.quoteId, version: a.questionSchemaVersion };
}

/** The sanitised questions of a schema version: from the cache, or fetched once from `/schema` and kept. */
async function questionsOf(ctx: Ctx, offering: OfferingRow, version: string, subjectId: string): Promise<Question[] | string> {
  const cached = await cachedSchema(ctx, offering.id, version);
  if (cached) return cached;
  const r = await callOffering(ctx, offering, 'schema', { version }, { timeoutMs: MAX_QUOTE_TIMEOUT_MS, subjectId });
  if (r.outcome !== 'ok') return `schema_unavailable: ${r.error ?? r.outcome}`;
  const clean = sanitiseSchema(r.json);
  if (!clean.ok) {
    await logRejected(ctx, offering.id, 'schema', clean.reason, subjectId);
    return `schema_refused: ${clean.reason}`;
  }
  await ctx.db
    .insert(coverageSchemas)
    .values({ offeringId: offering.id, version, fields: clean.fields, dropped: clean.dropped, fetchedAt: nowIso(ctx) })
    .onConflictDoNothing();
  return (await cachedSchema(ctx, offering.id, version)) ?? clean.fields;
}

interface QuoteInput {
  inventoryId: string;
  locationId?: string;
  startTime: string;
  endTime?: string;
  quantity: number;
}

/** The item and the window being quoted (a tour's window is its departure). */
function windowOf(item: ItemContext, input: QuoteInput): { start: number; end: number } {
  const start = Date.parse(input.startTime);
  if (item.item.kind === 'tour') {
    const dep = departureAt(item.item, start);
    if (!dep) throw new ApiError('unavailable', `No departure starts at ${input.startTime}`);
    return { start, end: dep.end };
  }
  if (!input.endTime) throw new ApiError('validation_failed', 'endTime is required for a rental', { details: [{ field: 'endTime', message: 'required' }] });
  const end = Date.parse(input.endTime);
  if (!(end > start))
    throw new ApiError('validation_failed', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  return { start, end };
}

type Unavailable = { offeringId: string; name: string; reason: string };

/** Quotes every offering enabled at the item's location that is eligible (licensed country, priced currency), in parallel. */
async function quoteItem(ctx: Ctx, customerId: string, item: ItemContext, input: QuoteInput) {
  const { start, end } = windowOf(item, input);
  const account = await operatorAccount(ctx, customerId);
  const country = locationCountry(item.location);
  const currency = item.currency.toLowerCase();
  const enabled = await enablementsOf(ctx, customerId, item.row.locationId);
  const unavailable: Unavailable[] = [];
  const model = item.item.model;
  const depositBefore = model.deposit?.required ? toCents(model.deposit.amount) : 0;
  const attempts = await Promise.all(
    enabled.map(async (e): Promise<QuoteRow | null> => {
      const offering = await getOffering(ctx, e.offeringId);
      if (!offering || !usableBy(offering, account.isSandbox) || !offering.enabled) {
        if (offering) unavailable.push({ offeringId: offering.id, name: offering.name, reason: 'offering_unavailable' });
        return null;
      }
      if (!country || !offering.supportedCountries.includes(country)) {
        unavailable.push({ offeringId: offering.id, name: offering.name, reason: country ? `country_not_licensed: ${country}` : 'location_country_unknown' });
        return null;
      }
      if (!offering.currencies.includes(currency)) {
        unavailable.push({ offeringId: offering.id, name: offering.name, reason: `currency_not_priced: ${currency}` });
        return null;
      }
      const id = newId('cq');
      const body = {
        requestId: id,
        offeringId: offering.id,
        sandbox: account.isSandbox,
        currency,
        location: { country, timezone: item.item.timezone },
        product: {
          inventoryId: item.row.id,
          name: item.row.name,
          kind: item.item.kind,
          category: (model as { category?: string }).category ?? null,
          quantity: input.quantity,
          deposit: depositBefore / 100,
        },
        window: { start: new Date(start).toISOString(), end: new Date(end).toISOString() },
      };
      const r = await callOffering(ctx, offering, 'quote', body, { timeoutMs: Math.min(offering.quoteTimeoutMs, MAX_QUOTE_TIMEOUT_MS), subjectId: id });
      if (r.outcome !== 'ok') {
        unavailable.push({ offeringId: offering.id, name: offering.name, reason: `${r.outcome}: ${r.error ?? ''}`.trim() });
        return null;
      }
      const q = readQuoteAnswer(r.json, currency);
      if (typeof q === 'string') {
        await logRejected(ctx, offering.id, 'quote', q, id);
        unavailable.push({ offeringId: offering.id, name: offering.name, reason: `quote_rejected: ${q}` });
        return null;
      }
      const questions = await questionsOf(ctx, offering, q.version, id);
      if (typeof questions === 'string') {
        unavailable.push({ offeringId: offering.id, name: offering.name, reason: questions });
        return null;
      }
      const now = ctx.clock.now();
      const row: QuoteRow = {
        id,
        customerId,
        offeringId: offering.id,
        locationId: item.row.locationId,
        inventoryId: item.row.id,
        start,
        end,
        quantity: input.quantity,
        currency,
        sandbox: account.isSandbox,
        underwriterQuoteId: q.quoteId,
        estimate: q.premium,
        premium: q.premium,
        depositEffect: q.effect,
        depositEffectValue: q.value,
        depositBefore,
        depositAfter: applyDepositEffect(q.effect, q.value, depositBefore),
        schemaVersion: q.version,
        status: answerable(questions).length ? 'quoted' : 'ready',
        answers: null,
        reason: null,
        transactionId: null,
        expiresAt: new Date(now + QUOTE_TTL_MS).toISOString(),
        version: 1,
        createdAt: new Date(now).toISOString(),
        updatedAt: new Date(now).toISOString(),
      };
      await ctx.db.insert(coverageQuotes).values(row);
      return row;
    }),
  );
  const data = [];
  for (const row of attempts) if (row) data.push(await quoteView(ctx, row));
  return { data, unavailable };
}

/** POST /coverage/quotes: the operator's checkout. */
export async function quoteForOperator(ctx: Ctx, input: QuoteInput) {
  const customerId = tenantOf(ctx);
  const item = await loadItemContext(ctx.db, input.inventoryId, customerId);
  if (input.locationId && item.row.locationId !== input.locationId) throw notFound('Inventory item at this location');
  return quoteItem(ctx, customerId, item, input);
}

/** POST /public/coverage/quotes: the widget (a public item of the named operator). */
export async function quoteForWidget(ctx: Ctx, input: QuoteInput & { customerId: string }) {
  const anon: Ctx = { ...ctx, principal: { ...ctx.principal, customerId: null } };
  const item = await publicItem(anon, input.inventoryId, input.locationId);
  if (item.row.customerId !== input.customerId) throw notFound('Inventory item');
  return quoteItem(await onOperatorClock(ctx, input.customerId), input.customerId, item, input);
}

export async function quoteView(ctx: Ctx, row: QuoteRow) {
  const offering = (await getOffering(ctx, row.offeringId)) ?? { name: '(deleted offering)', supportEmail: '' };
  const questions = (await cachedSchema(ctx, row.offeringId, row.schemaVersion)) ?? [];
  return quoteOut(row, offering, questions);
}

/** A quote by id: tenant-scoped for operators, by id alone for the widget. */
const loadQuote = (ctx: Ctx, quoteId: string, surface: 'operator' | 'widget') =>
  surface === 'operator' ? getQuoteInTenant(ctx, quoteId) : getQuoteById(ctx, quoteId);

export async function getQuoteView(ctx: Ctx, quoteId: string, surface: 'operator' | 'widget') {
  return quoteView(ctx, await loadQuote(ctx, quoteId, surface));
}

/** A compare-and-swap on the quote's version. */
async function casQuote(ctx: Ctx, row: QuoteRow, set: Partial<QuoteRow>): Promise<QuoteRow> {
  const updated = await ctx.db
    .update(coverageQuotes)
    .set({ ...set, version: row.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(coverageQuotes.id, row.id), eq(coverageQuotes.version, row.version)))
    .returning()
    .get();
  if (!updated) throw new ApiError('version_conflict', 'The coverage quote changed meanwhile; reload it');
  return updated;
}

/** A quote still open at `now` (the operator's clock, ms). */
function usable(row: QuoteRow, now: number) {
  if (Date.parse(row.expiresAt) <= now && (row.status === 'quoted' || row.status === 'ready' || row.status === 'needs_acceptance'))
    throw new ApiError('expired', 'This coverage quote has expired: ask for a new one');
  if (row.status !== 'quoted' && row.status !== 'ready' && row.status !== 'needs_acceptance')
    throw new ApiError('invalid_state', `This coverage quote is ${row.status}`, { extra: { status: row.status } });
}

/** The renter's answers: checked against the pinned questions, then `/requote`. */
export async function submitAnswers(ctx: Ctx, quoteId: string, answers: Record<string, unknown>, surface: 'operator' | 'widget') {
  const row = await loadQuote(ctx, quoteId, surface);
  ctx = await onOperatorClock(ctx, row.customerId);
  usable(row, ctx.clock.now());
  const offering = await getOffering(ctx, row.offeringId);
  if (!offering) return quoteView(ctx, await casQuote(ctx, row, { status: 'failed', reason: 'offering_unavailable' }));
  const questions = (await cachedSchema(ctx, row.offeringId, row.schemaVersion)) ?? [];
  const item = await loadItemContext(ctx.db, row.inventoryId, row.customerId);
  const checked = validateAnswers(questions, answers, localDate(row.start, item.item.timezone));
  if (!checked.ok) throw new ApiError('validation_failed', `The answers do not fit the questions: ${checked.details[0].message}`, { details: checked.details });
  const r = await callOffering(
    ctx,
    offering,
    'requote',
    {
      quoteId: row.underwriterQuoteId,
      requestId: row.id,
      currency: row.currency,
      answers: checked.answers,
      window: { start: new Date(row.start).toISOString(), end: new Date(row.end).toISOString() },
    },
    { subjectId: row.id },
  );
  let set: Partial<QuoteRow>;
  const a = (r.json ?? {}) as { decision?: unknown; premium?: unknown; reason?: unknown };
  if (r.outcome !== 'ok') set = { status: 'failed', reason: `requote_failed: ${r.outcome}${r.error ? `: ${r.error}` : ''}`.slice(0, 500) };
  else if (a.decision === 'declined')
    set = { status: 'declined', reason: typeof a.reason === 'string' && a.reason ? a.reason.slice(0, 500) : 'The underwriter declined this coverage' };
  else if (a.decision === 'accepted' && typeof a.premium === 'number' && Number.isFinite(a.premium) && a.premium >= 0 && a.premium <= 1_000_000) {
    const premium = toCents(a.premium);
    set = { status: premium > row.estimate ? 'needs_acceptance' : 'ready', premium, answers: checked.answers, reason: null };
  } else {
    const why = a.decision === 'accepted' ? 'an accepted requote without a numeric premium' : 'decision is neither accepted nor declined';
    await logRejected(ctx, offering.id, 'requote', why, row.id);
    set = { status: 'failed', reason: `requote_rejected: ${why}` };
  }
  return quoteView(ctx, await casQuote(ctx, row, set));
}

/** The renter accepts the higher final price (as displayed: `premium` must equal it). */
export async function acceptPrice(ctx: Ctx, quoteId: string, premium: number, surface: 'operator' | 'widget') {
  const row = await loadQuote(ctx, quoteId, surface);
  ctx = await onOperatorClock(ctx, row.customerId);
  usable(row, ctx.clock.now());
  if (row.status !== 'needs_acceptance') throw new ApiError('invalid_state', `There is no new price to accept (the quote is ${row.status})`);
  if (toCents(premium) !== row.premium)
    throw coverageFail('coverage_price_changed', `The price to accept is ${(row.premium / 100).toFixed(2)} ${row.currency.toUpperCase()}`, {
      extra: { estimate: row.estimate / 100, premium: row.premium / 100 },
    });
  return quoteView(ctx, await casQuote(ctx, row, { status: 'ready' }));
}
