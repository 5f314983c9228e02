import { and, asc, count, desc, eq, inArray, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { notFound } from '../../lib/errors';
import { customers } from '../../db/schema/accounts';
import { bookings } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import {
  coverageAmendments,
  coverageCalls,
  coverageEnablements,
  coverageFlags,
  coverageOfferings,
  coveragePolicies,
  coverageQuotes,
  coverageSchemas,
} from '../../db/schema/coverage';
import type { Question } from './questions';
import type { OfferingRow, PolicyRow, QuoteRow } from './views';

/** An offering by id (deleted ones are gone). */
export const getOffering = (ctx: Pick<Ctx, 'db'>, offeringId: string) =>
  ctx.db
    .select()
    .from(coverageOfferings)
    .where(and(eq(coverageOfferings.id, offeringId), isNull(coverageOfferings.deletedAt)))
    .get();

/** The partner's own offering; another partner's answers 404. */
export async function ownOffering(ctx: Ctx, partnerId: string, offeringId: string): Promise<OfferingRow> {
  const row = await getOffering(ctx, offeringId);
  if (!row || row.partnerId !== partnerId) throw notFound('Offering');
  return row;
}

export async function listPartnerOfferings(ctx: Ctx, partnerId: string, q: { limit: number; offset: number }) {
  const where = and(eq(coverageOfferings.partnerId, partnerId), isNull(coverageOfferings.deletedAt));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(coverageOfferings).where(where).orderBy(desc(coverageOfferings.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(coverageOfferings).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** What the operator account is: sandbox (draft offerings usable), its contact e-mail and name. */
export async function operatorAccount(ctx: Pick<Ctx, 'db'>, customerId: string) {
  const row = await ctx.db
    .select({ id: customers.id, isSandbox: customers.isSandbox, email: customers.email, name: customers.name })
    .from(customers)
    .where(eq(customers.id, customerId))
    .get();
  if (!row) throw notFound('Operator');
  return row;
}

/** Offerings an operator can use: approved ones; a sandbox operator also drafts and offerings in review. */
export async function usableOfferings(ctx: Pick<Ctx, 'db'>, sandbox: boolean) {
  return ctx.db
    .select()
    .from(coverageOfferings)
    .where(and(isNull(coverageOfferings.deletedAt), sandbox ? undefined : eq(coverageOfferings.status, 'approved')))
    .orderBy(asc(coverageOfferings.name))
    .all();
}

export const enablementsOf = (ctx: Pick<Ctx, 'db'>, customerId: string, locationId?: string) =>
  ctx.db
    .select()
    .from(coverageEnablements)
    .where(and(eq(coverageEnablements.customerId, customerId), locationId ? eq(coverageEnablements.locationId, locationId) : undefined))
    .orderBy(asc(coverageEnablements.createdAt))
    .all();

/** Is the offering enabled by this operator at this location? */
export async function isEnabledAt(ctx: Pick<Ctx, 'db'>, customerId: string, locationId: string, offeringId: string): Promise<boolean> {
  const row = await ctx.db
    .select({ id: coverageEnablements.id })
    .from(coverageEnablements)
    .where(and(eq(coverageEnablements.customerId, customerId), eq(coverageEnablements.locationId, locationId), eq(coverageEnablements.offeringId, offeringId)))
    .get();
  return !!row;
}

export async function cachedSchema(ctx: Pick<Ctx, 'db'>, offeringId: string, version: string): Promise<Question[] | null> {
  const row = await ctx.db
    .select({ fields: coverageSchemas.fields })
    .from(coverageSchemas)
    .where(and(eq(coverageSchemas.offeringId, offeringId), eq(coverageSchemas.version, version)))
    .get();
  return row ? (row.fields as Question[]) : null;
}

/** A quote of the caller's operator (404 otherwise). */
export async function getQuoteInTenant(ctx: Ctx, quoteId: string): Promise<QuoteRow> {
  const row = await ctx.db
    .select()
    .from(coverageQuotes)
    .where(and(eq(coverageQuotes.id, quoteId), eq(coverageQuotes.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Coverage quote');
  return row;
}

/** A quote by its id alone (renter-facing paths: the id is the capability). */
export async function getQuoteById(ctx: Pick<Ctx, 'db'>, quoteId: string): Promise<QuoteRow> {
  const row = await ctx.db.select().from(coverageQuotes).where(eq(coverageQuotes.id, quoteId)).get();
  if (!row) throw notFound('Coverage quote');
  return row;
}

export const getQuote = (ctx: Pick<Ctx, 'db'>, quoteId: string) => ctx.db.select().from(coverageQuotes).where(eq(coverageQuotes.id, quoteId)).get();

export async function getPolicyInTenant(ctx: Ctx, policyId: string): Promise<PolicyRow> {
  const row = await ctx.db
    .select()
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.id, policyId), eq(coveragePolicies.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Coverage policy');
  return row;
}

export const getPolicy = (ctx: Pick<Ctx, 'db'>, policyId: string) => ctx.db.select().from(coveragePolicies).where(eq(coveragePolicies.id, policyId)).get();

/** The live policy of a rental (not cancelled), if any. */
export const activePolicyOfRental = (ctx: Pick<Ctx, 'db'>, customerId: string, rentalId: string) =>
  ctx.db
    .select()
    .from(coveragePolicies)
    .where(and(eq(coveragePolicies.customerId, customerId), eq(coveragePolicies.rentalId, rentalId), ne(coveragePolicies.status, 'cancelled')))
    .get();

export async function listPolicies(ctx: Ctx, q: { status?: PolicyRow['status']; rentalId?: string; limit: number; offset: number }) {
  const where = and(
    eq(coveragePolicies.customerId, tenantOf(ctx)),
    q.status ? eq(coveragePolicies.status, q.status) : undefined,
    q.rentalId ? eq(coveragePolicies.rentalId, q.rentalId) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(coveragePolicies).where(where).orderBy(desc(coveragePolicies.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(coveragePolicies).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export const amendmentsOf = (ctx: Pick<Ctx, 'db'>, policyId: string) =>
  ctx.db.select().from(coverageAmendments).where(eq(coverageAmendments.policyId, policyId)).orderBy(asc(coverageAmendments.createdAt)).all();

export const policiesOfTransaction = (ctx: Pick<Ctx, 'db'>, transactionId: string) =>
  ctx.db.select().from(coveragePolicies).where(eq(coveragePolicies.transactionId, transactionId)).orderBy(asc(coveragePolicies.createdAt)).all();

export async function orderExists(ctx: Pick<Ctx, 'db'>, transactionId: string): Promise<boolean> {
  const row = await ctx.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.transactionId, transactionId)).get();
  return !!row;
}

/** The first rental of an order (the one that carries the premium). */
export async function firstRentalOf(ctx: Pick<Ctx, 'db'>, customerId: string, transactionId: string): Promise<string | null> {
  const row = await ctx.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.customerId, customerId), eq(bookings.transactionId, transactionId)))
    .orderBy(asc(bookings.createdAt), asc(bookings.id))
    .get();
  return row?.id ?? null;
}

/** Bound policies whose booking moved away from the covered window (any path that moves dates). */
/** The time zone of a policy's location (for times in the texts people read); UTC when the location is gone. */
export async function policyZone(ctx: Pick<Ctx, 'db'>, policy: Pick<PolicyRow, 'locationId' | 'customerId'>): Promise<string> {
  const row = await ctx.db
    .select({ tz: locations.timezone })
    .from(locations)
    .where(and(eq(locations.id, policy.locationId), eq(locations.customerId, policy.customerId)))
    .get();
  return row?.tz ?? 'UTC';
}

/** Bound policies whose booking moved since they were covered (of the operators in the job's scope). */
export async function movedPolicies(ctx: Ctx, limit = 100) {
  return ctx.db
    .select({ policy: coveragePolicies, start: bookings.start, end: bookings.end })
    .from(coveragePolicies)
    .innerJoin(bookings, and(eq(bookings.id, coveragePolicies.rentalId), eq(bookings.customerId, coveragePolicies.customerId)))
    .where(
      and(
        eq(coveragePolicies.status, 'bound'),
        inArray(bookings.status, ['pending', 'confirmed']),
        or(ne(bookings.start, coveragePolicies.coveredStart), ne(bookings.end, coveragePolicies.coveredEnd)),
        inJobScope(ctx, coveragePolicies.customerId),
      ),
    )
    .limit(limit)
    .all();
}

export async function listFlags(ctx: Ctx, q: { open?: boolean; limit: number; offset: number }) {
  const where = and(
    eq(coverageFlags.customerId, tenantOf(ctx)),
    q.open === true ? isNull(coverageFlags.resolvedAt) : q.open === false ? isNotNull(coverageFlags.resolvedAt) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(coverageFlags).where(where).orderBy(desc(coverageFlags.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(coverageFlags).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function listCalls(ctx: Pick<Ctx, 'db'>, offeringId: string, q: { limit: number; offset: number }) {
  const where = eq(coverageCalls.offeringId, offeringId);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(coverageCalls).where(where).orderBy(desc(coverageCalls.createdAt), desc(coverageCalls.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(coverageCalls).where(where).get(),
  ]);
  return { rows, total: total?.n ?? 0 };
}
