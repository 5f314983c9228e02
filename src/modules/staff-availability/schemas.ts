import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';
import { SKILLS } from '../../lib/staff-skills';

const instant = () => z.string().datetime({ offset: true }).openapi({ example: '2026-07-04T10:00:00-04:00', description: 'ISO 8601 with offset (or Z)' });

export const AvailableStaffQuery = z.object({
  locationId: zId('loc_01J0000000000000000000000'),
  skill: z.enum(SKILLS),
  startTime: instant(),
  endTime: instant(),
});

export const StaffRangeQuery = z.object({
  locationId: zId('loc_01J0000000000000000000000'),
  start: instant(),
  end: instant(),
});

const StaffMember = z.object({ staffId: z.string(), displayName: z.string().openapi({ description: 'Profile name, else the first name' }) });
const Interval = z.object({ startTime: z.string(), endTime: z.string() });

export const AvailableStaff = z
  .object({
    locationId: z.string(),
    timezone: z.string(),
    skill: z.enum(SKILLS),
    startTime: z.string(),
    endTime: z.string(),
    available: z.boolean().openapi({ description: 'At least one staff member with the skill is free for the whole window' }),
    count: z.number().int(),
    staff: z.array(StaffMember),
  })
  .openapi('AvailableStaff');

export const StaffRange = z
  .object({
    locationId: z.string(),
    timezone: z.string(),
    start: z.string(),
    end: z.string(),
    days: z.array(
      z.object({
        date: z.string().openapi({ description: "Local date in the location's zone" }),
        skills: z.array(
          z.object({
            skill: z.enum(SKILLS),
            availableCount: z.number().int().openapi({ description: 'Staff with the skill who have free time that day' }),
            staff: z.array(StaffMember.extend({ free: z.array(Interval).openapi({ description: 'Scheduled and unassigned time that day (UTC)' }) })),
          }),
        ),
      }),
    ),
  })
  .openapi('StaffAvailabilityRange');
