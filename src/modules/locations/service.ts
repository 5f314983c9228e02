// Locations' face: what other modules may call, and the location use cases it defines (create,
// update, deletion and restore, voice menu, the purge cron). Others use it for:
// - a location of the caller's tenant (404 otherwise) and its row and response: getLocationInTenant, LocationRow, locationOut
// - reads without a tenant (public pages, portals, jobs): getPublicLocation, listPublicLocations, locationRowAnyOperator
// - an operator's locations and time zone: listLocations, operatorTimeZone
// - the voice menu of a new phone number (users): newNumberIvr
// - editing a location (seed): updateLocation
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso, nowMs } from '../../lib/clock';
import { inJobScope, nextDueAt } from '../../lib/job-scope';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { geocode } from '../../adapters/geocoder';
import { chatStmt } from '../../adapters/messages';
import type { Stmt } from '../../db/client';
import { locations, phoneNumbers, staffSchedules } from '../../db/schema/locations';
import { getLocationInTenant } from './queries';
import { locationOut, type LocationRow } from './views';

export { getLocationInTenant, getPublicLocation, listLocations, listPublicLocations, locationRowAnyOperator, operatorTimeZone } from './queries';
export { locationOut, type LocationRow } from './views';

export const DELETION_GRACE_DAYS = 60;

export async function createLocation(
  ctx: Ctx,
  input: { name: string; address: string; phoneNumber: string; connectId?: string; details?: Record<string, unknown>; timezone?: string; currency?: string },
) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'locations');
  const geo = await geocode(ctx.env, input.address);
  const tz = input.timezone ?? (typeof input.details?.timezone === 'string' ? (input.details.timezone as string) : null) ?? geo.timezone ?? 'UTC';
  const now = nowIso(ctx);
  const row: LocationRow = {
    id: newId('loc'),
    customerId,
    name: input.name,
    address: input.address,
    phoneNumber: input.phoneNumber,
    connectId: input.connectId ?? null,
    timezone: tz,
    currency: input.currency ?? 'usd',
    details: input.details ?? {},
    ivrConfig: null,
    latitude: geo.latitude,
    longitude: geo.longitude,
    status: 'active',
    deletionScheduledAt: null,
    purgeAfter: null,
    createdAt: now,
    updatedAt: now,
  };
  const chat = chatStmt(ctx, {
    to: 'operator-team',
    subject: 'New location',
    body: `New location "${row.name}" created at ${row.address}.`,
    template: 'location.created',
    metadata: { locationId: row.id },
  });
  await commit(ctx, [ctx.db.insert(locations).values(row), chat.stmt], {
    audit: { action: 'location.create', targetType: 'location', targetId: row.id, details: { name: row.name } },
  });
  return locationOut(row);
}

