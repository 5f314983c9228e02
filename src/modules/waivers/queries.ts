import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { customers } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { waiverSignatures, waiverTemplates } from '../../db/schema/waivers';
import { getLocationInTenant } from '../locations/service';
import { templateOut, type SignatureRow, type TemplateRow } from './views';

type LocationRow = typeof locations.$inferSelect;

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Any operator's location, by id (public pages: the id is in the operator's own links). */
export async function publicLocation(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const l = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!l) throw notFound('Location');
  return l;
}

/** The logo and business name shown on a location's waiver pages. */
export async function logoOf(ctx: Ctx, l: LocationRow): Promise<{ logoUrl: string | null; businessName: string }> {
  const c = await ctx.db
    .select({ name: customers.name, businessName: customers.businessName, settings: customers.settings })
    .from(customers)
    .where(eq(customers.id, l.customerId))
    .get();
  const d = l.details ?? {};
  const s = (c?.settings ?? {}) as Record<string, unknown>;
  return { logoUrl: str(d.logoUrl) ?? str(d.logo) ?? str(s.logoUrl) ?? str(s.logo), businessName: c?.businessName ?? c?.name ?? l.name };
}

/** A template the caller may change: 404 unknown or deleted, 403 another operator's. */
export async function ownTemplate(ctx: Ctx, templateId: string): Promise<TemplateRow> {
  const t = await ctx.db.select().from(waiverTemplates).where(eq(waiverTemplates.id, templateId)).get();
  if (!t || t.deletedAt) throw notFound('Waiver template');
  if (t.customerId !== tenantOf(ctx)) throw new ApiError('forbidden', 'This waiver template belongs to another operator');
  return t;
}

/** The live templates of a location, oldest first. */
export async function templatesOfLocation(ctx: Ctx, customerId: string, locationId: string) {
  const rows = await ctx.db
    .select()
    .from(waiverTemplates)
    .where(and(eq(waiverTemplates.customerId, customerId), eq(waiverTemplates.locationId, locationId), isNull(waiverTemplates.deletedAt)))
    .orderBy(asc(waiverTemplates.createdAt), asc(waiverTemplates.id))
    .all();
  return rows.map(templateOut);
}

/** The templates of one of the caller's locations. */
export async function listTemplates(ctx: Ctx, locationId: string) {
  const l = await getLocationInTenant(ctx, locationId);
  return { locationId: l.id, data: await templatesOfLocation(ctx, l.customerId, l.id) };
}

/** A signed waiver by its unguessable id (public). */
export async function getSignature(ctx: Ctx, signatureId: string): Promise<SignatureRow> {
  const s = await ctx.db.select().from(waiverSignatures).where(eq(waiverSignatures.id, signatureId)).get();
  if (!s) throw notFound('Signed waiver');
  return s;
}
