/**
 * The delivery step of messages (adapters/messages.ts `PrepareMessage`): a booking e-mail recorded
 * with its message key (`metadata.render`, bookings/emails.ts) is rendered with the operator's own
 * template of that key when one exists (the first booking's item's, else the operator's), with the
 * booking's data read now and the event's values recorded by the sale. Without one, the stored
 * default content goes as it is.
 */
import type { Ctx } from '../../lib/context';
import type { MessageRow, PrepareMessage } from '../../adapters/messages';
import { getBookingRow } from '../bookings/service';
import { resolveTemplate } from './resolve';
import { forTenant } from './process';
import { renderTemplate } from './templates';
import { loadRenderSource, variablesFor } from './variables';

interface RenderSpec {
  key: string;
  rentalIds: string[];
  vars: Record<string, string>;
}

function specOf(row: MessageRow): RenderSpec | null {
  const r = (row.metadata as Record<string, unknown> | null)?.render as Partial<RenderSpec> | undefined;
  if (!r || typeof r.key !== 'string') return null;
  return { key: r.key, rentalIds: Array.isArray(r.rentalIds) ? r.rentalIds : [], vars: r.vars && typeof r.vars === 'object' ? r.vars : {} };
}

export const renderAtDelivery: PrepareMessage = async (ctx: Ctx, row: MessageRow) => {
  const spec = specOf(row);
  if (!spec || !row.customerId) return null;
  const tctx = forTenant(ctx, row.customerId);
  const rentalId = spec.rentalIds[0] ?? row.rentalId ?? null;
  const booking = rentalId ? await getBookingRow(tctx, rentalId).catch(() => null) : null;
  const chosen = await resolveTemplate(tctx, spec.key, booking?.itemId);
  if (!chosen || chosen.source === 'default') return null;
  const src = await loadRenderSource(tctx, { rentalId: booking?.id ?? null, locationId: booking?.locationId ?? null });
  const out = renderTemplate(chosen.template, { ...variablesFor(src, null), ...spec.vars });
  const metadata = { ...(row.metadata ?? {}), templateId: chosen.templateId, templateSource: chosen.source };
  if (row.channel === 'sms') return { body: out.sms, metadata };
  return { subject: out.subject, body: out.text, html: out.html, metadata };
};
