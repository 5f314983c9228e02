/**
 * Opening a membership (POST /memberships, organization memberships, public enrollment):
 *
 * 1. checks the tier, the member type and the member (an existing renter, a renter created with
 *    the membership, or an organization);
 * 2. CLAIMS the member: an `incomplete` membership row under the unique partial index of live
 *    memberships per member, so of two racing creates one continues and the other answers 400
 *    `already_member` before anything is charged;
 * 3. charges the first period through the payments adapter (the card is kept for renewals); a
 *    decline deletes the claim and answers 400 `payment_declined`: nothing is written;
 * 4. writes everything else in ONE batch: the renter (created or given its payment customer), the
 *    membership made active with its period, the paid invoice and its payment, the tier's period
 *    credits, the history entry, the welcome e-mail (with a member-portal link when asked), audit
 *    and the `payment.completed` and `customer.created` events. If that batch fails the charge is
 *    refunded and the claim deleted.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso as clockIso } from '../../lib/clock';
import { emailStmt } from '../../adapters/messages';
import { payments } from '../../adapters/payments';
import { memberships } from '../../db/schema/memberships';
import {
  findRenterByEmail,
  getRenterInTenant,
  isRenterEmailConflict,
  listPaymentMethods,
  renterUpsert,
  type RenterRow,
  type RenterUpsert,
  type RenterUpsertInput,
} from '../renters/service';
import { membershipErrors } from './errors';
import { actorOf, requireManage } from './access';
import { addCycles, anchorDayOf, localDay, money, type InvoiceLine } from './periods';
import { chargeCard, declined, paymentCompletedEvent, refundCard, type ChargeOutcome, type ChargeRequest } from './payments';
import { historyStmt, invoiceStmts, newInvoice, paymentRow, paymentStmt, periodGrantStmts } from './billing-records';
import { portalLinkStatements } from './portal-links';
import { welcomeMail } from './welcome-email';
import type { EmailBrand } from '../../lib/template';
import { getOwnCustomer } from '../customers/service';
import { emailBrandOf } from '../public-settings/service';
import { getMembershipInTenant, getTierInTenant, memberZone, membershipView } from './queries';
import { familyOptionsOf, type MembershipRow, type OrgRow, type TierRow } from './views';
import type { BillingCycle, MemberType } from './types';

const bad = (message: string, field?: string) => new ApiError('bad_request', message, field ? { details: [{ field, message }] } : {});

/** Who becomes the member. */
export type MemberRef =
  { kind: 'renter'; renter: RenterRow; upsert?: RenterUpsertInput } | { kind: 'new_renter'; upsert: RenterUpsertInput } | { kind: 'organization'; org: OrgRow };

export interface OpenInput {
  customerId: string;
  tier: TierRow;
  billingCycle: BillingCycle;
  memberType: MemberType;
  member: MemberRef;
  memberEmail: string;
  memberName: string | null;
  memberPhone: string | null;
  paymentMethodId?: string;
  staffId?: string | null;
  notes?: string | null;
  /** E-mail a single-use member-portal link with the welcome e-mail (public enrollment). */
  portalLink?: boolean;
  via: 'operator' | 'public';
}

export function tierPrice(tier: TierRow, cycle: BillingCycle): number {
  const price = cycle === 'yearly' ? tier.yearlyPrice : tier.monthlyPrice;
  if (price == null) throw bad(`The tier "${tier.name}" has no ${cycle} price`, 'billingCycle');
  return price;
}

const memberKeyOf = (m: MemberRef, email: string) =>
  m.kind === 'renter' ? m.renter.id : m.kind === 'organization' ? `org:${m.org.id}` : `email:${email.toLowerCase()}`;

export const isLiveMemberConflict = (err: unknown) =>
  /UNIQUE constraint failed: memberships\.customer_id, memberships\.member_key|memberships_live_member_uq/i.test(
    String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''),
  );

const alreadyMember = (what = 'The member') => membershipErrors.fail('already_member', `${what} already has an active membership`);

/** The renter's saved default card (null when none). */
async function savedCardOf(ctx: Ctx, renterId: string): Promise<string | null> {
  const list = await listPaymentMethods(ctx, renterId).catch(() => null);
  const data = list?.data ?? [];
  return (data.find((p) => p.isDefault) ?? data[0])?.id ?? null;
}

