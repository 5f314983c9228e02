import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

export const CustomerParams = z.object({ customerId: zId('cus_01J0000000000000000000000') });
export const CustomerQuery = z.object({ customerId: zId('cus_01J0000000000000000000000') });

const Tier = z.object({ hoursBefore: z.number(), refundPercent: z.number() });
export const CancellationPolicy = z
  .object({
    allowRenterCancellation: z.boolean(),
    cutoffHours: z.number(),
    tiers: z.array(Tier).openapi({ description: 'The first tier the cancellation is early enough for gives the refund' }),
    description: z.string(),
    source: z.enum(['location', 'account', 'default']),
  })
  .openapi('CancellationPolicy');

export const PublicSettings = z
  .object({
    customerId: z.string(),
    businessName: z.string(),
    locations: z.array(
      z.object({
        locationId: z.string(),
        name: z.string(),
        address: z.string(),
        phoneNumber: z.string(),
        timezone: z.string(),
        currency: z.string(),
        cancellationPolicy: CancellationPolicy,
        reviewPlatforms: z.array(z.string()),
      }),
    ),
    widget: z.object({
      primaryColor: z.string().nullable(),
      accentColor: z.string().nullable(),
      logoUrl: z.string().nullable(),
      termsUrl: z.string().nullable(),
      privacyUrl: z.string().nullable(),
    }),
    integrations: z
      .object({ customCode: z.boolean(), tagManager: z.boolean(), socialConversion: z.boolean(), videoPixel: z.boolean(), chatMessaging: z.boolean() })
      .openapi({ description: 'Which host-page integrations are configured (read each with its own endpoint)' }),
  })
  .openapi('PublicSettings');

export const CustomCode = z
  .object({ customerId: z.string(), head: z.string().nullable(), body: z.string().nullable() })
  .openapi('PublicCustomCode', { description: 'HTML snippets for the host page, as text; the API never runs them' });
export const TagManager = z.object({ customerId: z.string(), containerId: z.string() }).openapi('PublicTagManager');
export const SocialConversion = z
  .object({ customerId: z.string(), pixels: z.array(z.object({ platform: z.string(), id: z.string(), label: z.string().nullable() })) })
  .openapi('PublicSocialConversion');
export const VideoPixel = z.object({ customerId: z.string(), provider: z.string(), pixelId: z.string() }).openapi('PublicVideoPixel');
export const ChatMessaging = z
  .object({ customerId: z.string(), provider: z.string(), settings: z.record(z.string(), z.string()), welcomeMessage: z.string().nullable() })
  .openapi('PublicChatMessaging');
