import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Public'];
const NOT_CONFIGURED = `Answers **204** (no body) when the operator has not configured it (or the value is disabled or malformed, or the
operator is unknown). Operators set it in their account's \`integrations\` (PATCH /customer, merged). Values are returned as data for the host page;
the API never executes them. No credentials needed.`;

export const publicSettings = route({
  method: 'get',
  path: '/public/customer/{customerId}/public',
  operationId: 'getPublicSettings',
  tags,
  access: 'public',
  summary: "An operator's public settings for the booking widget",
  params: s.CustomerParams,
  ok: s.PublicSettings,
  errors: [404],
  description: `The business name, the active locations (address, phone, time zone, currency, the renter cancellation policy in effect and the
names of the review platforms), the widget's look (\`integrations.widget\`: \`primaryColor\`/\`accentColor\` as #rrggbb, https \`logoUrl\`,
\`termsUrl\`, \`privacyUrl\`) and which host-page integrations are configured. The cancellation policy is the location's
\`details.cancellationPolicy\` (PATCH /location), else the account's, else the default (full refund up to 24 hours before the start, none after):
\`{allowRenterCancellation, cutoffHours, tiers: [{hoursBefore, refundPercent}], description}\`. Unknown operator: 404. No credentials needed.`,
});

export const customCode = route({
  method: 'get',
  path: '/public/getCustomCode',
  operationId: 'getPublicCustomCode',
  tags,
  access: 'public',
  summary: "The operator's custom code snippets for the host page",
  query: s.CustomerQuery,
  ok: s.CustomCode,
  description: `\`integrations.customCode\`: \`{head, body}\` HTML snippets (at most 50 KB each) for the page that embeds the widget. The widget page
itself never runs them (its Content-Security-Policy allows only Berth's scripts). ${NOT_CONFIGURED}`,
});

export const tagManager = route({
  method: 'get',
  path: '/public/getTagManager',
  operationId: 'getPublicTagManager',
  tags,
  access: 'public',
  summary: "The operator's tag manager container",
  query: s.CustomerQuery,
  ok: s.TagManager,
  description: `\`integrations.tagManager\`: \`{containerId: "GTM-AB12CD3"}\`. ${NOT_CONFIGURED}`,
});

export const socialConversion = route({
  method: 'get',
  path: '/public/getSocialConversion',
  operationId: 'getPublicSocialConversion',
  tags,
  access: 'public',
  summary: "The operator's social conversion pixels",
  query: s.CustomerQuery,
  ok: s.SocialConversion,
  description: `\`integrations.socialConversion\`: \`metaPixelId\`, \`tiktokPixelId\`, \`snapPixelId\`, \`pinterestTagId\`, \`linkedinPartnerId\`,
\`googleAdsConversionId\` (+ \`googleAdsConversionLabel\`), answered as \`pixels: [{platform, id, label}]\`. The widget reports conversions to the host
page with \`postMessage\` (\`berth:booking.completed\`), where these pixels run. ${NOT_CONFIGURED}`,
});

export const videoPixel = route({
  method: 'get',
  path: '/public/getVideoPixel',
  operationId: 'getPublicVideoPixel',
  tags,
  access: 'public',
  summary: "The operator's video advertising pixel",
  query: s.CustomerQuery,
  ok: s.VideoPixel,
  description: `\`integrations.videoPixel\`: \`{provider, pixelId}\` (provider a lowercase name such as youtube, tiktok, vimeo). ${NOT_CONFIGURED}`,
});

export const chatMessaging = route({
  method: 'get',
  path: '/public/getChatMessaging',
  operationId: 'getPublicChatMessaging',
  tags,
  access: 'public',
  summary: "The operator's chat messaging widget settings",
  query: s.CustomerQuery,
  ok: s.ChatMessaging,
  errors: [404],
  description: `\`integrations.chatMessaging\`: \`{provider, appId | widgetId | propertyId | pageId | phoneNumber | websiteId, welcomeMessage}\`.
Answers **404** \`not_found\` when chat messaging is not configured (or disabled, malformed, or the operator is unknown). Values are data for the host
page; the API never executes them. No credentials needed.`,
});