/** The first charge of an opening, kept so a failed write can be compensated. */
interface FirstCharge {
  charge: ChargeRequest | null;
  intent: ChargeOutcome | null;
  newPaymentCustomer: string | null;
}

/** What the membership batch is built from once the first period is paid. */
interface OpenWrite {
  claim: MembershipRow;
  invoice: ReturnType<typeof newInvoice>;
  link: Awaited<ReturnType<typeof portalLinkStatements>> | null;
  paid: FirstCharge;
  renterId: string | null;
  price: number;
  nowIso: string;
  periodEnd: string;
  tz: string;
  /** The operator's name and logo heading the welcome e-mail. */
  brand: EmailBrand;
}

export async function openMembership(ctx: Ctx, o: OpenInput): Promise<{ membership: MembershipRow; customerCreated: boolean; portalLinkSent: boolean }> {
  const { tier, customerId } = o;
  const { price, renterId, paymentMethodId } = await checkOpenable(ctx, o);

  // Claim the member before any money moves.
  const nowIso = clockIso(ctx);
  const tz = await memberZone(ctx, customerId);
  const id = newId('mbr');
  const periodEnd = addCycles(nowIso, o.billingCycle, 1, anchorDayOf(nowIso));
  const claim = claimRow(o, { id, price, renterId, nowIso, periodEnd });
  await insertClaim(ctx, o, claim);

  const invoiceId = newId('minv');
  const paid: FirstCharge = { charge: null, intent: null, newPaymentCustomer: null };
  try {
    await chargeFirstPeriod(ctx, o, claim, paid, { price, renterId, paymentMethodId, invoiceId });
    const lines: InvoiceLine[] = [
      { description: `${tier.name}, ${o.billingCycle} (${localDay(nowIso, tz)} to ${localDay(periodEnd, tz)})`, kind: 'membership', amount: price },
    ];
    const invoice = newInvoice(ctx, tz, claim, {
      id: invoiceId,
      kind: 'initial',
      status: 'paid',
      periodStart: nowIso,
      periodEnd,
      lines,
      amountPaid: price,
      paidAt: nowIso,
      attempts: price > 0 ? 1 : 0,
    });
    const [link, account] = await Promise.all([
      o.portalLink ? portalLinkStatements(ctx, { customerId, membershipId: id }) : null,
      getOwnCustomer(ctx).catch(() => null),
    ]);
    const brand = emailBrandOf(account);
    const { renter, portalLinkSent } = await writeMembership(ctx, o, { claim, invoice, link, paid, renterId, price, nowIso, periodEnd, tz, brand });
    const membership = await getMembershipInTenant(ctx, customerId, id);
    return { membership, customerCreated: renter?.created ?? false, portalLinkSent };
  } catch (err) {
    await undoOpening(ctx, id, paid);
    if (isLiveMemberConflict(err)) throw alreadyMember();
    throw err;
  }
}

/** Checks the tier, the member type and the card; answers the first period's price, the renter and the card to charge. */
async function checkOpenable(ctx: Ctx, o: OpenInput): Promise<{ price: number; renterId: string | null; paymentMethodId: string | null }> {
  const { tier } = o;
  if (!tier.isActive) throw bad(`The tier "${tier.name}" is not active`, 'tierId');
  const allowed = tier.allowedMemberTypes ?? ['individual'];
  if (!allowed.includes(o.memberType)) {
    if (o.memberType === 'organization') throw membershipErrors.fail('tier_not_for_organizations', `The tier "${tier.name}" does not support organizations`);
    throw bad(`The tier "${tier.name}" allows member types ${allowed.join(', ')}`, 'memberType');
  }
  if (o.memberType === 'family' && !familyOptionsOf(tier).enabled)
    throw membershipErrors.fail('family_not_enabled', `The tier "${tier.name}" has no family option`);
  const price = tierPrice(tier, o.billingCycle);
  const renterId = o.member.kind === 'renter' ? o.member.renter.id : null;
  const paymentMethodId = o.paymentMethodId ?? (renterId && price > 0 ? await savedCardOf(ctx, renterId) : null);
  if (price > 0 && !paymentMethodId) {
    throw membershipErrors.fail(
      'payment_method_required',
      `The first period costs ${money(price, tier.currency)}: give paymentMethodId (or save a card on the renter first)`,
      {
        details: [{ field: 'paymentMethodId', message: 'required when the tier has a price' }],
      },
    );
  }
  return { price, renterId, paymentMethodId };
}

