// The users module's face: it defines the user use cases its router calls (reads in queries.ts, the view in
// views.ts, the data export in export-pdf.ts). Other modules use it for:
// - the operator account's first user (customers): ownerUserStmt, isEmailTaken
// - users of the caller's operator (calendar sync, geofences): getUserInTenant; staff of a location (staff availability): staffAtLocation
// - the OAuth consent page and installations: findUserWithCustomer, listLocalUsers
import { and, count, desc, eq, inArray, like } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { isAdmin, ownCustomer, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import type { Stmt } from '../../db/client';
import { auditLogs, customers, pushTokens, users } from '../../db/schema/accounts';
import { locations, phoneNumbers } from '../../db/schema/locations';
import { createIdentity, deleteIdentity, passwordLink } from '../../adapters/identity';
import { emailStmt } from '../../adapters/messages';
import { ADMIN_PERMISSION, forgetApiKeys, permissionsOfRole } from '../../lib/credentials';
import { buyNumber, findNumbers } from '../../adapters/telephony';
import { getLocationInTenant, locationOut, newNumberIvr, operatorTimeZone } from '../locations/service';
import { revokeUserKeysStmt, userKeys } from '../api-keys/service';
import { renderDataExport } from './export-pdf';
import { assertLocationsInTenant, currentUser, isEmailTaken, userInTenant } from './queries';
import { userOut, type UserRow } from './views';
import { nowIso, nowMs } from '../../lib/clock';

export { isEmailTaken, staffAtLocation } from './queries';

/** The INSERT of an operator account's first user: its owner, an admin, signed in through the identity provider. */
export function ownerUserStmt(ctx: Ctx, u: { id: string; customerId: string; email: string; name: string; idpSubject: string }): Stmt {
  return ctx.db.insert(users).values({ ...u, email: u.email.toLowerCase(), role: 'admin', permissions: ['admin'], isSetup: false });
}

/**
 * The permissions to store for `role` (lib/credentials.ts permissionsOfRole: `admin` is the admin
 * role, held by admins only). Naming `admin` among the permissions of a manager or staff member is
 * refused (400): a promotion is a role change, `userRole: "admin"`.
 */
function accessOf(role: UserRow['role'], permissions: readonly string[], o: { roleGiven: boolean }): string[] {
  if (role !== 'admin' && permissions.includes(ADMIN_PERMISSION)) {
    const message = o.roleGiven
      ? `"admin" is the admin role: a ${role} cannot hold it`
      : '"admin" is the admin role: to make this user an admin give userRole "admin"';
    throw new ApiError('validation_failed', message, { details: [{ field: 'permissions', message }] });
  }
  return permissionsOfRole(role, permissions);
}

export const CURRENT_TERMS_VERSION = '2026-01-01';

export async function getMe(ctx: Ctx) {
  const user = await currentUser(ctx);
  const [locs, customer] = await Promise.all([
    ctx.db.select().from(locations).where(eq(locations.customerId, user.customerId)).all(),
    ctx.db.select().from(customers).where(eq(customers.id, user.customerId)).get(),
  ]);
  const visible = user.role === 'admin' || !user.locations?.length ? locs : locs.filter((l) => user.locations.includes(l.id));
  return {
    ...userOut(user),
    locations: visible.map(locationOut),
    locationIds: user.locations ?? [],
    permissions: permissionsOfRole(user.role, user.permissions ?? []),
    settings: user.settings ?? {},
    customer: customer ? { customerId: customer.id, name: customer.name, business_name: customer.businessName, plan: customer.plan } : null,
    terms: { currentVersion: CURRENT_TERMS_VERSION, acceptedVersion: user.termsVersion, accepted: user.termsVersion === CURRENT_TERMS_VERSION },
  };
}

export async function createUser(
  ctx: Ctx,
  input: {
    email: string;
    customerId: string;
    name: string;
    role?: UserRow['role'];
    permissions?: string[];
    locations?: string[];
    userSkills?: string[];
    isSetup?: boolean;
  },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  const role = input.role ?? 'staff';
  const permissions = accessOf(role, input.permissions ?? [], { roleGiven: input.role !== undefined });
  if (await isEmailTaken(ctx, input.email)) throw new ApiError('already_exists', 'A user with this e-mail already exists');
  await assertLocationsInTenant(ctx, input.locations);
  const id = newId('usr');
  const identity = await createIdentity(ctx.env, { id, email: input.email, name: input.name });
  const link = await passwordLink(ctx.env, identity.subject, input.email);
  const row: UserRow = {
    id,
    customerId,
    email: input.email,
    name: input.name,
    role,
    permissions,
    locations: input.locations ?? [],
    userSkills: input.userSkills ?? [],
    profileName: null,
    isSetup: input.isSetup ?? false,
    settings: {},
    idpSubject: identity.subject,
    phone: null,
    termsVersion: null,
    termsAcceptedAt: null,
    invitedAt: nowIso(ctx),
    createdAt: nowIso(ctx),
    updatedAt: nowIso(ctx),
  };
  const invite = emailStmt(ctx, {
    to: row.email,
    subject: 'You have been invited to Berth',
    body: `Hello ${row.name},\n\nYou have been invited to your team's Berth dashboard. Set your password here: ${link}\n`,
    template: 'user.invitation',
    metadata: { userId: id },
  });
  try {
    await commit(ctx, [ctx.db.insert(users).values(row), invite.stmt], {
      audit: { action: 'user.create', targetType: 'user', targetId: id, details: { email: row.email, role: row.role } },
    });
  } catch (err) {
    await deleteIdentity(ctx.env, identity.subject);
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'A user with this e-mail already exists');
    throw err;
  }
  return userOut(row);
}

