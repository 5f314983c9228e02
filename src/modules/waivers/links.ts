import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { nowMs } from '../../lib/clock';
import { formatLocalDateTime } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { waiverNumbers } from '../../db/schema/waivers';
import { isExpired, normalizePin, publicWaiverNumberOut } from '../waiver-numbers/service';
import { logoOf, publicLocation } from './queries';
import { templatesLink } from './views';

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export async function waiverUrl(ctx: Ctx, locationId: string, baseUrl: string) {
  const l = await publicLocation(ctx, locationId);
  const { logoUrl } = await logoOf(ctx, l);
  return { locationId: l.id, locationName: l.name, waiverUrl: str(l.details?.waiverUrl) ?? templatesLink(baseUrl, l.id), logoUrl };
}

export async function locationLogo(ctx: Ctx, locationId: string) {
  const l = await publicLocation(ctx, locationId);
  const { logoUrl, businessName } = await logoOf(ctx, l);
  return { locationId: l.id, locationName: l.name, businessName, logoUrl };
}

/** The pending waiver number of a PIN at a location (public). 404 unknown, used or ambiguous; 410 expired. */
export async function waiverNumberValidation(ctx0: Ctx, q: { waiverNumber: string; locationId: string }) {
  const l = await publicLocation(ctx0, q.locationId);
  const ctx = await onOperatorClock(ctx0, l.customerId);
  const now = nowMs(ctx);
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(
      and(
        eq(waiverNumbers.customerId, l.customerId),
        eq(waiverNumbers.locationId, l.id),
        eq(waiverNumbers.pin, normalizePin(q.waiverNumber)),
        eq(waiverNumbers.status, 'PENDING'),
      ),
    )
    .limit(2)
    .all();
  if (rows.length === 0) throw new ApiError('not_found', 'No pending waiver with this number at this location');
  if (rows.length > 1) throw new ApiError('not_found', 'This waiver number matches more than one waiver; ask the operator');
  if (isExpired(rows[0], now)) throw new ApiError('expired', `This waiver number expired on ${formatLocalDateTime(rows[0].pinExpiresAt, l.timezone || 'UTC')}`);
  return { valid: true, waiver: publicWaiverNumberOut(rows[0], now) };
}
