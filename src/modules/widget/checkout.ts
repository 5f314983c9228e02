/**
 * The booking widget's sale: a quote (the server's price of the order and whether the slot is still
 * free, nothing reserved) and the checkout, which places the booking through the same booking commit
 * as every sales path (createBooking with source `widget`: minimum notice and advance window
 * enforced, the item's lock, full payment with the card, one D1 batch). The checkout adds to that
 * batch the renter's 24-hour `checkout` session (participants, documents) and the funnel's `booked`
 * event; it carries the affiliate (`refAffiliate`) and the waivers signed in the widget to the
 * booking. A gift card (in `promoCode` or `giftCardCode`) pays what it can in the booking's batch and
 * the card the rest. A coverage card the renter chose (`coverage.quoteId`) is bought through the
 * coverage checkout (premium in the same card payment, policy in the same batch); coverage never
 * blocks the booking. Only public items of the named operator can be sold here.
 */
import { anonymousFor, type Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import type { z } from '@hono/zod-openapi';
import { bookingLinks, inRequestFields, previewBooking } from '../bookings/service';
import { checkoutWithCoverage } from '../coverage/service';
import { publicItem } from '../availability/service';
import type { BookBody } from '../bookings/types';
import { signatureInfo } from '../waivers/service';
import { checkoutSessionStmt } from '../renter-self-service/service';
import { findBookingGiftCard } from '../promo-codes/service';
import { widgetEventStmt } from './events';

type BookInput = z.output<typeof BookBody>;

type Order = {
  customerId: string;
  inventoryId: string;
  startTime: string;
  endTime?: string;
  quantity?: number;
  tickets?: Record<string, number>;
  participants?: number;
  addons?: { addonId: string; quantity?: number }[];
  promoCode?: string;
  giftCardCode?: string;
  tip?: number;
};

/** The operator as the tenant of an anonymous widget request (audit rows name the widget). */
export function asWidget(ctx: Ctx, customerId: string): Ctx {
  return anonymousFor(ctx, customerId, 'widget', 'Booking widget');
}

/**
 * The public item of the named operator (404 for a private, deleted or foreign item), for the quote.
 * The checkout leaves the check to createBooking (`publicOnly`), in the sale's first round trip.
 */
async function sellable(wctx: Ctx, o: Order, locationId?: string) {
  const anon: Ctx = { ...wctx, principal: { ...wctx.principal, customerId: null } };
  const item = await publicItem(anon, o.inventoryId, locationId);
  if (item.row.customerId !== o.customerId) throw notFound('Inventory item');
  return item;
}

/**
 * The codes of an order: `promoCode` may name a promo code or a gift card (the widget has one "promo or
 * gift code" field); a gift card pays, a promo code discounts. `giftCardCode` names a gift card.
 */
async function codesOf(ctx: Ctx, o: Order): Promise<{ promoCode?: string; giftCard?: { code: string } }> {
  let promoCode = o.promoCode;
  let giftCode = o.giftCardCode;
  if (promoCode && !giftCode) {
    // Whether the code names a gift card (its validity here is checked by the booking commit).
    const card = await findBookingGiftCard(ctx, o.customerId, promoCode, { locationId: '', itemIds: [], now: ctx.clock.now() });
    if (card) {
      giftCode = promoCode;
      promoCode = undefined;
    }
  }
  return { ...(promoCode ? { promoCode } : {}), ...(giftCode ? { giftCard: { code: giftCode } } : {}) };
}

function bookInput(o: Order & { locationId?: string }, extra: Partial<BookInput> = {}): BookInput {
  return {
    rentalDetails: {
      inventoryId: o.inventoryId,
      ...(o.locationId ? { locationId: o.locationId } : {}),
      startTime: o.startTime,
      ...(o.endTime ? { endTime: o.endTime } : {}),
      ...(o.quantity != null ? { quantity: o.quantity } : {}),
      ...(o.tickets ? { tickets: o.tickets } : {}),
      ...(o.participants != null ? { participants: o.participants } : {}),
    },
    rentalPricing: { ...(o.tip ? { tip: o.tip } : {}) },
    customerInfo: { firstName: 'Widget', lastName: 'Quote', email: 'quote@widget.invalid' },
    ...(o.promoCode ? { discountDetails: { promoCode: o.promoCode } } : {}),
    selectedBoatAddons: o.addons ?? [],
    extendedData: {},
    ...extra,
  } as BookInput;
}

/** The widget's order names its fields at the top level (`tickets`, `quantity`, `startTime`, ...), not under `rentalDetails`. */
const ownFields = (err: unknown) => inRequestFields(err, (field) => field);

/** POST /public/widget/quote. */
export async function quoteOrder(ctx: Ctx, o: Order) {
  // The operator is named in the body: its clock (a sandbox test clock's time) from here on.
  const wctx = asWidget(await onOperatorClock(ctx, o.customerId), o.customerId);
  await sellable(wctx, o);
  const codes = await codesOf(wctx, o);
  const p = await previewBooking(wctx, bookInput({ ...o, promoCode: codes.promoCode }), { source: 'widget', giftCard: codes.giftCard }).catch(
    (err: unknown) => {
      throw ownFields(err);
    },
  );
  return {
    currency: p.currency,
    total: p.total,
    giftCard: p.giftCard,
    amountDue: p.amountDue,
    deposit: p.deposit,
    available: p.available,
    reasons: p.availability.flatMap((a) => a.reasons ?? []),
    lines: p.lines,
  };
}

export interface CheckoutInput extends Order {
  locationId?: string;
  customerInfo: { firstName: string; lastName: string; email: string; phone?: string };
  paymentMethodId?: string;
  expectedTotal?: number;
  waiverSignatureIds?: string[];
  refAffiliate?: string;
  sessionId?: string;
  source?: string;
  notes?: string;
  coverage?: { quoteId: string } | null;
}

/** The waivers signed in the widget, as the booking's `extendedData.signedWaivers` entries (the operator's own, by this renter's party). */
async function signedWaivers(ctx: Ctx, customerId: string, ids: string[], origin: string) {
  const out = [];
  for (const id of [...new Set(ids)]) {
    const s = await signatureInfo(ctx, id, origin).catch(() => null);
    if (!s || s.customerId !== customerId)
      throw new ApiError('bad_request', `Waiver ${id} is not a waiver signed for this operator`, {
        details: [{ field: 'waiverSignatureIds', message: 'unknown signature' }],
      });
    out.push({
      signatureId: s.signatureId,
      url: s.waiverUrl,
      templateId: s.templateId,
      signerName: `${s.firstName} ${s.lastName}`,
      email: s.email,
      signedAt: s.signedAt,
    });
  }
  return out;
}

/** POST /public/widget/checkout. */
export async function checkout(ctx: Ctx, input: CheckoutInput, origin: string) {
  // The operator is named in the body: its clock (a sandbox test clock's time) from here on.
  ctx = await onOperatorClock(ctx, input.customerId);
  const wctx = asWidget(ctx, input.customerId);
  const codes = input.promoCode || input.giftCardCode ? await codesOf(wctx, input) : {};
  const waivers = input.waiverSignatureIds?.length ? await signedWaivers(ctx, input.customerId, input.waiverSignatureIds, origin) : [];
  const transactionId = newId('txn');
  const session = await checkoutSessionStmt(wctx, { customerId: input.customerId, transactionId });
  const funnel = input.sessionId
    ? [
        widgetEventStmt(wctx, {
          customerId: input.customerId,
          sessionId: input.sessionId,
          event: 'booked',
          inventoryId: input.inventoryId,
          locationId: input.locationId,
          ref: input.refAffiliate,
          source: input.source,
          details: { transactionId },
        }),
      ]
    : [];
  const booking = bookInput(
    { ...input, promoCode: codes.promoCode },
    {
      rentalPricing: { ...(input.tip ? { tip: input.tip } : {}), ...(input.expectedTotal != null ? { total: input.expectedTotal } : {}) },
      customerInfo: input.customerInfo,
      paymentMethodId: input.paymentMethodId,
      paymentPlan: { type: 'full' },
      extendedData: {
        channel: 'widget',
        ...(input.refAffiliate ? { refAffiliate: input.refAffiliate } : {}),
        ...(input.source ? { widgetSource: input.source } : {}),
        ...(input.sessionId ? { widgetSessionId: input.sessionId } : {}),
        ...(input.notes ? { notes: input.notes } : {}),
        ...(waivers.length ? { signedWaivers: waivers } : {}),
      },
    },
  );
  const result = await checkoutWithCoverage(
    wctx,
    { ...booking, coverage: input.coverage ?? null },
    {
      source: 'widget',
      booking: { publicOnly: true, transactionId, statements: [session.stmt, ...funnel], ...(codes.giftCard ? { giftCard: codes.giftCard } : {}) },
    },
  ).catch((err: unknown) => {
    throw ownFields(err);
  });
  const rentalId = result.rentalId;
  const enc = encodeURIComponent(rentalId);
  const manage = bookingLinks(origin, input.customerId, rentalId).manage;
  return {
    transactionId: result.order.transactionId,
    rentalId,
    reference: rentalId,
    rentalIds: result.rentals.map((r) => r.rentalId),
    status: result.status,
    currency: result.order.currency,
    total: result.order.total,
    amountPaid: result.order.amountPaid,
    balanceDue: result.order.balanceDue,
    startTime: result.startTime,
    endTime: result.endTime,
    timezone: result.timezone ?? 'UTC',
    renterToken: session.token,
    renterTokenExpiresAt: session.expiresAt,
    coverage: result.coverage,
    links: {
      pass: `${origin}/public/bookings/${enc}/wallet-pass-a`,
      passFile: `${origin}/public/bookings/${enc}/wallet-pass-a/download`,
      saveToWallet: `${origin}/public/bookings/${enc}/wallet-pass-b`,
      calendar: `${origin}/public/bookings/${enc}/calendar.ics`,
      manage,
      coverage: `${origin}/public/coverage?TransactionId=${encodeURIComponent(result.order.transactionId)}`,
    },
  };
}

/** The total the renter saw, in cents (for the price check). */
export const expectedCents = (v: number | undefined) => (v == null ? null : toCents(v));
