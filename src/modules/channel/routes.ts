import { z } from '@hono/zod-openapi';
import { route, type AuthScheme } from '../../lib/openapi';
import { channelAuth, portalAuth } from './middleware';
import * as s from './schemas';

const tags = ['Channel API'];
/** Channel keys (`rtc_...`) for the API; partner-portal tokens (`rtp_...`) for the portal. */
const channelKey: AuthScheme = { security: [{ ChannelKey: [] }], middleware: channelAuth };
const portalToken: AuthScheme = { security: [{ PortalToken: [] }], middleware: portalAuth };
const channelErrors = [401, 403, 429];

export const me = route({
  method: 'get',
  path: '/channel/v1/me',
  operationId: 'getChannelIdentity',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'Who the key is: mode and its connection or channel',
  errors: channelErrors,
  description: `\`mode\` is \`live\` or \`test\`. A single-operator key answers \`connection\`; a platform key answers \`channel\` with one
\`merchants\` entry per operator that connected. Deploy checks should assert \`mode\`.`,
  ok: s.ChannelIdentity,
});
export const products = route({
  method: 'get',
  path: '/channel/v1/products',
  operationId: 'listChannelProducts',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'The catalog offered to the key',
  errors: channelErrors,
  description: `Platform keys see the union over connected operators; a new live key sees an empty list until an operator connects; paused connections
drop out. Prices are pre-tax decimal amounts of the connection's currency; \`startingPrice\` is null (never 0) when no price is configured; a tour's
starting price is the standard adult fare.`,
  ok: z.object({ data: z.array(s.ChannelProduct) }),
});
export const availability = route({
  method: 'post',
  path: '/channel/v1/availability',
  operationId: 'checkChannelAvailability',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'Live availability of up to 25 products for one window',
  body: s.AvailabilityBody,
  errors: channelErrors,
  ok: z.object({ startTime: z.string(), endTime: z.string(), data: z.array(s.AvailabilityLine) }),
  description: `Answered by the same engine as the operator's checkout (turnaround buffers, maintenance, drydock, holds, capacity overrides, schedule
exceptions): when a line says \`available\`, a booking moments later succeeds unless someone else takes the time first. A product not offered to the
key answers a line with \`error: unknown_product\`.`,
});
export const createBooking = route({
  method: 'post',
  path: '/channel/v1/bookings',
  operationId: 'createChannelBooking',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'Push a confirmed booking (requires Idempotency-Key)',
  body: s.CreateBookingBody,
  ok: s.ChannelBooking,
  status: 201,
  errors: [...channelErrors, 404, 409, 422, 503],
  description: [
    'Header `Idempotency-Key` is required (400 without): a unique string per checkout, reused on retries; keys are scoped to the key holder and kept 48 hours.',
    `- 201: created. - 200 with \`idempotentReplay: true\`: the key already created this booking (same body). - 409 \`booking_in_progress\`: the same
key is still being processed; wait and retry.`,
    `- 422 \`idempotency_key_reuse\`: same key, different product, window, quantity or price. - 409 \`unavailable\`: a real conflict; the key is freed
and may be reused. - 503 \`idempotency_unavailable\` / \`inventory_locked\`: transient; retry with the same key.`,
    `The booking runs under the same per-item lock as the operator's checkout, lands on the operator's calendar fully paid with \`commissionRate\`
stamped, and the operator is charged a 5 dollar platform fee (reversed on cancel). Test keys sell the key holder's private sandbox operator and never move money. 404
\`unknown_product\` when the product is not offered to the key.`,
  ].join('\n\n'),
});
export const getBooking = route({
  method: 'get',
  path: '/channel/v1/bookings/{bookingId}',
  operationId: 'getChannelBooking',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'Read a booking created by this key (others answer 404)',
  params: s.BookingIdParam,
  ok: s.ChannelBooking,
  errors: [...channelErrors, 404],
  description: 'One booking (order) this key created, by its `bookingId`; a booking of another key, or a test booking read with a live key, answers 404.',
});
export const findBookings = route({
  method: 'get',
  path: '/channel/v1/bookings',
  operationId: 'findChannelBookings',
  tags,
  access: 'none',
  auth: channelKey,
  summary: "Find this key's bookings by the reseller's reference",
  query: s.FindQuery,
  ok: z.object({ data: z.array(s.ChannelBooking) }),
  errors: channelErrors,
  description: 'The bookings this key created with the reseller reference `reference` (usually one), so a reseller can recover a booking after a timeout.',
});
export const cancelBooking = route({
  method: 'delete',
  path: '/channel/v1/bookings/{bookingId}',
  operationId: 'cancelChannelBooking',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'Cancel a booking created by this key',
  params: s.BookingIdParam,
  ok: s.ChannelBooking,
  errors: [...channelErrors, 404, 409],
  description: `200 cancelled; 200 with \`alreadyCancelled: true\` when it already was; 404 for a booking this key did not create; 409
\`not_cancellable\` once the operator checked it in or completed it. Releases the inventory (tour seats go to the waitlist when one exists) and
reverses the platform fee; refunding the guest is the reseller's job.`,
});
export const sandboxReset = route({
  method: 'post',
  path: '/channel/v1/sandbox/reset',
  operationId: 'resetChannelSandbox',
  tags,
  access: 'none',
  auth: channelKey,
  summary: "Reset this key's sandbox (test keys only)",
  errors: channelErrors,
  description: `Every reseller channel (its platform test key) and every single-operator key's holder sells a private demo operator of its own in test
mode, seeded with the demo data on first use and seen by no other reseller. The reset deletes the test bookings the key made (with their allocations and
OCTO sales), forgets its idempotency keys, and brings that private operator back to its seeded state (\`reseeded: true\`: purged and seeded again, same
product ids), leaving every other reseller's sandbox alone. A key that sells a sandbox it does not own (the demo reseller's key selling Demo Marina, a
test clock's operator) only wipes its own bookings. A live key answers 403 \`not_sandbox\`.`,
  ok: s.SandboxReset,
});
export const settlement = route({
  method: 'get',
  path: '/channel/v1/settlement',
  operationId: 'getChannelSettlement',
  tags,
  access: 'none',
  auth: channelKey,
  summary: 'What the reseller owes each operator for a month',
  query: s.MonthQuery,
  errors: channelErrors,
  description: `By rental date: gross sales (tax-inclusive totals of non-cancelled live bookings), commission (the stamped rate x the pre-tax amount)
and amount owed (gross - commission). The operator reads the same figures. A test key (\`rtc_test_...\`) reads its sandbox's test bookings the
same way, each line marked \`test: true\` and summed in \`testTotals\` (\`totals\`, live money, stays zero), so a sandbox reseller can check its sums.`,
  ok: s.Settlement,
});

