/**
 * The staff-assignments module's face: staff on bookings, without double-booking anyone (assign.ts),
 * and staff free time (free-time.ts). Others use it for:
 * - who is free when (public staff availability): staffStates and the span helpers;
 * - the staff of some bookings (the daily manifest): staffOfRentals;
 * - assigning staff (the seed): assignStaff, autoAssignStaff.
 */
import type { Ctx } from '../../lib/context';
import { assignmentsOfRentals } from './queries';
import { displayNameOf } from './views';

export { assignStaff, autoAssignStaff } from './assign';
export { staffStates, merge, subtract, covers, type Span, type StaffState } from './free-time';

/** The staff assigned to some rentals of an operator, by rental id (display name, name, role), in the order they were assigned. */
export async function staffOfRentals(ctx: Ctx, customerId: string, rentalIds: string[]) {
  const rows = await assignmentsOfRentals(ctx, customerId, rentalIds);
  return new Map([...rows].map(([id, list]) => [id, list.map((a) => ({ staffId: a.staffId, displayName: displayNameOf(a), name: a.name, role: a.role }))]));
}