export async function updateMe(ctx: Ctx, input: { profileName?: string; locations?: string[]; userPermissions?: string[]; userSkills?: string[] }) {
  const user = await currentUser(ctx);
  if ((input.userPermissions !== undefined || input.locations !== undefined) && !isAdmin(ctx.principal)) {
    throw new ApiError('forbidden', 'Only an admin may change permissions or location access');
  }
  await assertLocationsInTenant(ctx, input.locations);
  const patch: Partial<UserRow> = {};
  if (input.profileName !== undefined) patch.profileName = input.profileName;
  if (input.locations !== undefined) patch.locations = input.locations;
  if (input.userPermissions !== undefined) patch.permissions = accessOf(user.role, input.userPermissions, { roleGiven: false });
  if (input.userSkills !== undefined) patch.userSkills = input.userSkills;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of profileName, locations, userPermissions, userSkills');
  await commit(
    ctx,
    [
      ctx.db
        .update(users)
        .set(patch)
        .where(and(eq(users.id, user.id), eq(users.customerId, user.customerId))),
    ],
    {
      audit: { action: 'user.update_self', targetType: 'user', targetId: user.id, details: { fields: Object.keys(patch) } },
    },
  );
  // The user's API keys carry their permissions: their rate-limiter objects read them again.
  if (patch.permissions) await forgetApiKeys(ctx, { customerId: user.customerId, userIds: [user.id] });
  return userOut({ ...user, ...patch, updatedAt: nowIso(ctx) });
}

export async function updateUser(
  ctx: Ctx,
  input: {
    id: string;
    name?: string;
    email?: string;
    userRole?: UserRow['role'];
    permissions?: string[];
    locations?: string[];
    userSkills?: string[];
    isSetup?: boolean;
    profileName?: string;
  },
) {
  const user = await userInTenant(ctx, input.id);
  await assertLocationsInTenant(ctx, input.locations);
  const patch: Partial<UserRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.email !== undefined && input.email !== user.email) {
    if (await isEmailTaken(ctx, input.email)) throw new ApiError('already_exists', 'A user with this e-mail already exists');
    patch.email = input.email;
  }
  // Role and permissions change together: a demotion drops `admin`, a promotion adds it, and the grants stay.
  if (input.userRole !== undefined || input.permissions !== undefined) {
    const role = input.userRole ?? user.role;
    // Without new permissions the user keeps their grants; `admin` follows the role.
    const grants = input.permissions ?? (user.permissions ?? []).filter((p) => p !== ADMIN_PERMISSION);
    patch.permissions = accessOf(role, grants, { roleGiven: input.userRole !== undefined });
    patch.role = role;
  }
  if (input.locations !== undefined) patch.locations = input.locations;
  if (input.userSkills !== undefined) patch.userSkills = input.userSkills;
  if (input.isSetup !== undefined) patch.isSetup = input.isSetup;
  if (input.profileName !== undefined) patch.profileName = input.profileName;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to update besides id');
  if (user.id === ctx.principal.userId && patch.role && patch.role !== 'admin') throw new ApiError('invalid_state', 'You cannot remove your own admin role');
  await commit(
    ctx,
    [
      ctx.db
        .update(users)
        .set(patch)
        .where(and(eq(users.id, user.id), eq(users.customerId, user.customerId))),
    ],
    {
      audit: {
        action: 'user.update',
        targetType: 'user',
        targetId: user.id,
        details: { fields: Object.keys(patch), ...(patch.role && patch.role !== user.role ? { role: { from: user.role, to: patch.role } } : {}) },
      },
    },
  );
  // The user's API keys carry their name, e-mail, role and permissions: their rate-limiter objects read them again.
  if (patch.name !== undefined || patch.email || patch.role || patch.permissions) await forgetApiKeys(ctx, { customerId: user.customerId, userIds: [user.id] });
  return userOut({ ...user, ...patch, updatedAt: nowIso(ctx) });
}

