import { and, eq, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { renters } from '../../db/schema/bookings';
import { payments } from '../../adapters/payments';
import { sqlJsonAppend, sqlJsonMerge } from '../../db/json';
import { isRenterEmailConflict, renterUpsert } from './upsert';
import { paymentFailure } from './payment-methods';
import { accountingOf, getRenterInTenant, normalizeEmail } from './queries';
import { renterOut, type Status } from './views';
import { nowIso } from '../../lib/clock';

export async function upsertRenter(
  ctx: Ctx,
  input: {
    customerId: string;
    firstName: string;
    lastName: string;
    email: string;
    address: string | Record<string, unknown>;
    phone?: string;
    dob?: string;
    waivers_signed_urls?: string[];
    id_verifications?: Record<string, unknown>;
    transactions?: unknown[];
    additional_info?: Record<string, unknown>;
    stripe_customer_id?: string;
  },
): Promise<{ created: boolean; renter: ReturnType<typeof renterOut> }> {
  const customerId = ownCustomer(ctx, input.customerId);
  const args = {
    customerId,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    address: input.address,
    phone: input.phone,
    dob: input.dob,
    waivers_signed_urls: input.waivers_signed_urls,
    id_verifications: input.id_verifications,
    transactions: input.transactions,
    additional_info: input.additional_info,
    paymentCustomerId: input.stripe_customer_id,
  };
  for (let attempt = 0; ; attempt++) {
    const up = await renterUpsert(ctx, args);
    try {
      await commit(ctx, up.statements, {
        audit: {
          action: up.created ? 'renter.create' : 'renter.update',
          targetType: 'renter',
          targetId: up.renterId,
          details: { email: normalizeEmail(input.email), via: 'POST /renters' },
        },
        events: up.events,
      });
    } catch (err) {
      // Another request created this e-mail between our read and our insert: update it instead.
      if (attempt === 0 && up.created && isRenterEmailConflict(err)) continue;
      throw err;
    }
    const row = await getRenterInTenant(ctx, up.renterId);
    return { created: up.created, renter: renterOut(row) };
  }
}

export async function patchRenter(
  ctx: Ctx,
  id: string,
  input: {
    add_note?: boolean;
    note?: Record<string, unknown>;
    firstName?: string;
    lastName?: string;
    email?: string;
    phone?: string | null;
    dob?: string | null;
    address?: string | Record<string, unknown> | null;
    status?: Status;
    riskScore?: number | null;
    additional_info?: Record<string, unknown>;
    transactions?: unknown[];
  },
) {
  const existing = await getRenterInTenant(ctx, id);
  if (input.add_note === true && !input.note)
    throw new ApiError('bad_request', 'add_note needs a `note` object to append', {
      details: [{ field: 'note', message: 'note is required when add_note is true', code: 'required' }],
    });
  const set: Record<string, unknown> = {};
  const fields: string[] = [];
  for (const k of ['firstName', 'lastName', 'phone', 'dob', 'address', 'status', 'riskScore'] as const) {
    if (input[k] !== undefined) {
      set[k] = input[k];
      fields.push(k);
    }
  }
  if (input.email !== undefined && input.email !== existing.email) {
    const taken = await ctx.db
      .select({ id: renters.id })
      .from(renters)
      .where(and(eq(renters.customerId, existing.customerId), eq(renters.email, input.email), ne(renters.id, existing.id)))
      .get();
    if (taken) throw new ApiError('already_exists', 'Another renter of this operator already has this e-mail');
    set.email = input.email;
    fields.push('email');
  }
  if (input.additional_info && Object.keys(input.additional_info).length) {
    set.additionalInfo = sqlJsonMerge(renters.additionalInfo, input.additional_info);
    fields.push('additional_info');
  }
  if (input.transactions?.length) {
    set.transactions = sqlJsonAppend(renters.transactions, input.transactions);
    fields.push('transactions');
  }
  let noteId: string | undefined;
  if (input.note && input.add_note !== false) {
    noteId = newId('note');
    const note = {
      ...input.note,
      id: noteId,
      createdAt: nowIso(ctx),
      createdBy: ctx.principal.userId ?? ctx.principal.credentialId,
      createdByName: ctx.principal.name ?? null,
    };
    set.notes = sqlJsonAppend(renters.notes, [note]);
    fields.push('notes');
  }
  if (!fields.length)
    throw new ApiError(
      'no_changes',
      'Give at least one valid field to update (add_note with note, firstName, lastName, email, phone, dob, address, status, riskScore, ' +
        'additional_info, transactions)',
    );
  set.updatedAt = nowIso(ctx);
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(renters)
          .set(set)
          .where(and(eq(renters.id, existing.id), eq(renters.customerId, existing.customerId))),
      ],
      {
        audit: { action: 'renter.update', targetType: 'renter', targetId: existing.id, details: { fields, ...(noteId ? { noteId } : {}) } },
      },
    );
  } catch (err) {
    if (isRenterEmailConflict(err)) throw new ApiError('already_exists', 'Another renter of this operator already has this e-mail');
    throw err;
  }
  return renterOut(await getRenterInTenant(ctx, existing.id), await accountingOf(ctx, existing));
}

/**
 * Soft-deletes the renter (hidden from lists and reads; ledger history kept; a later upsert with
 * the same e-mail revives it) and deletes its customer at the payment provider.
 */
export async function deleteRenter(ctx: Ctx, id: string) {
  requirePermission(ctx, 'renters');
  const existing = await getRenterInTenant(ctx, id);
  let paymentCustomerDeleted = false;
  if (existing.paymentCustomerId) {
    try {
      await payments(ctx).deleteCustomer(existing.paymentCustomerId);
      paymentCustomerDeleted = true;
    } catch (err) {
      // Already gone at the provider: nothing left to delete.
      if (!(err instanceof Error && /no such customer|resource_missing/i.test(err.message))) paymentFailure(err);
      paymentCustomerDeleted = true;
    }
  }
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(renters)
        .set({ deletedAt: now, paymentCustomerId: null, updatedAt: now })
        .where(and(eq(renters.id, existing.id), eq(renters.customerId, existing.customerId))),
    ],
    {
      audit: {
        action: 'renter.delete',
        targetType: 'renter',
        targetId: existing.id,
        details: { email: existing.email, paymentCustomerId: existing.paymentCustomerId },
      },
    },
  );
  return { success: true, id: existing.id, deletedAt: now, paymentCustomerDeleted };
}
