import type { z } from '@hono/zod-openapi';
import type { auditLogs, users } from '../../db/schema/accounts';
import type { AuditEntry, User } from './schemas';
import { permissionsOfRole } from '../../lib/credentials';

export type UserRow = typeof users.$inferSelect;
type AuditRow = typeof auditLogs.$inferSelect;

/** A dashboard user as the API answers it (`User`). */
export function userOut(u: UserRow): z.output<typeof User> {
  return {
    id: u.id,
    email: u.email,
    customerId: u.customerId,
    name: u.name,
    role: u.role,
    permissions: permissionsOfRole(u.role, u.permissions ?? []),
    locations: u.locations ?? [],
    userSkills: u.userSkills ?? [],
    isSetup: u.isSetup,
    profileName: u.profileName,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/** One audit-log row as the API answers it (`AuditEntry`). */
export function auditEntryOut(r: AuditRow): z.output<typeof AuditEntry> {
  return {
    id: r.id,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    actorType: r.actorType,
    actorId: r.actorId,
    details: r.details,
    requestId: r.requestId,
    createdAt: r.createdAt,
  };
}
