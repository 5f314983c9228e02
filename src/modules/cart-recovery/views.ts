import type { z } from '@hono/zod-openapi';
import type { cartRecoveryItems } from '../../db/schema/cart-recovery';
import { toDollars } from '../../lib/money';
import type * as s from './schemas';

export type CartRow = typeof cartRecoveryItems.$inferSelect;

/** Recovered: completed after the person was contacted. */
export const isRecovered = (r: Pick<CartRow, 'status' | 'contactedAt' | 'completedAt'>) =>
  r.status === 'completed' && !!r.contactedAt && !!r.completedAt && r.completedAt >= r.contactedAt;

/** What the widget reads back: no contact schedule (it would tell whether an address was throttled). */
export function publicCartOut(r: CartRow): z.output<typeof s.PublicCart> {
  return {
    id: r.id,
    customerId: r.customerId,
    locationId: r.locationId,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    bookingInfo: r.bookingInfo ?? null,
    cartData: r.cartData ?? null,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export function cartOut(r: CartRow): z.output<typeof s.Cart> {
  return {
    ...publicCartOut(r),
    contactOn: r.contactOn,
    contactedAt: r.contactedAt,
    contactMessageId: r.contactMessageId,
    shortCode: r.shortCode,
    completedAt: r.completedAt,
    transactionId: r.transactionId,
    recovered: isRecovered(r),
    revenue: r.revenue == null ? null : toDollars(r.revenue),
    statusReason: r.statusReason,
  };
}
