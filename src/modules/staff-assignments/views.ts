import type { z } from '@hono/zod-openapi';
import type { AssignmentRow } from './queries';
import type { StaffAssignment } from './schemas';

/** The name shown for a staff member: their profile name, else their first name. */
export const displayNameOf = (u: { name: string; profileName: string | null }) => u.profileName?.trim() || u.name.trim().split(/\s+/)[0] || 'Staff';

const iso = (ms: number) => new Date(ms).toISOString();

/** An assignment as the API answers it, with the booking's window (`StaffAssignment`). */
export function assignmentOut(
  a: AssignmentRow,
  staff: { name: string; profileName: string | null },
  b: { start: number; end: number },
): z.output<typeof StaffAssignment> {
  return {
    id: a.id,
    rentalId: a.rentalId,
    staffId: a.staffId,
    displayName: displayNameOf(staff),
    name: staff.name,
    role: a.role,
    method: a.method as 'manual' | 'auto',
    forced: a.forced,
    startTime: iso(b.start),
    endTime: iso(b.end),
    createdBy: a.createdBy,
    createdAt: a.createdAt,
  };
}
