/**
 * The checkout with coverage: the booking commit every sales path uses (createBooking), with the
 * premium added to the same card payment, the deposit changed by the coverage's deposit effect,
 * and the policy written in the booking's own batch. `/bind` follows from the queue.
 *
 * Coverage never blocks a rental: an unknown, expired, declined, failed, unanswered or already
 * used quote, a booking that is not the quoted one, an offering no longer offered, or a booking not
 * paid in full now, and the booking goes ahead without coverage (`coverage.status` says
 * `not_purchased` with the reason). The one stop is the spec's: a final price above the displayed
 * estimate that the renter has not accepted (409 `coverage_price_changed`); the renter accepts it or
 * drops the coverage.
 */
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { and, eq } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import { anonymousFor, type Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toDollars } from '../../lib/money';
import { coveragePolicies, coverageQuotes } from '../../db/schema/coverage';
import { createBooking, type BookingResult } from '../bookings/service';
import type { BookBody, CreateBookingOptions } from '../bookings/types';
import { publicItem } from '../availability/service';
import { coverageFail } from './errors';
import { usableBy } from './enablements';
import { getOffering, getQuote, isEnabledAt, operatorAccount } from './queries';
import { applyDepositEffect } from './quotes';
import { enqueueBind } from './bind';
import type { CheckoutCoverage } from './schemas';
import type { PolicyRow, QuoteRow } from './views';

type BookInput = z.output<typeof BookBody>;
type Coverage = z.output<typeof CheckoutCoverage>;

const none = (status: 'not_purchased' | 'not_requested', reason: string | null, quoteId: string | null = null): Coverage => ({
  status,
  reason,
  quoteId,
  policyId: null,
  premium: null,
  currency: null,
});

/** Why this quote cannot be bought with this booking (null when it can). Throws only for an unaccepted higher price. */
async function refusal(ctx: Ctx, q: QuoteRow | undefined, customerId: string, input: BookInput): Promise<string | null> {
  if (!q || q.customerId !== customerId) return 'unknown_quote';
  const open = q.status === 'quoted' || q.status === 'ready' || q.status === 'needs_acceptance';
  if (open && Date.parse(q.expiresAt) <= ctx.clock.now()) return 'quote_expired';
  if (q.status === 'needs_acceptance')
    throw coverageFail(
      'coverage_price_changed',
      `The coverage now costs ${toDollars(q.premium).toFixed(2)} ${q.currency.toUpperCase()} (the estimate was ${toDollars(q.estimate).toFixed(2)}): accept the new price with POST .../quotes/${q.id}/accept, or book without the coverage`,
      { extra: { quoteId: q.id, estimate: toDollars(q.estimate), premium: toDollars(q.premium) } },
    );
  if (q.status === 'purchasing' || q.status === 'purchased') return 'quote_already_used';
  if (q.status === 'quoted') return 'questions_unanswered';
  if (q.status === 'declined') return `declined: ${q.reason ?? ''}`.trim();
  if (q.status === 'failed') return q.reason ?? 'failed';
  const rd = input.rentalDetails;
  if (rd.items || rd.bundleCode) return 'booking_differs_from_quote: coverage is sold with single-item orders';
  if (rd.inventoryId !== q.inventoryId || Date.parse(rd.startTime ?? '') !== q.start) return 'booking_differs_from_quote';
  if (rd.endTime && Date.parse(rd.endTime) !== q.end) return 'booking_differs_from_quote';
  // The premium covers the quoted boats or guests: a larger or smaller party needs a new quote.
  if ((rd.quantity ?? 1) !== q.quantity) return 'booking_differs_from_quote';
  const plan = input.paymentPlan?.type ?? (input.paymentMethodId ? 'full' : 'pay_later');
  if (plan !== 'full' || !input.paymentMethodId) return 'not_paid_now: coverage is bought with a booking paid in full by card';
  const offering = await getOffering(ctx, q.offeringId);
  const account = await operatorAccount(ctx, customerId);
  if (!offering || !offering.enabled || !usableBy(offering, account.isSandbox) || !(await isEnabledAt(ctx, customerId, q.locationId, q.offeringId)))
    return 'offering_unavailable';
  return null;
}

/** What a sales path adds to the booking commit (the widget: public items only, its gift card, its session and funnel rows, its order id). */
export type CheckoutBookingOptions = Pick<CreateBookingOptions, 'publicOnly' | 'giftCard' | 'statements' | 'events' | 'transactionId'>;

