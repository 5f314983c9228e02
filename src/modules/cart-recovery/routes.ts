import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Cart recovery'];

const STATES_DOC = `States: \`active\` -> \`completed\` (the booking was made: \`DELETE /public/cartRecovery/{id}\`, or the processor found a booking with the cart's e-mail at its location) | \`expired\` (the wanted slot passed or is no longer available). Items needing contact: active, not contacted, contact-on time passed.`;

const PROCESSOR_DOC = `The processor (every 5 minutes, and \`POST /communication/process-scheduled\`) e-mails each item needing contact once (template \`cart_recovery\`) with a short tracking link (30 days, counted clicks) to the location's \`details.bookingUrl\` (with \`cartRecoveryId\`), else to the booking widget \`/widget?customer=...&location=...&cartRecoveryId=...\`, which restores the cart; it first completes carts whose booking was made and expires carts whose slot is gone.`;

export const createCart = route({
  method: 'post',
  path: '/public/cartRecovery',
  operationId: 'createCartRecovery',
  tags,
  access: 'public',
  summary: 'Record an abandoned cart of the booking widget',
  description: `Public (credentials optional; an authenticated operator's foreign \`customerId\` is 403). \`locationId\` (and \`customerId\` when given) must name a live location (404 otherwise). \`id\` is the widget's own unguessable id (16-128 characters, a random UUID): the same id again updates the cart and pushes its recovery e-mail back while nobody was contacted (an id used by another location is 409). The recovery e-mail is due after the location's \`details.cartRecoveryDelayMinutes\` (default 60). 400 on an invalid e-mail. Abuse limits: 20 requests per minute per client IP (429 \`rate_limited\` with \`Retry-After\`) and 5 carts per e-mail address per hour; over the address limit the cart is stored and answered as usual but no e-mail goes out, so the answer never tells whether an address is known. ${STATES_DOC}`,
  body: s.PublicCreateBody,
  ok: s.PublicCart,
  errors: [403, 404, 409, 429],
});

export const getPublicCart = route({
  method: 'get',
  path: '/public/cartRecovery/{id}',
  operationId: 'getPublicCartRecovery',
  tags,
  access: 'public',
  summary: 'Read an abandoned cart back (to restore the widget)',
  description: `Public; 404 for an unknown id. The contact schedule is not part of the public view. ${STATES_DOC}`,
  params: s.IdParams,
  ok: s.PublicCart,
  errors: [404],
});

export const completeCart = route({
  method: 'delete',
  path: '/public/cartRecovery/{id}',
  operationId: 'completeCartRecovery',
  tags,
  access: 'public',
  summary: 'Mark an abandoned cart completed (the booking was made)',
  description: `Public. Always answers 200 \`{success, id, status: "completed"}\` (an unknown id changes nothing and answers the same). \`transactionId\`: the order that completed the cart; its total (when it is an order of the cart's operator) is the recovered revenue. A cart completed after its recovery e-mail counts as recovered. ${STATES_DOC}`,
  params: s.IdParams,
  query: s.CompleteQuery,
  ok: s.CompleteResult,
});

export const analytics = route({
  method: 'get',
  path: '/public/cartRecovery/analytics/{locationId}',
  operationId: 'getCartRecoveryAnalytics',
  tags,
  access: 'public',
  summary: 'Cart-recovery funnel of a location',
  description: `Public (counts only). Carts captured between \`startDate\` and \`endDate\` (local days in the location's zone, inclusive; default the last 30 days): \`abandoned\` (all but those completed before any contact), \`contacted\`, \`recovered\` (completed after being contacted), \`recoveryRate\` (recovered / contacted, percent) and \`recoveredRevenue\` (dollars, in the location's \`currency\`). An unknown location answers zeros.`,
  params: s.LocationParams,
  query: s.AnalyticsQuery,
  ok: s.Analytics,
});

