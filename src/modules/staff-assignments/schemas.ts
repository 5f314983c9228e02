import { z } from '@hono/zod-openapi';
import { SKILLS } from '../../lib/staff-skills';

export const RentalParam = z.object({ rentalId: z.string().trim().min(1).max(128).openapi({ example: 'bk_01J0000000000000000000000' }) });
export const RentalStaffParam = RentalParam.extend({ staffId: z.string().trim().min(1).max(128).openapi({ example: 'usr_01J0000000000000000000000' }) });

const force = z
  .boolean()
  .optional()
  .openapi({ description: "Admins and managers only (403 otherwise): assign outside the person's shifts, time off or skills. Never past a conflict." });

export const AssignBody = z
  .object({
    staffId: z.string().trim().min(1).max(128).openapi({ description: 'A user of the account', example: 'usr_01J0000000000000000000000' }),
    role: z.enum(SKILLS).optional().openapi({ description: 'The skill the person works the booking in; they must have it' }),
    force,
  })
  .openapi('AssignStaff');

export const AutoAssignBody = z
  .object({ skill: z.enum(SKILLS).openapi({ description: 'The skill needed: the person chosen has it and works the booking in it' }) })
  .openapi('AutoAssignStaff');

export const StaffAssignment = z
  .object({
    id: z.string(),
    rentalId: z.string(),
    staffId: z.string(),
    displayName: z.string().openapi({ description: 'Profile name, else the first name' }),
    name: z.string(),
    role: z.string().nullable(),
    method: z.enum(['manual', 'auto']),
    forced: z.boolean().openapi({ description: "Assigned by a manager outside the person's schedule, time off or skills" }),
    startTime: z.string().openapi({ description: "The booking's start (UTC)" }),
    endTime: z.string(),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('StaffAssignment');

export const StaffAssignments = z.object({ rentalId: z.string(), data: z.array(StaffAssignment) }).openapi('StaffAssignments');

export const Unassigned = z.object({ success: z.boolean(), rentalId: z.string(), staffId: z.string() }).openapi('StaffUnassigned');