/** The `incomplete` membership row that claims the member. */
function claimRow(o: OpenInput, p: { id: string; price: number; renterId: string | null; nowIso: string; periodEnd: string }): MembershipRow {
  const { id, price, renterId, nowIso, periodEnd } = p;
  return {
    id,
    customerId: o.customerId,
    tierId: o.tier.id,
    memberType: o.memberType,
    memberKey: memberKeyOf(o.member, o.memberEmail),
    renterId,
    organizationId: o.member.kind === 'organization' ? o.member.org.id : null,
    memberEmail: o.memberEmail.toLowerCase(),
    memberName: o.memberName,
    memberPhone: o.memberPhone,
    billingCycle: o.billingCycle,
    price,
    currency: o.tier.currency,
    status: 'incomplete',
    cancelAtPeriodEnd: false,
    canceledAt: null,
    currentPeriodStart: nowIso,
    currentPeriodEnd: periodEnd,
    billingAnchorDay: anchorDayOf(nowIso),
    nextChargeAt: periodEnd,
    dunningAttempts: 0,
    openInvoiceId: null,
    pastDueSince: null,
    billingClaim: null,
    billingClaimUntil: null,
    pausedAt: null,
    resumeAt: null,
    paymentCustomerId: null,
    paymentMethodId: null,
    staffId: o.staffId ?? null,
    notes: o.notes ?? null,
    version: 1,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
}

/** Inserts the claim; a live membership of the same member answers `already_member`. */
async function insertClaim(ctx: Ctx, o: OpenInput, claim: MembershipRow): Promise<void> {
  try {
    await ctx.db.insert(memberships).values(claim);
  } catch (err) {
    if (isLiveMemberConflict(err)) throw alreadyMember(o.member.kind === 'organization' ? 'The organization' : undefined);
    throw err;
  }
}

/**
 * Charges the first period (creating the payment customer when needed) and records the payment
 * customer and card on the claim. Fills `paid` as it goes so a failure can be compensated.
 */
async function chargeFirstPeriod(
  ctx: Ctx,
  o: OpenInput,
  claim: MembershipRow,
  paid: FirstCharge,
  p: { price: number; renterId: string | null; paymentMethodId: string | null; invoiceId: string },
): Promise<void> {
  const { tier, customerId } = o;
  const { price, renterId, paymentMethodId, invoiceId } = p;
  const id = claim.id;
  // The payment customer: the renter's, else a new one (stored with the membership batch).
  let paymentCustomerId = o.member.kind === 'renter' ? o.member.renter.paymentCustomerId : null;
  if (price > 0 && !paymentCustomerId) {
    const contact =
      o.member.kind === 'organization' ? { email: o.member.org.contactEmail, name: o.member.org.name } : { email: o.memberEmail, name: o.memberName };
    paid.newPaymentCustomer = (await payments(ctx).createCustomer({ ...contact, metadata: { berthCustomerId: customerId, berthMembershipId: id } })).id;
    paymentCustomerId = paid.newPaymentCustomer;
  }
  if (price > 0) {
    paid.charge = {
      customerId,
      membershipId: id,
      invoiceId,
      renterId,
      kind: 'membership',
      amount: price,
      currency: tier.currency,
      paymentCustomerId,
      paymentMethodId: paymentMethodId!,
      description: `Membership ${tier.name} (${o.billingCycle})`,
      idempotencyKey: `${id}_initial`,
      saveCard: true,
    };
    paid.intent = await chargeCard(ctx, paid.charge);
    if (!paid.intent.ok) throw declined(paid.intent);
  }
  const intent = paid.intent;
  claim.paymentCustomerId = paymentCustomerId;
  claim.paymentMethodId = intent?.ok ? (intent.intent.paymentMethodId ?? paymentMethodId) : (paymentMethodId ?? null);
}

/** The renter to create or update with the membership (null when the renter stays as it is). */
function renterInputOf(o: OpenInput, newPaymentCustomer: string | null): RenterUpsertInput | null {
  if (o.member.kind === 'new_renter') return o.member.upsert;
  if (o.member.kind === 'renter' && (o.member.upsert || (newPaymentCustomer && !o.member.renter.paymentCustomerId))) {
    return {
      customerId: o.customerId,
      firstName: o.member.renter.firstName,
      lastName: o.member.renter.lastName,
      email: o.member.renter.email,
      ...(o.member.upsert ?? {}),
      paymentCustomerId: newPaymentCustomer ?? undefined,
    };
  }
  return null;
}

/** Upserts the renter and commits the membership batch (once more if a booking created the renter meanwhile). */
async function writeMembership(ctx: Ctx, o: OpenInput, w: OpenWrite): Promise<{ renter: RenterUpsert | null; portalLinkSent: boolean }> {
  const { newPaymentCustomer } = w.paid;
  const renterInput = renterInputOf(o, newPaymentCustomer);
  const upsert = async () =>
    renterInput ? renterUpsert(ctx, { ...renterInput, paymentCustomerId: newPaymentCustomer ?? renterInput.paymentCustomerId }) : null;
  let renter = await upsert();
  let write = membershipStatements(ctx, o, w, renter);
  const audit = {
    action: 'membership.create',
    targetType: 'membership',
    targetId: w.claim.id,
    customerId: o.customerId,
    details: { tierId: o.tier.id, billingCycle: o.billingCycle, price: w.price, via: o.via },
  };
  try {
    await commit(ctx, write.statements, { audit, events: write.events });
  } catch (err) {
    if (!isRenterEmailConflict(err)) throw err;
    // A booking created this renter a moment ago: update it instead.
    renter = await upsert();
    write = membershipStatements(ctx, o, w, renter);
    await commit(ctx, write.statements, { audit, events: write.events });
  }
  return { renter, portalLinkSent: write.portalLinkSent };
}

/** The membership batch: the renter's writes, the membership made active, invoice, credits, history, payment and welcome e-mail. */
function membershipStatements(ctx: Ctx, o: OpenInput, w: OpenWrite, renter: RenterUpsert | null) {
  const { tier, customerId } = o;
  const { claim, invoice, price } = w;
  const { charge, intent } = w.paid;
  const id = claim.id;
  const finalRenterId = renter?.renterId ?? w.renterId;
  const statements: Stmt[] = [...(renter?.statements ?? [])];
  const events: DomainEvent[] = [...(renter?.events ?? [])];
  const active: Partial<MembershipRow> = {
    status: 'active',
    renterId: finalRenterId,
    memberKey: o.member.kind === 'organization' ? claim.memberKey : finalRenterId!,
    paymentCustomerId: claim.paymentCustomerId,
    paymentMethodId: claim.paymentMethodId,
    updatedAt: w.nowIso,
  };
  statements.push(
    ctx.db
      .update(memberships)
      .set(active)
      .where(and(eq(memberships.id, id), eq(memberships.customerId, customerId), eq(memberships.status, 'incomplete'))),
    ...invoiceStmts(ctx, { ...claim, renterId: finalRenterId }, invoice, intent?.ok ? intent.intent.id : null),
    ...periodGrantStmts(ctx, claim, tier, invoice.id),
    historyStmt(ctx, claim, 'created', { tierId: tier.id, billingCycle: o.billingCycle, price, via: o.via }, actorOf(ctx), 1),
  );
  if (charge && intent?.ok) {
    statements.push(
      paymentStmt(
        ctx,
        paymentRow(ctx, claim, { invoiceId: invoice.id, kind: 'charge', status: 'succeeded', amount: price, paymentIntentId: intent.intent.id, attempt: 1 }),
      ),
    );
    events.push(paymentCompletedEvent({ ...charge, renterId: finalRenterId }, intent.intent));
  }
  statements.push(...welcomeStmts(ctx, o, w));
  return { statements, events, finalRenterId, portalLinkSent: !!w.link };
}

/** The welcome e-mail (welcome-email.ts), with the member-portal link (and its token) when one was asked for. */
function welcomeStmts(ctx: Ctx, o: OpenInput, w: OpenWrite): Stmt[] {
  const { tier, customerId } = o;
  const { claim, link, price } = w;
  const mail = welcomeMail(w.brand, {
    name: claim.memberName ?? '',
    tier: tier.name,
    until: localDay(w.periodEnd, w.tz),
    cycle: o.billingCycle,
    price: money(price, tier.currency),
    portal: link ? { url: link.url, minutes: link.validMinutes } : null,
  });
  return [
    ...(link ? [link.stmt] : []),
    emailStmt(ctx, {
      customerId,
      to: claim.memberEmail,
      subject: mail.subject,
      body: mail.text,
      html: mail.html,
      template: 'membership.welcome',
      metadata: { membershipId: claim.id, invoiceId: w.invoice.id },
    }).stmt,
  ];
}

/** Undoes an opening that failed after its claim: deletes the claim, refunds the charge and deletes a new payment customer. */
async function undoOpening(ctx: Ctx, id: string, paid: FirstCharge): Promise<void> {
  await ctx.db
    .delete(memberships)
    .where(and(eq(memberships.id, id), eq(memberships.status, 'incomplete')))
    .run()
    .catch(() => undefined);
  const intent = paid.intent;
  if (intent?.ok) {
    await refundCard(ctx, intent.intent.id, intent.intent.amount, 'membership_not_written').catch((e) =>
      ctx.log.error('compensating membership refund failed', { paymentIntentId: intent?.ok ? intent.intent.id : null, error: String(e) }),
    );
  }
  if (paid.newPaymentCustomer) {
    await payments(ctx)
      .deleteCustomer(paid.newPaymentCustomer)
      .catch(() => undefined);
  }
}

/** Splits "Ann Marie Lee" into first "Ann Marie" and last "Lee". */
function splitName(name: string | undefined): { firstName: string; lastName: string } | null {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2) return null;
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1] };
}