const ptags = ['Channel partner portal'];
export const register = route({
  method: 'post',
  path: '/channel/v1/portal/register',
  operationId: 'registerChannel',
  tags: ptags,
  access: 'none',
  security: [],
  summary: 'Register a reseller channel: portal token and platform keys (shown once)',
  body: s.RegisterBody,
  status: 201,
  errors: [409],
  description: `Returns the partner-portal token (\`rtp_...\`, for the portal endpoints) and the live and test platform keys. Operators then find the channel in their settings and connect. The channel belongs to a partner account: the caller's when the request carries a partner token (\`Authorization: Bearer bpt_...\`), otherwise a new one for \`contactEmail\` (409 \`already_exists\` if that e-mail has one: sign in and send its partner token), whose \`partnerToken\` is returned; \`password\` sets its password. The portal endpoints accept the portal token or the partner token of the owning account (\`X-Channel-Id\` when it owns several channels).`,
  ok: s.Registration,
});
export const portalChannel = route({
  method: 'get',
  path: '/channel/v1/portal/channel',
  operationId: 'getPortalChannel',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'The channel and its connected operators',
  errors: [401],
  ok: s.PortalChannelWithMerchants,
  description: 'The channel registered with this portal token, its webhook settings and every operator connected to it (commission, offer set, status).',
});
export const portalRotate = route({
  method: 'post',
  path: '/channel/v1/portal/keys/rotate',
  operationId: 'rotatePlatformKey',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'New platform key; the old one stops at once',
  body: s.RotateBody,
  errors: [401],
  ok: s.RotatedKey,
  description: `Issues a new platform key of \`mode\` (default \`live\`) and revokes the previous ones of that mode at once (\`revoked\` counts them);
the key is shown only here.`,
});
export const portalPause = route({
  method: 'post',
  path: '/channel/v1/portal/pause',
  operationId: 'pauseChannel',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'Pause the whole channel (the key stops for every operator)',
  errors: [401],
  ok: s.PortalChannelWithMerchants,
  description: 'Pauses the channel: its platform keys answer 403 `connection_paused` for every operator until it is resumed. Bookings already made are kept.',
});
export const portalResume = route({
  method: 'post',
  path: '/channel/v1/portal/resume',
  operationId: 'resumeChannel',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'Resume the channel',
  errors: [401],
  ok: s.PortalChannelWithMerchants,
  description: 'Resumes a paused channel: its platform keys work again for every connected operator whose connection is active.',
});
export const portalSettlement = route({
  method: 'get',
  path: '/channel/v1/portal/settlement',
  operationId: 'getPortalSettlement',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'Settlement per operator for a month',
  query: s.MonthQuery,
  errors: [401],
  ok: s.Settlement,
  description: 'As GET /channel/v1/settlement for every operator connected to the channel (live bookings only), by rental date, with the totals.',
});
export const portalSetWebhook = route({
  method: 'put',
  path: '/channel/v1/portal/webhook',
  operationId: 'setPortalWebhook',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'Receive booking.created / cancelled / rescheduled of the operators you sell',
  body: s.WebhookBody,
  errors: [401],
  description: `Deliveries are signed like platform webhooks (X-Service-Signature over \`{timestamp}.{body}\` with the secret returned here once) and
carry capacity data only (product, times, quantity, status), never renter details or prices.`,
  ok: s.WebhookSet,
});
export const portalRemoveWebhook = route({
  method: 'delete',
  path: '/channel/v1/portal/webhook',
  operationId: 'removePortalWebhook',
  tags: ptags,
  access: 'none',
  auth: portalToken,
  summary: 'Stop webhook deliveries',
  errors: [401],
  ok: z.object({ removed: z.literal(true) }),
  description: 'Removes the webhook URL and secret of the channel; no more booking events are delivered to it.',
});
