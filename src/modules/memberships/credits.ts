/**
 * The credits ledger: append-only rows per membership (cents). Every movement is ONE statement:
 * an INSERT whose `balance_after` is the sum of the rows before it plus the amount, refused by the
 * table's CHECK (balance_after >= 0) when it would be negative. D1 runs statements one at a time,
 * so parallel adjustments can never take the balance below zero, and a movement inside a larger
 * batch (a booking paid with credits) aborts that whole batch.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { membershipCredits, membershipEvents } from '../../db/schema/memberships';
import { membershipErrors } from './errors';
import { actorOf, requireStaffOverride } from './access';
import { creditBalanceOf, getMembershipInTenant } from './queries';
import { creditOut, type CreditRow } from './views';
import type { CapacityReleased } from '../../lib/hooks';

export type CreditKind = CreditRow['kind'];

export interface CreditMovement {
  customerId: string;
  membershipId: string;
  kind: CreditKind;
  /** Cents, signed. */
  amount: number;
  description: string;
  staffId?: string | null;
  reference?: string | null;
}

/** The INSERT of one movement (conditional on the resulting balance through the CHECK). */
export function creditEntryStmt(ctx: Ctx, e: CreditMovement): { id: string; stmt: Stmt } {
  const id = newId('mcr');
  const now = nowIso(ctx);
  // Columns in the table's order: id, customer_id, membership_id, kind, amount, balance_after, description, staff_id, reference, created_at.
  const stmt = ctx.db.insert(membershipCredits).select(
    sql`SELECT ${id}, ${e.customerId}, ${e.membershipId}, ${e.kind}, ${e.amount}, coalesce(sum(amount), 0) + ${e.amount},
      ${e.description}, ${e.staffId ?? null}, ${e.reference ?? null}, ${now}
    FROM membership_credits WHERE membership_id = ${e.membershipId}`,
  );
  return { id, stmt };
}

/** The 400 for a payment with credits that the balance no longer covers (a booking racing another spend). */
export const creditOverdraftError = (message = 'The membership credits no longer cover this amount') =>
  membershipErrors.fail('insufficient_credits', message, { details: [{ field: 'membershipCredits', message: 'the credit balance is too low' }] });

/** A batch failed because a credit movement would have made a balance negative. */
export function isCreditOverdraft(err: unknown): boolean {
  const msg = String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '');
  return /membership_credits_balance_ck|CHECK constraint failed: balance_after/i.test(msg);
}

export async function getCredits(ctx: Ctx, membershipId: string, q: { customerId: string; limit: number }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const m = await getMembershipInTenant(ctx, customerId, membershipId);
  const [balance, rows] = await Promise.all([
    creditBalanceOf(ctx, m.id),
    ctx.db
      .select()
      .from(membershipCredits)
      .where(and(eq(membershipCredits.customerId, customerId), eq(membershipCredits.membershipId, m.id)))
      .orderBy(desc(membershipCredits.createdAt), desc(membershipCredits.id))
      .limit(q.limit)
      .all(),
  ]);
  return { membershipId: m.id, balance, history: rows.map(creditOut) };
}

/** POST /memberships/{id}/credits/adjust: staff-only; 400 insufficient_credits when the balance would go negative. */
export async function adjustCredits(ctx: Ctx, membershipId: string, input: { customerId: string; amount: number; description: string; staffId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireStaffOverride(ctx, 'Adjusting membership credits');
  const m = await getMembershipInTenant(ctx, customerId, membershipId);
  const staffId = input.staffId ?? ctx.principal.userId ?? null;
  const entry = creditEntryStmt(ctx, { customerId, membershipId: m.id, kind: 'adjustment', amount: input.amount, description: input.description, staffId });
  try {
    await commit(
      ctx,
      [
        entry.stmt,
        ctx.db.insert(membershipEvents).values({
          id: newId('mev'),
          customerId,
          membershipId: m.id,
          type: 'credits.adjusted',
          details: { amount: input.amount, description: input.description, staffId },
          actor: actorOf(ctx),
        }),
      ],
      { audit: { action: 'membership.credits_adjust', targetType: 'membership', targetId: m.id, details: { amount: input.amount, staffId } } },
    );
  } catch (err) {
    if (isCreditOverdraft(err)) {
      const balance = await creditBalanceOf(ctx, m.id);
      throw membershipErrors.fail('insufficient_credits', `The balance is ${balance} cents; deducting ${-input.amount} would make it negative`, {
        details: [{ field: 'amount', message: 'the resulting balance would be negative' }],
        extra: { balance },
      });
    }
    throw err;
  }
  return getCredits(ctx, m.id, { customerId, limit: 50 });
}

/** Statements that pay a booking's rentals with credits (one movement per rental, so a cancelled rental gives back its own part). */
export function creditSpendStatements(
  ctx: Ctx,
  o: { customerId: string; membershipId: string; transactionId: string; parts: { rentalId: string; amount: number }[] },
): Stmt[] {
  return o.parts
    .filter((p) => p.amount > 0)
    .map(
      (p) =>
        creditEntryStmt(ctx, {
          customerId: o.customerId,
          membershipId: o.membershipId,
          kind: 'booking',
          amount: -p.amount,
          description: `Booking ${o.transactionId}`,
          reference: p.rentalId,
        }).stmt,
    );
}

/**
 * Hook `capacity.released` (a cancelled booking, through any path): gives back the credits that
 * paid that rental, once (the `booking_refund` row is unique per rental).
 */
export async function restoreCreditsOfCancelledRental(ctx: Ctx, e: CapacityReleased): Promise<void> {
  if (e.reason !== 'cancelled') return;
  const spent = await ctx.db
    .select()
    .from(membershipCredits)
    .where(and(eq(membershipCredits.customerId, e.customerId), eq(membershipCredits.kind, 'booking'), eq(membershipCredits.reference, e.rentalId)))
    .all();
  for (const s of spent) {
    const back = creditEntryStmt(ctx, {
      customerId: s.customerId,
      membershipId: s.membershipId,
      kind: 'booking_refund',
      amount: -s.amount,
      description: `Booking cancelled: ${s.description}`,
      reference: e.rentalId,
    });
    try {
      await commit(ctx, [back.stmt], {
        audit: {
          action: 'membership.credits_restore',
          targetType: 'membership',
          targetId: s.membershipId,
          customerId: s.customerId,
          details: { rentalId: e.rentalId, amount: -s.amount },
        },
      });
    } catch (err) {
      if (/UNIQUE constraint failed: membership_credits/i.test(String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '')))
        continue;
      throw err;
    }
  }
}