export async function updateLocation(
  ctx: Ctx,
  input: {
    locationId: string;
    name?: string;
    address?: string;
    phoneNumber?: string;
    connectId?: string | null;
    details?: Record<string, unknown>;
    timezone?: string;
    currency?: string;
  },
) {
  requirePermission(ctx, 'locations');
  const existing = await getLocationInTenant(ctx, input.locationId);
  const patch: Partial<LocationRow> = {};
  for (const k of ['name', 'phoneNumber', 'connectId', 'timezone', 'currency'] as const)
    if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
  if (input.details !== undefined) patch.details = { ...(existing.details ?? {}), ...input.details };
  if (input.address !== undefined && input.address !== existing.address) {
    const geo = await geocode(ctx.env, input.address);
    Object.assign(patch, { address: input.address, latitude: geo.latitude, longitude: geo.longitude });
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to update');
  await commit(
    ctx,
    [
      ctx.db
        .update(locations)
        .set(patch)
        .where(and(eq(locations.id, existing.id), eq(locations.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'location.update', targetType: 'location', targetId: existing.id, details: { fields: Object.keys(patch) } },
    },
  );
  return locationOut({ ...existing, ...patch, updatedAt: nowIso(ctx) });
}

export async function scheduleDeletion(ctx: Ctx, input: { locationId: string; customerId?: string }) {
  ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'locations');
  const existing = await getLocationInTenant(ctx, input.locationId);
  if (existing.status === 'pending_deletion') throw new ApiError('invalid_state', 'The location is already scheduled for deletion');
  const now = nowMs(ctx);
  const patch = {
    status: 'pending_deletion' as const,
    deletionScheduledAt: new Date(now).toISOString(),
    purgeAfter: new Date(now + DELETION_GRACE_DAYS * 86_400_000).toISOString(),
  };
  await commit(
    ctx,
    [
      ctx.db
        .update(locations)
        .set(patch)
        .where(and(eq(locations.id, existing.id), eq(locations.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'location.delete_scheduled', targetType: 'location', targetId: existing.id, details: { purgeAfter: patch.purgeAfter } },
    },
  );
  return locationOut({ ...existing, ...patch, updatedAt: patch.deletionScheduledAt });
}

export async function restoreLocation(ctx: Ctx, input: { locationId: string }) {
  requirePermission(ctx, 'locations');
  const existing = await getLocationInTenant(ctx, input.locationId);
  if (existing.status !== 'pending_deletion') throw new ApiError('bad_request', 'The location is not scheduled for deletion');
  const patch = { status: 'active' as const, deletionScheduledAt: null, purgeAfter: null };
  await commit(
    ctx,
    [
      ctx.db
        .update(locations)
        .set(patch)
        .where(and(eq(locations.id, existing.id), eq(locations.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'location.restore', targetType: 'location', targetId: existing.id },
    },
  );
  return locationOut({ ...existing, ...patch, updatedAt: nowIso(ctx) });
}

export async function updateIvr(ctx: Ctx, input: { locationId: string; ivrConfig: Record<string, unknown> }) {
  requirePermission(ctx, 'locations');
  const existing = await getLocationInTenant(ctx, input.locationId);
  const ivrConfig = { ...(existing.ivrConfig ?? {}), ...input.ivrConfig };
  await commit(ctx, [ivrStmt(ctx, existing, ivrConfig)], { audit: { action: 'location.ivr_update', targetType: 'location', targetId: existing.id } });
  return locationOut({ ...existing, ivrConfig, updatedAt: nowIso(ctx) });
}

const ivrStmt = (ctx: Ctx, location: LocationRow, ivrConfig: Record<string, unknown>): Stmt =>
  ctx.db
    .update(locations)
    .set({ ivrConfig })
    .where(and(eq(locations.id, location.id), eq(locations.customerId, location.customerId)));

/**
 * The voice menu of a location that gets a new phone number (its menu with the number, or the
 * default menu when it has none) and the UPDATE that stores it, for the caller's batch.
 */
export function newNumberIvr(ctx: Ctx, location: LocationRow, phoneNumber: string): { ivrConfig: Record<string, unknown>; stmt: Stmt } {
  const ivrConfig = location.ivrConfig && Object.keys(location.ivrConfig).length ? { ...location.ivrConfig, phoneNumber } : defaultIvr(location, phoneNumber);
  return { ivrConfig, stmt: ivrStmt(ctx, location, ivrConfig) };
}

/** Default voice menu given to a location when it gets its first number. */
export function defaultIvr(location: LocationRow, phoneNumber: string): Record<string, unknown> {
  return {
    enabled: true,
    phoneNumber,
    greeting: `Thank you for calling ${location.name}.`,
    menu: [
      { key: '1', label: 'Bookings', action: 'ring_group' },
      { key: '2', label: 'Directions and hours', action: 'message', target: location.address },
      { key: '0', label: 'Leave a message', action: 'voicemail' },
    ],
    ringList: [location.phoneNumber],
  };
}

/**
 * Cron: permanently deletes locations whose 60-day grace period has passed, with the rows that
 * only make sense with them (staff shifts, phone numbers). Inventory and bookings of the location
 * are kept as history by their own modules.
 */
export async function purgeDeletedLocations(ctx: Ctx): Promise<{ purged: number }> {
  const due = await ctx.db
    .select({ id: locations.id, customerId: locations.customerId })
    .from(locations)
    .where(and(eq(locations.status, 'pending_deletion'), lte(locations.purgeAfter, nowIso(ctx)), inJobScope(ctx, locations.customerId)))
    .limit(200)
    .all();
  if (!due.length) return { purged: 0 };
  const ids = due.map((d) => d.id);
  await ctx.db.batch([
    ctx.db.delete(staffSchedules).where(inArray(staffSchedules.locationId, ids)),
    ctx.db.delete(phoneNumbers).where(inArray(phoneNumbers.locationId, ids)),
    ctx.db.delete(locations).where(and(inArray(locations.id, ids), eq(locations.status, 'pending_deletion'))),
  ]);
  return { purged: ids.length };
}

/** When the purge next has work (its `nextDue`): the earliest end of a grace period still running. */
export async function nextPurgeDue(ctx: Ctx): Promise<number | null> {
  return nextDueAt(ctx, { table: locations, due: locations.purgeAfter, customer: locations.customerId }, eq(locations.status, 'pending_deletion'));
}
