import { and, asc, count, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { bookingEvents, bookings } from '../../db/schema/bookings';
import { eventOut } from './views';

/** GET /events: the activity of an order (and its rentals) and/or of listed rentals, oldest first. */
export async function listEvents(ctx: Ctx, q: { transactionid?: string; rentalIds?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const rentalIds = q.rentalIds
    ? [
        ...new Set(
          q.rentalIds
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ]
    : [];
  if (!q.transactionid && !rentalIds.length) {
    throw new ApiError('validation_failed', 'Give transactionid or rentalIds', {
      details: [
        { field: 'transactionid', location: 'query', code: 'required', message: 'transactionid or rentalIds is required' },
        { field: 'rentalIds', location: 'query', code: 'required', message: 'transactionid or rentalIds is required' },
      ],
    });
  }
  if (rentalIds.length > 100 || rentalIds.some((r) => r.length > 128)) {
    throw new ApiError('validation_failed', 'rentalIds takes at most 100 ids of at most 128 characters', {
      details: [{ field: 'rentalIds', location: 'query', code: 'too_big', message: 'at most 100 ids' }],
    });
  }
  const scope: SQL[] = [];
  if (q.transactionid) {
    scope.push(eq(bookingEvents.transactionId, q.transactionid));
    const ofTxn = ctx.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.customerId, customerId), eq(bookings.transactionId, q.transactionid)));
    scope.push(inArray(bookingEvents.rentalId, ofTxn));
  }
  if (rentalIds.length) scope.push(inArray(bookingEvents.rentalId, rentalIds));
  const where = and(eq(bookingEvents.customerId, customerId), or(...scope));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(bookingEvents).where(where).orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(bookingEvents).where(where).get(),
  ]);
  return { data: rows.map(eventOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}
