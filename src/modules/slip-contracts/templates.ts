import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slipContractTemplates } from '../../db/schema/slip-contracts';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import type * as s from './schemas';
import { placeholdersOf, TEMPLATE_VARIABLES } from './variables';

export type TemplateRow = typeof slipContractTemplates.$inferSelect;

export const templateOut = (t: TemplateRow): z.output<typeof s.Template> => ({
  id: t.id,
  customerId: t.customerId,
  locationId: t.locationId,
  name: t.name,
  description: t.description,
  title: t.title,
  body: t.body,
  rateTypes: (t.rateTypes ?? []) as z.output<typeof s.Template>['rateTypes'],
  defaults: t.defaults ?? {},
  variablesUsed: placeholdersOf(`${t.title}\n${t.body}`),
  isDefault: t.isDefault,
  isActive: t.isActive,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export async function getTemplateRow(ctx: Ctx, id: string): Promise<TemplateRow> {
  const row = await ctx.db
    .select()
    .from(slipContractTemplates)
    .where(and(eq(slipContractTemplates.id, id), eq(slipContractTemplates.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Contract template');
  return row;
}

export const getTemplate = async (ctx: Ctx, id: string) => templateOut(await getTemplateRow(ctx, id));

export async function listTemplates(ctx: Ctx, q: { locationId?: string; includeInactive?: 'true' | 'false'; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const conds: SQL[] = [eq(slipContractTemplates.customerId, customerId)];
  if (q.locationId) {
    await getLocationInTenant(ctx, q.locationId);
    conds.push(or(isNull(slipContractTemplates.locationId), eq(slipContractTemplates.locationId, q.locationId))!);
  }
  if (q.includeInactive !== 'true') conds.push(eq(slipContractTemplates.isActive, true));
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    ctx.db
      .select()
      .from(slipContractTemplates)
      .where(where)
      .orderBy(desc(slipContractTemplates.isDefault), asc(slipContractTemplates.name))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slipContractTemplates)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(templateOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** GET /slip-settings/{locationId}/templates: the active templates a location can use, its default marked. */
export async function templatesOfLocation(ctx: Ctx, locationId: string) {
  const settings = await getSlipSettings(ctx, locationId);
  const list = await listTemplates(ctx, { locationId, limit: 100, offset: 0 });
  const def =
    settings.defaultContractTemplateId ??
    list.data.find((t) => t.isDefault && t.locationId === locationId)?.id ??
    list.data.find((t) => t.isDefault)?.id ??
    null;
  return { locationId, defaultTemplateId: def, data: list.data.map((t) => ({ ...t, isLocationDefault: t.id === def })) };
}

function checkVariables(title: string, body: string, defaults: Record<string, string>) {
  const known = new Set(TEMPLATE_VARIABLES.map((v) => v.name));
  const unknown = placeholdersOf(`${title}\n${body}`).filter((n) => !known.has(n) && !(n in defaults));
  if (unknown.length)
    throw new ApiError(
      'validation_failed',
      `Unknown template variables (give them a default or see GET /slip-contracts/templates/variables): ${unknown.join(', ')}`,
      {
        details: unknown.map((n) => ({ field: 'body', code: 'unknown_variable', message: `{{${n}}} is not a variable` })),
      },
    );
}

/** Only one default template per scope (location or all locations): setting one clears the others. */
const clearDefaults = (ctx: Ctx, locationId: string | null, exceptId: string): Stmt =>
  ctx.db
    .update(slipContractTemplates)
    .set({ isDefault: false })
    .where(
      and(
        eq(slipContractTemplates.customerId, tenantOf(ctx)),
        locationId ? eq(slipContractTemplates.locationId, locationId) : isNull(slipContractTemplates.locationId),
        sql`${slipContractTemplates.id} != ${exceptId}`,
      ),
    );

export async function createTemplate(ctx: Ctx, input: z.output<typeof s.CreateTemplateBody>) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  checkVariables(input.title, input.body, input.defaults ?? {});
  const now = nowIso(ctx);
  const row: TemplateRow = {
    id: newId('sctp'),
    customerId,
    locationId: input.locationId ?? null,
    name: input.name,
    description: input.description ?? null,
    title: input.title,
    body: input.body,
    rateTypes: input.rateTypes ?? [],
    defaults: input.defaults ?? {},
    isDefault: input.isDefault ?? false,
    isActive: input.isActive ?? true,
    createdAt: now,
    updatedAt: now,
  };
  const stmts: Stmt[] = [ctx.db.insert(slipContractTemplates).values(row)];
  if (row.isDefault) stmts.unshift(clearDefaults(ctx, row.locationId, row.id));
  await commit(ctx, stmts, {
    audit: { action: 'slip_contract_template.create', targetType: 'slip_contract_template', targetId: row.id, details: { name: row.name } },
  });
  return templateOut(row);
}

export async function updateTemplate(ctx: Ctx, id: string, input: z.output<typeof s.UpdateTemplateBody>) {
  requirePermission(ctx, 'marina');
  const t = await getTemplateRow(ctx, id);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<TemplateRow>;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to change');
  const next = { ...t, ...patch };
  checkVariables(next.title, next.body, next.defaults ?? {});
  const stmts: Stmt[] = [
    ctx.db
      .update(slipContractTemplates)
      .set(patch)
      .where(and(eq(slipContractTemplates.id, t.id), eq(slipContractTemplates.customerId, t.customerId))),
  ];
  if (next.isDefault) stmts.unshift(clearDefaults(ctx, next.locationId, t.id));
  await commit(ctx, stmts, {
    audit: { action: 'slip_contract_template.update', targetType: 'slip_contract_template', targetId: t.id, details: { fields: Object.keys(patch) } },
  });
  return templateOut({ ...next, updatedAt: nowIso(ctx) });
}

/** Contracts already generated keep their own copy of the text, so deleting a template changes none of them. */
export async function deleteTemplate(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const t = await getTemplateRow(ctx, id);
  await commit(ctx, [ctx.db.delete(slipContractTemplates).where(and(eq(slipContractTemplates.id, t.id), eq(slipContractTemplates.customerId, t.customerId)))], {
    audit: { action: 'slip_contract_template.delete', targetType: 'slip_contract_template', targetId: t.id, details: { name: t.name } },
  });
  return { id: t.id, deleted: true as const };
}

export async function duplicateTemplate(ctx: Ctx, id: string, input: { name?: string; locationId?: string | null }) {
  const t = await getTemplateRow(ctx, id);
  return await createTemplate(ctx, {
    locationId: input.locationId === undefined ? t.locationId : input.locationId,
    name: input.name ?? `${t.name} (copy)`,
    description: t.description,
    title: t.title,
    body: t.body,
    rateTypes: (t.rateTypes ?? []) as z.output<typeof s.CreateTemplateBody>['rateTypes'],
    defaults: { ...(t.defaults ?? {}) },
    isDefault: false,
    isActive: t.isActive,
  });
}

/** The template for a reservation: the given one, else the location's default (settings), else the default of the location, else of every location. */
export async function templateFor(ctx: Ctx, locationId: string, templateId?: string): Promise<TemplateRow> {
  if (templateId) {
    const t = await getTemplateRow(ctx, templateId);
    if (t.locationId && t.locationId !== locationId) throw new ApiError('bad_request', 'The template belongs to another location');
    return t;
  }
  const { defaultTemplateId } = await templatesOfLocation(ctx, locationId);
  if (!defaultTemplateId)
    throw new ApiError('bad_request', 'No templateId given and the location has no default contract template', {
      details: [{ field: 'templateId', message: 'required' }],
    });
  return getTemplateRow(ctx, defaultTemplateId);
}
