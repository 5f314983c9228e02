import type { Ctx } from '../../lib/context';
import { isAdmin, requirePermission } from '../../lib/context';
import { ApiError } from '../../lib/errors';

/** Managing memberships (sell, cancel, pause, billing changes, tiers, organizations): admins, managers and users with this permission. */
export const MANAGE_PERMISSION = 'memberships';
/**
 * Staff-only overrides of the spec (credit adjustments, forcing a pause): admins, managers and
 * users holding this permission. Anyone else (a front-desk user with only `memberships`, a member
 * in the portal) answers 403.
 */
export const OVERRIDE_PERMISSION = 'membership_overrides';

export const requireManage = (ctx: Ctx) => requirePermission(ctx, MANAGE_PERMISSION);

export function requireStaffOverride(ctx: Ctx, what: string): void {
  const p = ctx.principal;
  if (isAdmin(p) || p.role === 'manager' || p.permissions.includes(OVERRIDE_PERMISSION)) return;
  throw new ApiError('forbidden', `${what} is a staff-only operation (admins, managers or the "${OVERRIDE_PERMISSION}" permission)`);
}

/** The actor recorded in membership history rows. */
export const actorOf = (ctx: Ctx) => ctx.principal.userId ?? ctx.principal.credentialId;

/** The same context acting for one operator (cron jobs and public routes act for the operator of the record). */
export const forTenant = (ctx: Ctx, customerId: string): Ctx =>
  ctx.principal.customerId === customerId ? ctx : { ...ctx, principal: { ...ctx.principal, customerId } };
