import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { requireAdmin, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { octoSettings } from '../../db/schema/octo';
import { settingsOf } from './queries';

/** GET /octo/settings: the operator's OCTO cancellation policy. */
export async function getSettings(ctx: Ctx) {
  return settingsOf(ctx, tenantOf(ctx));
}

/** PUT /octo/settings (admins). */
export async function putSettings(ctx: Ctx, input: { cancellationCutoffHours: number }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .insert(octoSettings)
        .values({ customerId, cancellationCutoffHours: input.cancellationCutoffHours, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: octoSettings.customerId, set: { cancellationCutoffHours: input.cancellationCutoffHours, updatedAt: now } }),
    ],
    { audit: { action: 'octo.settings.update', targetType: 'octo_settings', targetId: customerId, details: input } },
  );
  return settingsOf(ctx, customerId);
}
