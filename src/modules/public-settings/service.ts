/**
 * Public settings' face: what the booking widget and the page embedding it may know of an operator
 * (names, locations, cancellation policy, look, host-page integrations), defined here. See
 * integrations.ts for the stored shapes and policy.ts for the cancellation policy. Others use it for:
 * - the cancellation policy and its refund tiers (renter self-service, concierge): cancellationPolicyOf, locationCancellationPolicy, refundPercentAt
 * - the widget's look (widget catalog, wallet passes): widgetLookOf
 * - the brand heading renter e-mails (bookings, memberships, communications): emailBrandOf
 * - a location's review platforms (renter reviews): reviewConnections
 */
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { getPublicCustomer } from '../customers/service';
import { listPublicLocations } from '../locations/service';
import {
  chatMessagingOf,
  customCodeOf,
  reviewConnectionsOf,
  socialConversionOf,
  tagManagerOf,
  videoPixelOf,
  widgetLookOf,
  type ReviewConnection,
} from './integrations';
import { cancellationPolicyOf } from './policy';

export { cancellationPolicyOf, refundPercentAt, type CancellationPolicy } from './policy';
export { widgetLookOf } from './integrations';

/** GET /public/customer/{customerId}/public. */
export async function publicSettings(ctx: Ctx, customerId: string) {
  const c = await getPublicCustomer(ctx, customerId);
  if (!c) throw notFound('Customer');
  const integrations = c.integrations ?? {};
  const locs = await listPublicLocations(ctx, customerId);
  return {
    customerId: c.id,
    businessName: c.businessName ?? c.name,
    locations: locs.map((l) => ({
      locationId: l.id,
      name: l.name,
      address: l.address,
      phoneNumber: l.phoneNumber,
      timezone: l.timezone,
      currency: l.currency,
      cancellationPolicy: cancellationPolicyOf(l.details, c.settings),
      reviewPlatforms: reviewConnectionsOf(integrations, l.id, l.details).map((r) => r.name),
    })),
    widget: widgetLookOf(integrations),
    integrations: {
      customCode: customCodeOf(integrations) !== null,
      tagManager: tagManagerOf(integrations) !== null,
      socialConversion: socialConversionOf(integrations) !== null,
      videoPixel: videoPixelOf(integrations) !== null,
      chatMessaging: chatMessagingOf(integrations) !== null,
    },
  };
}

type Reader<T> = (integrations: Record<string, unknown>) => T | null;

/** A host-page integration of an operator, or null when it is not configured (or the operator is unknown). */
async function integration<T>(ctx: Ctx, customerId: string, read: Reader<T>): Promise<(T & { customerId: string }) | null> {
  const c = await getPublicCustomer(ctx, customerId);
  const v = c ? read(c.integrations ?? {}) : null;
  return v ? { customerId, ...v } : null;
}

export const customCode = (ctx: Ctx, customerId: string) => integration(ctx, customerId, customCodeOf);
export const tagManager = (ctx: Ctx, customerId: string) => integration(ctx, customerId, tagManagerOf);
export const socialConversion = (ctx: Ctx, customerId: string) => integration(ctx, customerId, socialConversionOf);
export const videoPixel = (ctx: Ctx, customerId: string) => integration(ctx, customerId, videoPixelOf);

export async function chatMessaging(ctx: Ctx, customerId: string) {
  const v = await integration(ctx, customerId, chatMessagingOf);
  if (!v) throw notFound('Chat messaging configuration');
  return v;
}

/** The review platforms configured for a location of an operator. */
export async function reviewConnections(
  ctx: Ctx,
  customerId: string,
  location: { id: string; details: Record<string, unknown> | null },
): Promise<ReviewConnection[]> {
  const c = await getPublicCustomer(ctx, customerId);
  return c ? reviewConnectionsOf(c.integrations ?? {}, location.id, location.details) : [];
}

/** The cancellation policy in effect at a location of an operator. */
export async function locationCancellationPolicy(ctx: Ctx, customerId: string, locationDetails: Record<string, unknown> | null) {
  const c = await getPublicCustomer(ctx, customerId);
  return cancellationPolicyOf(locationDetails, c?.settings ?? null);
}

/**
 * Who an e-mail to a renter comes from: the business name, and the logo and colour of the widget
 * settings (`integrations.widget.logoUrl`/`primaryColor`), else the logo of the location's details
 * or the account's settings (`logoUrl`, https only).
 */
export function emailBrandOf(
  customer: { name: string; businessName?: string | null; settings?: unknown; integrations?: unknown } | null | undefined,
  locationDetails?: Record<string, unknown> | null,
): { name: string; logoUrl: string | null; color: string | null } {
  const look = widgetLookOf((customer?.integrations ?? {}) as Record<string, unknown>);
  const https = (v: unknown) => (typeof v === 'string' && /^https:\/\/[^\s"'<>]{4,2000}$/.test(v) ? v : null);
  const settings = (customer?.settings ?? {}) as Record<string, unknown>;
  return {
    name: customer?.businessName || customer?.name || '',
    logoUrl: look.logoUrl ?? https(locationDetails?.logoUrl) ?? https(settings.logoUrl),
    color: look.primaryColor,
  };
}
