/**
 * POST /public/locations/{locationId}/reviews: the review platforms a location asks renters to use
 * (its configured review connections, see public-settings), and with `rentalId` the review request
 * e-mail to the renter of a completed booking there, sent once per booking (a unique row in the same
 * batch as the e-mail, so a repeated or parallel request sends nothing more).
 */
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { reviewRequests } from '../../db/schema/renter-self-service';
import { emailStmt } from '../../adapters/messages';
import { getPublicLocation } from '../locations/service';
import { reviewConnections } from '../public-settings/service';
import { eq } from 'drizzle-orm';
import { renterFail } from './errors';
import { asRenter, bookingEmail, rentalById } from './queries';
import { maskEmail } from './sessions';

export async function requestReviews(ctx0: Ctx, locationId: string, input: { reviewConnections: string[]; rentalId?: string }) {
  const loc = await getPublicLocation(ctx0, locationId);
  const ctx = await onOperatorClock(ctx0, loc.customerId);
  const configured = await reviewConnections(ctx, loc.customerId, { id: loc.id, details: loc.details });
  const names = [...new Set(input.reviewConnections.map((n) => n.trim().toLowerCase()))];
  const unknown = names.filter((n) => !configured.some((c) => c.name === n));
  if (!configured.length) throw renterFail('unknown_review_platform', 'This location has no review platforms configured');
  if (unknown.length)
    throw renterFail(
      'unknown_review_platform',
      `Not configured for this location: ${unknown.join(', ')} (configured: ${configured.map((c) => c.name).join(', ')})`,
      {
        details: unknown.map((n) => ({ field: 'reviewConnections', message: `${n} is not configured`, code: 'unknown_review_platform' })),
      },
    );
  const connections = configured.filter((c) => names.includes(c.name));
  if (!input.rentalId) return { locationId: loc.id, connections, request: null };

  const b = await rentalById(ctx, input.rentalId);
  if (b.locationId !== loc.id || b.customerId !== loc.customerId) throw notFound('Booking at this location');
  if (b.status !== 'completed' && b.status !== 'checked_in')
    throw renterFail('booking_not_completed', `Review requests follow the rental; this booking is ${b.status.replace('_', '-')}`);
  const email = bookingEmail(b);
  if (!email) throw renterFail('no_booking_email', 'This booking has no e-mail address to send the review request to');
  const prior = await ctx.db.select().from(reviewRequests).where(eq(reviewRequests.rentalId, b.id)).get();
  if (prior)
    return {
      locationId: loc.id,
      connections,
      request: { rentalId: b.id, sentTo: maskEmail(prior.email), status: 'already_sent' as const, requestedAt: prior.createdAt },
    };
  const rctx = asRenter(ctx, b, 'renter:review-request');
  const first = String((b.customerInfo as { firstName?: unknown } | null)?.firstName ?? '').slice(0, 100);
  const mail = emailStmt(rctx, {
    customerId: b.customerId,
    to: email,
    subject: `How was your time with ${loc.name}?`,
    body: `Hello ${first},\n\nThank you for renting with ${loc.name}. A short review helps us a lot:\n\n${connections.map((c) => `${c.name}: ${c.url}`).join('\n')}\n`,
    template: 'review.request',
    metadata: { rentalId: b.id, transactionId: b.transactionId, connections: connections.map((c) => c.name) },
  });
  const now = nowIso(ctx);
  try {
    await commit(
      rctx,
      [
        ctx.db.insert(reviewRequests).values({
          id: newId('rvq'),
          customerId: b.customerId,
          locationId: loc.id,
          rentalId: b.id,
          email,
          connections: connections.map((c) => c.name),
          messageId: mail.id,
          createdAt: now,
        }),
        mail.stmt,
      ],
      {
        audit: {
          action: 'booking.review_request',
          targetType: 'booking',
          targetId: b.id,
          customerId: b.customerId,
          details: { connections: connections.map((c) => c.name) },
        },
      },
    );
  } catch (err) {
    const won = await ctx.db.select().from(reviewRequests).where(eq(reviewRequests.rentalId, b.id)).get();
    if (!won) throw err;
    return {
      locationId: loc.id,
      connections,
      request: { rentalId: b.id, sentTo: maskEmail(won.email), status: 'already_sent' as const, requestedAt: won.createdAt },
    };
  }
  return { locationId: loc.id, connections, request: { rentalId: b.id, sentTo: maskEmail(email), status: 'sent' as const, requestedAt: now } };
}
