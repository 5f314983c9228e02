import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { waiverLinkVisits, waiverTemplates } from '../../db/schema/waivers';
import { getLocationInTenant } from '../locations/service';
import type { StoredSection } from './pdf';
import { logoOf, ownTemplate, publicLocation, templatesOfLocation } from './queries';
import { templateOut, type TemplateRow } from './views';
import { nowIso } from '../../lib/clock';

type SectionInput = { type: string; id?: string } & Record<string, unknown>;

/** Gives every section an id (`<type>_<n>`, unique in the template) and keeps the documented keys only. */
export function normalizeSections(sections: SectionInput[]): StoredSection[] {
  const used = new Set(sections.map((s) => s.id).filter(Boolean) as string[]);
  const counters: Record<string, number> = {};
  return sections.map((s) => {
    let id = s.id;
    if (!id) {
      do id = `${s.type}_${(counters[s.type] = (counters[s.type] ?? 0) + 1)}`;
      while (used.has(id));
      used.add(id);
    }
    return { ...s, id } as StoredSection;
  });
}

export async function createTemplate(
  ctx: Ctx,
  input: { title: string; sections: SectionInput[]; customerId: string; locationId: string; description?: string; assignTo?: string[] },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'waivers');
  await getLocationInTenant(ctx, input.locationId);
  const now = nowIso(ctx);
  const row: TemplateRow = {
    id: newId('wvt'),
    customerId,
    locationId: input.locationId,
    title: input.title,
    description: input.description ?? null,
    sections: normalizeSections(input.sections) as unknown as Record<string, unknown>[],
    assignTo: input.assignTo ?? [],
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(waiverTemplates).values(row)], {
    audit: { action: 'waiver_template.create', targetType: 'waiver_template', targetId: row.id, details: { title: row.title, locationId: row.locationId } },
  });
  return templateOut(row);
}

export async function getTemplate(ctx: Ctx, templateId: string) {
  const t = await ctx.db
    .select()
    .from(waiverTemplates)
    .where(and(eq(waiverTemplates.id, templateId), isNull(waiverTemplates.deletedAt)))
    .get();
  if (!t) throw notFound('Waiver template');
  return templateOut(t);
}

export async function updateTemplate(
  ctx: Ctx,
  templateId: string,
  input: { customerId: string; title?: string; description?: string | null; sections?: SectionInput[]; locationId?: string; assignTo?: string[] },
) {
  ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'waivers');
  const t = await ownTemplate(ctx, templateId);
  const patch: Partial<TemplateRow> = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.description !== undefined) patch.description = input.description;
  if (input.assignTo !== undefined) patch.assignTo = input.assignTo;
  if (input.sections !== undefined) patch.sections = normalizeSections(input.sections) as unknown as Record<string, unknown>[];
  if (input.locationId !== undefined && input.locationId !== t.locationId) {
    await getLocationInTenant(ctx, input.locationId);
    patch.locationId = input.locationId;
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of title, description, sections, locationId, assignTo');
  patch.updatedAt = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(waiverTemplates)
        .set(patch)
        .where(and(eq(waiverTemplates.id, t.id), eq(waiverTemplates.customerId, t.customerId))),
    ],
    {
      audit: {
        action: 'waiver_template.update',
        targetType: 'waiver_template',
        targetId: t.id,
        details: { fields: Object.keys(patch).filter((k) => k !== 'updatedAt') },
      },
    },
  );
  return templateOut({ ...t, ...patch });
}

export async function deleteTemplate(ctx: Ctx, templateId: string) {
  requirePermission(ctx, 'waivers');
  const t = await ownTemplate(ctx, templateId);
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(waiverTemplates)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(waiverTemplates.id, t.id), eq(waiverTemplates.customerId, t.customerId))),
    ],
    {
      audit: { action: 'waiver_template.delete', targetType: 'waiver_template', targetId: t.id, details: { title: t.title } },
    },
  );
  return { success: true, templateId: t.id, deletedAt: now };
}

/** Renter-facing: the templates of a location; records the visit with the `fn`, `ln`, `em` tracking. */
export async function publicTemplatesOfLocation(
  ctx: Ctx,
  locationId: string,
  q: { fn?: string; ln?: string; em?: string },
  meta: { ip: string | null; userAgent: string | null },
) {
  const l = await publicLocation(ctx, locationId);
  const data = await templatesOfLocation(ctx, l.customerId, l.id);
  const { logoUrl, businessName } = await logoOf(ctx, l);
  const visitId = newId('wvv');
  await commit(ctx, [
    ctx.db.insert(waiverLinkVisits).values({
      id: visitId,
      customerId: l.customerId,
      locationId: l.id,
      firstName: q.fn || null,
      lastName: q.ln || null,
      email: q.em ? q.em.toLowerCase() : null,
      ipAddress: meta.ip,
      userAgent: meta.userAgent?.slice(0, 512) ?? null,
    }),
  ]);
  return {
    locationId: l.id,
    locationName: l.name,
    businessName,
    logoUrl,
    prefill: { firstName: q.fn ?? null, lastName: q.ln ?? null, email: q.em ?? null },
    visitId,
    data,
  };
}