export interface CreateMembershipInput {
  customerId: string;
  tierId: string;
  memberEmail: string;
  memberType?: 'individual' | 'family';
  memberId?: string;
  renterId?: string;
  memberName?: string;
  memberPhone?: string;
  billingCycle?: BillingCycle;
  staffId?: string;
  notes?: string;
  createRenter?: boolean;
  firstName?: string;
  lastName?: string;
  paymentMethodId?: string;
}

/** POST /memberships. */
export async function createMembership(ctx: Ctx, input: CreateMembershipInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  if (input.memberId && input.renterId && input.memberId !== input.renterId) throw bad('memberId and renterId name different renters', 'renterId');
  const tier = await getTierInTenant(ctx, customerId, input.tierId);
  const givenRenter = input.memberId ?? input.renterId;
  let member: MemberRef;
  if (givenRenter) {
    member = { kind: 'renter', renter: await getRenterInTenant(ctx, givenRenter) };
  } else {
    const found = await findRenterByEmail(ctx, customerId, input.memberEmail);
    if (found && !found.deletedAt) member = { kind: 'renter', renter: found };
    else if (input.createRenter) {
      const names = input.firstName && input.lastName ? { firstName: input.firstName, lastName: input.lastName } : splitName(input.memberName);
      if (!names) throw bad('firstName and lastName (or a memberName with both) are needed to create the renter', 'firstName');
      member = { kind: 'new_renter', upsert: { customerId, ...names, email: input.memberEmail, phone: input.memberPhone ?? null } };
    } else {
      throw membershipErrors.fail(
        'renter_required',
        `No renter has the e-mail ${input.memberEmail}; send createRenter: true (with firstName and lastName) or a renterId`,
      );
    }
  }
  const renter = member.kind === 'renter' ? member.renter : null;
  const memberName =
    input.memberName ??
    (renter ? `${renter.firstName} ${renter.lastName}` : member.kind === 'new_renter' ? `${member.upsert.firstName} ${member.upsert.lastName}` : null);
  const out = await openMembership(ctx, {
    customerId,
    tier,
    billingCycle: input.billingCycle ?? 'monthly',
    memberType: input.memberType ?? 'individual',
    member,
    memberEmail: input.memberEmail,
    memberName,
    memberPhone: input.memberPhone ?? renter?.phone ?? null,
    paymentMethodId: input.paymentMethodId,
    staffId: input.staffId ?? ctx.principal.userId,
    notes: input.notes,
    via: 'operator',
  });
  return { ...(await membershipView(ctx, out.membership)), customerCreated: out.customerCreated };
}
