import { route } from '../../lib/openapi';
import * as s from './schemas';
import { BUSY_CAP, BUSY_HORIZON_DAYS } from './service';
import { EDITABLE_PATHS } from './paths';

const tags = ['Public'];

export const getOrder = route({
  method: 'get',
  path: '/public/order/{orderId}',
  operationId: 'getPublicOrder',
  tags,
  access: 'public',
  summary: 'An order with its line items grouped (renter-facing)',
  params: s.OrderParams,
  ok: s.Order,
  errors: [404],
  description: `\`orderId\` may be the order's transaction id, a bundle group id or one rental id; each answers the whole order it belongs to
(\`matchedAs\` says which matched). Line items are grouped: the rentals of a bundle form one \`bundle\` group, every other rental is a \`single\`
group. Amounts are dollars, times UTC with each line's \`timezone\`. Only what the renter may see: item, times, units, add-ons, amounts, deposit
status, the renter's name; no contact details, payment ids or operator notes. Unknown id: 404. No credentials needed.`,
});

export const getBooking = route({
  method: 'get',
  path: '/public/booking',
  operationId: 'getPublicBooking',
  tags,
  access: 'public',
  summary: 'The booking as its renter sees it',
  query: s.BookingQuery,
  ok: s.PublicBooking,
  errors: [404],
  description: `By the order's \`TransactionId\` (the booking reference of the confirmation e-mail). Answers the rentals of the order with their
renter-visible fields, the renter's contact details (\`customerInfo\`: firstName, lastName, email, phone, address, emergencyContact,
preferredLanguage, marketingOptIn), the renter's own notes and preferences in \`extendedData\`, whether each rental can still be edited, and
\`editablePaths\` (what PATCH /public/booking accepts). No internal fields (payment ids, pricing internals, operator notes, channel data). Unknown
reference: 404. No credentials needed.`,
});

export const patchBooking = route({
  method: 'patch',
  path: '/public/booking',
  operationId: 'updatePublicBooking',
  tags,
  access: 'public',
  summary: 'Renter edits contact details and notes of a rental',
  body: s.PatchBookingBody,
  ok: s.PublicBooking,
  errors: [404, 409],
  description: `\`data\` maps dot-notation paths to values, e.g. \`{"customerInfo.phone": "+15555550123", "extendedData.notes": "Arriving early"}\` (1
to 20 paths). Only these paths are renter-editable: ${EDITABLE_PATHS.map((p) => `\`${p}\``).join(', ')}. A \`null\` value removes the field. Any other
path answers **400 \`forbidden_path\`** naming each refused path in \`details\` (status, prices, totals, payments, customerId/owner, ids, items,
assets, times, names and the e-mail address can never be changed this way; the e-mail receives cancellation codes). A bad value answers 400
\`validation_failed\`. A cancelled, completed or no-show rental answers 409 \`invalid_state\`; a change racing another one answers 409
\`version_conflict\`. The change is a compare-and-swap on the booking version, is logged in the booking activity, audited, and fires
\`booking.updated\`. Answers the updated booking as GET /public/booking does.`,
});

export const getCustomer = route({
  method: 'get',
  path: '/public/customer',
  operationId: 'getWidgetData',
  tags,
  access: 'public',
  summary: 'Encrypted widget data of an operator (inventory, locations, pricing, busy times)',
  query: s.CustomerQuery,
  ok: s.EncryptedPayload,
  errors: [404, 503],
  description: `The booking widget's data for operator \`customer_id\`, encrypted with AES-256-GCM:
\`{alg: "AES-256-GCM", iv, ciphertext, customerId, generatedAt}\`. The plaintext is JSON
\`{customerId, businessName, generatedAt, locations[], inventory[], bookings[], bookingsTruncated}\`:

- \`inventory[]\`: the public items with their assets, \`startingPrice\`/\`priceUnit\`, pricing
\`{seasons, tourPricing, taxes, addons, deposit}\` in dollars, and schedule rules;
- \`bookings[]\`: busy intervals of the next ${BUSY_HORIZON_DAYS} days (\`inventoryId\`, \`assetId\`, \`kind\`, \`startTime\`, \`endTime\`
including turnaround buffers, \`seats\`, \`capacity\`); at most ${BUSY_CAP}, \`bookingsTruncated\` says when more exist.

It holds **no renter personal data**.

**How the widget decrypts it.** The key is the deployment's \`WIDGET_ENCRYPTION_KEY\` (base64 of 32 random bytes, set with
\`wrangler secret put WIDGET_ENCRYPTION_KEY\`), built into the widget bundle the operator embeds. \`iv\` is base64 of a fresh 12-byte nonce;
\`ciphertext\` is base64 of the ciphertext with the 16-byte GCM authentication tag appended (WebCrypto's format). In the browser:

\`\`\`js
const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const key = await crypto.subtle.importKey('raw', b64(WIDGET_KEY_B64), 'AES-GCM', false, ['decrypt']);
const res = await (await fetch(API + '/public/customer?customer_id=' + id)).json();
const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: b64(res.iv), tagLength: 128 }, key, b64(res.ciphertext));
const data = JSON.parse(new TextDecoder().decode(plain));
\`\`\`

A wrong key or a tampered payload makes \`decrypt\` reject. Because every visitor's browser holds the key, the encryption keeps the payload opaque to
scrapers and caches; it is not access control, which is why the payload carries nothing private. Unknown operator: 404; no key configured on the
deployment: 503 \`not_configured\`. No credentials needed.`,
});

export const widgetInfo = route({
  method: 'get',
  path: '/public/widget-info',
  operationId: 'getWidgetInfo',
  tags,
  access: 'public',
  summary: 'Unencrypted card data of one item (name, image, starting price, capacity, category)',
  query: s.WidgetInfoQuery,
  ok: s.WidgetInfo,
  errors: [404],
  description: `For embedding a single item's card: name, first image, starting price (dollars; the cheapest hourly or daily rate of a rental, the
standard adult fare of a tour, or the base price of a private charter; null when no price is set) with its \`priceUnit\`, currency, capacity and
category. An item that is unknown, deleted, not public or not of \`customer_id\` answers 404. No credentials needed.`,
});