export async function deleteUser(ctx: Ctx, id: string) {
  const user = await userInTenant(ctx, id);
  if (user.id === ctx.principal.userId) throw new ApiError('invalid_state', 'You cannot delete your own user');
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      revokeUserKeysStmt(ctx, user, now),
      ctx.db.delete(pushTokens).where(and(eq(pushTokens.userId, user.id), eq(pushTokens.customerId, user.customerId))),
      ctx.db.delete(users).where(and(eq(users.id, user.id), eq(users.customerId, user.customerId))),
    ],
    { audit: { action: 'user.delete', targetType: 'user', targetId: user.id, details: { email: user.email } } },
  );
  await forgetApiKeys(ctx, { customerId: user.customerId, userIds: [user.id], revokedSince: now });
  await deleteIdentity(ctx.env, user.idpSubject);
  return { success: true, id: user.id };
}

export async function acceptTerms(ctx: Ctx) {
  const user = await currentUser(ctx);
  const at = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(users)
        .set({ termsVersion: CURRENT_TERMS_VERSION, termsAcceptedAt: at })
        .where(and(eq(users.id, user.id), eq(users.customerId, user.customerId))),
    ],
    {
      audit: {
        action: 'user.accept_terms',
        targetType: 'user',
        targetId: user.id,
        details: { version: CURRENT_TERMS_VERSION, documents: ['terms_of_service', 'provider_terms', 'privacy_policy'] },
      },
    },
  );
  return { accepted: true, version: CURRENT_TERMS_VERSION, acceptedAt: at, documents: ['terms_of_service', 'provider_terms', 'privacy_policy'] };
}

export async function termsStatus(ctx: Ctx) {
  const user = await currentUser(ctx);
  return {
    accepted: user.termsVersion === CURRENT_TERMS_VERSION,
    currentVersion: CURRENT_TERMS_VERSION,
    acceptedVersion: user.termsVersion,
    acceptedAt: user.termsAcceptedAt,
  };
}

export async function exportMyData(ctx: Ctx): Promise<Uint8Array> {
  const user = await currentUser(ctx);
  const [customer, tokens, keys, audit] = await Promise.all([
    ctx.db.select().from(customers).where(eq(customers.id, user.customerId)).get(),
    ctx.db.select({ n: count() }).from(pushTokens).where(eq(pushTokens.userId, user.id)).get(),
    userKeys(ctx, user.id),
    ctx.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, user.customerId), eq(auditLogs.actorId, user.id)))
      .orderBy(desc(auditLogs.createdAt))
      .limit(50)
      .all(),
  ]);
  await loadPdfFonts(ctx.env.ASSETS);
  await commit(ctx, [], { audit: { action: 'user.export_data', targetType: 'user', targetId: user.id } });
  return renderDataExport(
    {
      user: userOut(user),
      extra: { phone: user.phone, termsVersion: user.termsVersion, termsAcceptedAt: user.termsAcceptedAt, settings: user.settings },
      customer: customer ? { id: customer.id, name: customer.name } : null,
      pushTokens: tokens?.n ?? 0,
      apiKeys: keys,
      audit,
    },
    { generatedAt: nowMs(ctx), timezone: await operatorTimeZone(ctx, user.customerId) },
  );
}

export async function addPushToken(ctx: Ctx, token: string) {
  const user = await currentUser(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .insert(pushTokens)
        .values({ id: newId('ptk'), customerId: user.customerId, userId: user.id, token })
        .onConflictDoNothing(),
    ],
    {
      audit: { action: 'user.push_token_add', targetType: 'user', targetId: user.id },
    },
  );
  return { success: true, token };
}

export async function removePushToken(ctx: Ctx, token: string) {
  const user = await currentUser(ctx);
  const existing = await ctx.db
    .select({ id: pushTokens.id })
    .from(pushTokens)
    .where(and(eq(pushTokens.userId, user.id), eq(pushTokens.token, token)))
    .get();
  if (!existing) throw notFound('Push token');
  await commit(ctx, [ctx.db.delete(pushTokens).where(and(eq(pushTokens.id, existing.id), eq(pushTokens.userId, user.id)))], {
    audit: { action: 'user.push_token_remove', targetType: 'user', targetId: user.id },
  });
  return { success: true, token };
}