/** Places the booking, with the coverage when it can be bought. */
export async function checkoutWithCoverage(
  ctx: Ctx,
  input: BookInput & { coverage?: { quoteId: string } | null },
  opts: { source: 'operator' | 'widget'; booking?: CheckoutBookingOptions },
): Promise<BookingResult & { coverage: Coverage }> {
  const customerId = tenantOf(ctx);
  const { coverage: choice, ...book } = input;
  const plain = { ...opts.booking, source: opts.source };
  if (!choice) return { ...(await createBooking(ctx, book, plain)), coverage: none('not_requested', null) };
  const q = await getQuote(ctx, choice.quoteId);
  const why = await refusal(ctx, q, customerId, book);
  if (why || !q) return { ...(await createBooking(ctx, book, plain)), coverage: none('not_purchased', why, choice.quoteId) };

  // Claim the quote (one purchase per quote, whatever races): ready -> purchasing.
  const claimed = await ctx.db
    .update(coverageQuotes)
    .set({ status: 'purchasing', version: q.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(coverageQuotes.id, q.id), eq(coverageQuotes.status, 'ready'), eq(coverageQuotes.version, q.version)))
    .returning()
    .get();
  if (!claimed) return { ...(await createBooking(ctx, book, plain)), coverage: none('not_purchased', 'quote_already_used', q.id) };

  const offering = (await getOffering(ctx, q.offeringId))!;
  const transactionId = opts.booking?.transactionId ?? newId('txn');
  const policyId = newId('cpl');
  const now = nowIso(ctx);
  const policy: PolicyRow = {
    id: policyId,
    customerId,
    offeringId: q.offeringId,
    quoteId: q.id,
    transactionId,
    rentalId: null,
    locationId: q.locationId,
    status: 'pending',
    premium: q.premium,
    currency: q.currency,
    policyNumber: null,
    documentUrl: null,
    coveredStart: q.start,
    coveredEnd: q.end,
    paidAt: now,
    bindAttempts: 0,
    nextBindAt: now,
    bindLeaseUntil: null,
    lastError: null,
    boundAt: null,
    transferStatus: 'none',
    transferId: null,
    cancelledAt: null,
    cancelReason: null,
    cancelStatus: 'none',
    cancelAttempts: 0,
    nextCancelAt: null,
    premiumRefunded: false,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  let result: BookingResult;
  try {
    result = await createBooking(ctx, book, {
      ...opts.booking,
      source: opts.source,
      transactionId,
      surcharge: {
        amount: q.premium,
        entryType: 'coverage_premium',
        description: `Coverage: ${offering.name}`,
        source: 'coverage',
        reference: policyId,
        metadata: { offeringId: q.offeringId, quoteId: q.id, policyId },
      },
      adjustDeposit: (cents) => applyDepositEffect(q.depositEffect, q.depositEffectValue, cents),
      statements: [
        ...(opts.booking?.statements ?? []),
        ctx.db.insert(coveragePolicies).values(policy),
        ctx.db
          .update(coverageQuotes)
          .set({ status: 'purchased', transactionId, updatedAt: now })
          .where(and(eq(coverageQuotes.id, q.id), eq(coverageQuotes.status, 'purchasing'))),
      ],
    });
  } catch (err) {
    // The booking was not written (declined card, taken time, ...): the quote can be bought again.
    await ctx.db
      .update(coverageQuotes)
      .set({ status: 'ready', updatedAt: nowIso(ctx) })
      .where(and(eq(coverageQuotes.id, q.id), eq(coverageQuotes.status, 'purchasing')));
    throw err;
  }
  await ctx.db.update(coveragePolicies).set({ rentalId: result.rentalId }).where(eq(coveragePolicies.id, policyId));
  enqueueBind(ctx, policyId);
  return {
    ...result,
    coverage: { status: 'purchased', reason: null, quoteId: q.id, policyId, premium: toDollars(q.premium), currency: q.currency },
  };
}

/** The operator as the tenant of an anonymous widget request (audit rows name the widget). */
const asWidget = (ctx: Ctx, customerId: string): Ctx => anonymousFor(ctx, customerId, 'widget', 'Booking widget');

/** POST /public/coverage/checkout: the widget's booking with coverage (a public item, paid in full by card). */
export async function publicCheckout(
  ctx: Ctx,
  input: {
    customerId: string;
    locationId?: string;
    inventoryId: string;
    startTime: string;
    endTime?: string;
    quantity?: number;
    customerInfo: { firstName: string; lastName: string; email: string; phone?: string };
    paymentMethodId: string;
    expectedTotal?: number;
    coverage?: { quoteId: string } | null;
  },
) {
  const anon: Ctx = { ...ctx, principal: { ...ctx.principal, customerId: null } };
  const item = await publicItem(anon, input.inventoryId, input.locationId);
  if (item.row.customerId !== input.customerId) throw notFound('Inventory item');
  const wctx = asWidget(await onOperatorClock(ctx, input.customerId), input.customerId);
  const book: BookInput = {
    rentalDetails: {
      inventoryId: input.inventoryId,
      startTime: input.startTime,
      ...(input.endTime ? { endTime: input.endTime } : {}),
      ...(input.quantity != null ? { quantity: input.quantity } : {}),
    },
    rentalPricing: input.expectedTotal != null ? { total: input.expectedTotal } : {},
    customerInfo: input.customerInfo,
    paymentMethodId: input.paymentMethodId,
    paymentPlan: { type: 'full' },
    extendedData: { channel: 'widget' },
  } as BookInput;
  const r = await checkoutWithCoverage(wctx, { ...book, coverage: input.coverage }, { source: 'widget' });
  if (!r.rentalId) throw new ApiError('internal', 'The booking was not written');
  return {
    transactionId: r.order.transactionId,
    rentalId: r.rentalId,
    status: r.status,
    currency: r.order.currency,
    total: r.order.total,
    amountPaid: r.order.amountPaid,
    startTime: r.startTime,
    endTime: r.endTime,
    deposit: r.deposit ? { amount: r.deposit.amount, status: r.deposit.status } : null,
    coverage: r.coverage,
  };
}