export const listCarts = route({
  method: 'get',
  path: '/cartRecovery/{id}',
  operationId: 'listAbandonedCarts',
  tags,
  summary: "A location's abandoned carts",
  description: `Active carts (contacted or not) of one of the caller's locations, newest first, paginated. Another operator's location is 404. ${STATES_DOC}`,
  params: s.LocationIdParams,
  query: s.PageQuery,
  ok: s.CartList,
  errors: [404],
});

export const deleteOwnedCart = route({
  method: 'delete',
  path: '/cartRecovery/{id}',
  operationId: 'deleteAbandonedCart',
  tags,
  summary: 'Delete an abandoned cart (owner only)',
  description: 'Deletes the cart for good. Only its operator may: a cart of another operator answers 403, an unknown id 404.',
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [403, 404],
});

export const needingContact = route({
  method: 'get',
  path: '/communication/cartRecovery/items-needing-contact',
  operationId: 'listCartsNeedingContact',
  tags,
  summary: 'Carts needing contact',
  description: `The caller's carts that are active, not contacted and whose contact-on time has passed, newest first. ${PROCESSOR_DOC}`,
  query: s.PageQuery,
  ok: s.CartList,
});

export const listWithStats = route({
  method: 'get',
  path: '/communication/cartRecovery/{id}',
  operationId: 'listCartRecoveryWithStatistics',
  tags,
  summary: "A location's active carts with statistics",
  description: `Active carts not yet contacted (with \`includeContacted=true\` also contacted ones), newest first, paginated, and the location's all-time \`statistics\`: total, active, needingContact, contacted, completed, expired, recovered, recoveryRate (percent) and recoveredRevenue (dollars). Another operator's location is 404.`,
  params: s.LocationIdParams,
  query: s.StatsQuery,
  ok: s.CartListWithStats,
  errors: [404],
});

export const contact = route({
  method: 'post',
  path: '/communication/cartRecovery/{id}/contact',
  operationId: 'markCartRecoveryContacted',
  tags,
  summary: 'Mark a cart contacted (now)',
  description: "Sets the contacted marker to now (staff reached the person), so the processor will not e-mail it. Another operator's cart is 404.",
  params: s.IdParams,
  ok: s.Cart,
  errors: [404],
});

export const deleteCart = route({
  method: 'delete',
  path: '/communication/cartRecovery/{id}',
  operationId: 'deleteCartRecovery',
  tags,
  summary: 'Delete a cart',
  description: "Deletes the cart for good. Another operator's cart is 404.",
  params: s.IdParams,
  ok: s.DeleteResult,
  errors: [404],
});

export const sendEmail = route({
  method: 'post',
  path: '/communication/send-cart-recovery-email',
  operationId: 'sendCartRecoveryEmail',
  tags,
  summary: 'Send a cart-recovery e-mail now (with a short tracking link)',
  description: `Makes a short tracking link (30 days, counted clicks) to \`recoveryUrl\` (absolute http(s), 400 otherwise) and sends the \`cart_recovery\` template to \`to\` (400 on an invalid e-mail), rendered with \`locationId\` (name, time zone, currency), the names, \`customMessage\` and \`bookingInfo\` (\`itemName\` or \`inventoryId\`, \`startTime\`). With \`cartRecoveryId\` (a cart of the caller) the cart is marked contacted by it. The answer carries the short link and the message outcome. ${PROCESSOR_DOC}`,
  body: s.SendRecoveryEmailBody,
  ok: s.SendRecoveryEmailResult,
  errors: [404],
});

export const processScheduled = route({
  method: 'post',
  path: '/communication/process-scheduled',
  operationId: 'processScheduledCommunications',
  tags: ['Communications'],
  access: 'admin',
  summary: "Run the scheduled processors now (the caller's messages and carts)",
  description: `The Cron Trigger runs both processors every 5 minutes for every operator; this runs them now for the caller's operator (admin only). Scheduled communications: each due message is claimed with a conditional UPDATE, checked again and sent once (see \`POST /communication/schedule\`). Cart recovery: ${PROCESSOR_DOC} Overlapping runs never send a message twice.`,
  ok: s.ProcessAllResult,
});