export async function findPhoneNumbers(ctx: Ctx, input: { country: string; areaCode: string }) {
  tenantOf(ctx);
  const found = await findNumbers(ctx.env, input.country, input.areaCode);
  const taken = found.length
    ? await ctx.db
        .select({ n: phoneNumbers.phoneNumber })
        .from(phoneNumbers)
        .where(
          inArray(
            phoneNumbers.phoneNumber,
            found.map((f) => f.phoneNumber),
          ),
        )
        .all()
    : [];
  return { data: found.filter((f) => !taken.some((t) => t.n === f.phoneNumber)) };
}

export async function purchasePhoneNumber(ctx: Ctx, input: { phoneNumber: string; locationId: string }) {
  const location = await getLocationInTenant(ctx, input.locationId);
  const taken = await ctx.db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, input.phoneNumber)).get();
  if (taken) throw new ApiError('already_exists', 'This number is already in use');
  const { providerId } = await buyNumber(ctx.env, input.phoneNumber);
  const ivr = newNumberIvr(ctx, location, input.phoneNumber);
  const ivrConfig = ivr.ivrConfig;
  const id = newId('pn');
  try {
    await commit(
      ctx,
      [
        ctx.db.insert(phoneNumbers).values({ id, customerId: location.customerId, locationId: location.id, phoneNumber: input.phoneNumber, providerId }),
        ivr.stmt,
      ],
      { audit: { action: 'phone_number.purchase', targetType: 'location', targetId: location.id, details: { phoneNumber: input.phoneNumber } } },
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'This number is already in use');
    throw err;
  }
  return { id, phoneNumber: input.phoneNumber, locationId: location.id, providerId, ivrConfig };
}

export async function resendInvitation(ctx: Ctx, id: string) {
  const user = await userInTenant(ctx, id);
  const link = await passwordLink(ctx.env, user.idpSubject ?? `local|${user.id}`, user.email);
  const mail = emailStmt(ctx, {
    to: user.email,
    subject: 'Set your Berth password',
    body: `Hello ${user.name},\n\nUse this link to set your password and sign in to Berth: ${link}\n`,
    template: 'user.password_change',
    metadata: { userId: user.id },
  });
  await commit(
    ctx,
    [
      mail.stmt,
      ctx.db
        .update(users)
        .set({ invitedAt: nowIso(ctx) })
        .where(and(eq(users.id, user.id), eq(users.customerId, user.customerId))),
    ],
    {
      audit: { action: 'user.resend_invitation', targetType: 'user', targetId: user.id },
    },
  );
  return { success: true, messageId: mail.id, email: user.email };
}

// ---- for other modules (the OAuth consent page, the partner gateway, staff locations) ----

/** A user of the caller's operator; 404 otherwise (another operator's user included). */
export const getUserInTenant = (ctx: Ctx, id: string) => userInTenant(ctx, id);

/** A user with its operator account, by id or identity-provider subject, whatever the operator. */
export async function findUserWithCustomer(ctx: Ctx, by: { id?: string; subject?: string }) {
  const where = by.id ? eq(users.id, by.id) : by.subject ? eq(users.idpSubject, by.subject) : undefined;
  if (!where) return undefined;
  return ctx.db.select({ user: users, customer: customers }).from(users).innerJoin(customers, eq(customers.id, users.customerId)).where(where).get();
}

/** Development sign-in on the consent page: the users seeded locally (identity subject `local|...`), admins first. */
export async function listLocalUsers(ctx: Ctx, limit = 50) {
  const rows = await ctx.db
    .select({ user: users, customer: customers })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(like(users.idpSubject, 'local|%'))
    .orderBy(users.customerId, users.role, users.email)
    .limit(limit)
    .all();
  return rows.map((r) => ({
    userId: r.user.id,
    name: r.user.name,
    email: r.user.email,
    role: r.user.role,
    customerId: r.customer.id,
    operator: r.customer.name,
  }));
}

/** The sandbox operator and its first admin (a partner installs its own app there without an operator user). */
export async function findSandboxAdmin(ctx: Ctx) {
  return ctx.db
    .select({ user: users, customer: customers })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(and(eq(customers.isSandbox, true), eq(users.role, 'admin')))
    .orderBy(customers.createdAt, users.createdAt)
    .get();
}
