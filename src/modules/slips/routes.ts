import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slips'];
const subTags = ['Slip subscription'];

const STATUS_DOC = `Statuses: \`available\`, \`occupied\` (set at check-in, back to available at check-out), \`reserved\` (held for a tenant; still bookable for free dates), \`maintenance\` and \`out_of_service\` (no new reservations, transfers or date changes; out_of_service slips are not billed by the slip subscription).`;
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const SUB = `Adding slips needs an active slip subscription (402 \`slip_subscription_required\` otherwise); slips in service above the subscribed quota are billed automatically at 10 dollars per slip per month: the subscription quantity is changed through the payment provider right after the write (see GET /slip-subscription/status).`;

export const listSlips = route({
  method: 'get',
  path: '/slips',
  operationId: 'listSlips',
  tags,
  summary: 'Slips of a location',
  description: `Filters: \`status\`, \`unitType\`, \`section\`. Ordered by section, then unit number in natural order (A-2 before A-10). \`limit\` (max 500, default 100) and \`offset\`; \`total\` counts every match. Another operator's location answers 404. ${STATUS_DOC}`,
  query: s.ListQuery,
  ok: s.SlipList,
  errors: [404],
});

export const createSlip = route({
  method: 'post',
  path: '/slips',
  operationId: 'createSlip',
  tags,
  status: 201,
  summary: 'Create a slip',
  description: `A unit of a location: \`unitNumber\` (unique per location: 409 \`already_exists\`), \`name\`, \`section\`, \`unitType\` (slip, side_tie, mooring, dry_rack), dimensions in feet (\`lengthFt\`, \`maxLoaFt\` (defaults to the length for the fit check), \`widthFt\` (max beam), \`depthFt\` at low water, \`overheadClearanceFt\`), \`power\` (amps, volts, phase), \`water\`, \`rates\` (cents per foot, overriding the location's), \`amenities\`, \`notes\`. ${SUB} ${PERM}`,
  body: s.CreateBody,
  ok: s.Slip,
  errors: [402, 403, 404, 409],
});

export const listSections = route({
  method: 'get',
  path: '/slips/sections',
  operationId: 'listSlipSections',
  tags,
  summary: 'Distinct sections of a location',
  description: "The section names used by the slips of the location, sorted; slips without a section are left out. Another operator's location answers 404.",
  query: s.LocationQuery,
  ok: s.Sections,
  errors: [404],
});

export const sectionCounts = route({
  method: 'get',
  path: '/slips/sections/counts',
  operationId: 'countSlipSections',
  tags,
  summary: 'Sections of a location with their slip counts (by status)',
  description: '`unsectioned` counts the slips without a section.',
  query: s.LocationQuery,
  ok: s.SectionCounts,
  errors: [404],
});

export const renameSection = route({
  method: 'put',
  path: '/slips/sections/rename',
  operationId: 'renameSlipSection',
  tags,
  summary: 'Rename a section across the slips of a location',
  description: `Every slip of \`from\` moves to \`to\` (an existing section merges). 404 when no slip is in \`from\`. ${PERM}`,
  body: s.RenameSectionBody,
  ok: s.SectionChange,
  errors: [403, 404],
});

export const clearSection = route({
  method: 'delete',
  path: '/slips/sections/{name}',
  operationId: 'clearSlipSection',
  tags,
  summary: 'Clear a section from every slip of a location',
  description: `The slips stay; their \`section\` becomes null. Query \`locationId\` is required. 404 when no slip is in the section. ${PERM}`,
  params: s.SectionParams,
  query: s.LocationQuery,
  ok: s.SectionChange,
  errors: [403, 404],
});

export const slipStats = route({
  method: 'get',
  path: '/slips/stats',
  operationId: 'getSlipStats',
  tags,
  summary: 'Slip counts of a location by status and unit type',
  description: `Every status and unit type is listed (0 when none); \`inService\` leaves out out_of_service slips and \`occupancyPercent\` is occupied / in service. Another operator's location answers 404. ${STATUS_DOC}`,
  query: s.LocationQuery,
  ok: s.Stats,
  errors: [404],
});

export const searchSlips = route({
  method: 'get',
  path: '/slips/search',
  operationId: 'searchSlips',
  tags,
  summary: 'Find slips by unit number or name',
  description: 'Case-insensitive substring of the unit number or the name, optionally within one location; exact unit numbers first, then prefixes.',
  query: s.SearchQuery,
  ok: s.SlipList,
  errors: [404],
});

export const bulkCreate = route({
  method: 'post',
  path: '/slips/bulk-create',
  operationId: 'bulkCreateSlips',
  tags,
  status: 201,
  summary: 'Create a range of slips (prefix plus number range)',
  description: `Creates \`prefix\` + each number from \`start\` to \`end\` (zero-padded to \`padding\` digits; at most 500), all with the given fields, in one atomic write: when any of the unit numbers already exists at the location the answer is 409 \`already_exists\` with \`existingUnitNumbers\` and nothing is written. ${SUB} ${PERM}`,
  body: s.BulkCreateBody,
  ok: s.BulkCreateResult,
  errors: [402, 403, 404, 409],
});

export const bulkUpdate = route({
  method: 'put',
  path: '/slips/bulk',
  operationId: 'bulkUpdateSlips',
  tags,
  summary: 'Apply the same changes to many slips',
  description: `\`changes\` (any slip field but the unit number, and \`status\`) is applied to every slip of \`slipIds\` (at most 500) in one atomic write; an unknown or foreign id answers 404 with \`missing\` and nothing changes. Re-opening out_of_service slips needs an active slip subscription. ${PERM}`,
  body: s.BulkUpdateBody,
  ok: s.BulkUpdateResult,
  errors: [402, 403, 404],
});

export const getSlip = route({
  method: 'get',
  path: '/slips/{id}',
  operationId: 'getSlip',
  tags,
  summary: 'A slip',
  description: `With its dimensions, power, own rates and \`mapPosition\` (null when it is on no map). Another operator's slip answers 404. ${STATUS_DOC}`,
  params: s.IdParams,
  ok: s.Slip,
  errors: [404],
});

export const updateSlip = route({
  method: 'put',
  path: '/slips/{id}',
  operationId: 'updateSlip',
  tags,
  summary: 'Update a slip',
  description: `Partial: the fields given change (null clears a dimension). A unit number taken at the location answers 409. Status changes go through PATCH /slips/{id}/status. Existing reservations are not re-checked against new dimensions. ${PERM}`,
  params: s.IdParams,
  body: s.UpdateBody,
  ok: s.Slip,
  errors: [403, 404, 409],
});

export const deleteSlip = route({
  method: 'delete',
  path: '/slips/{id}',
  operationId: 'deleteSlip',
  tags,
  summary: 'Soft-delete a slip (status out_of_service)',
  description: `The slip stays with its history and map pin; it takes no new reservations and stops counting for the slip subscription (the billed quantity drops when above the quota). Existing reservations keep it: transfer them. PATCH /slips/{id}/status re-opens it. ${PERM}`,
  params: s.IdParams,
  ok: s.Slip,
  errors: [403, 404],
});

export const setStatus = route({
  method: 'patch',
  path: '/slips/{id}/status',
  operationId: 'setSlipStatus',
  tags,
  summary: 'Set the status of a slip',
  description: `Any of the statuses; setting the current one changes nothing. Re-opening an out_of_service slip needs an active slip subscription and is billed like a new slip. ${STATUS_DOC} ${PERM}`,
  params: s.IdParams,
  body: s.StatusBody,
  ok: s.Slip,
  errors: [402, 403, 404],
});

const SUB_DOC = `The marina subscribes a \`quota\` of slips; the subscription bills max(quota, slips in service) slips at 10 dollars per slip per month, so slips created above the quota are billed automatically (the quantity changes through the payment provider after each change, and a daily job reconciles). Admin only.`;

export const subscriptionStatus = route({
  method: 'get',
  path: '/slip-subscription/status',
  operationId: 'getSlipSubscription',
  tags: subTags,
  summary: 'Slip subscription status, quota and billed slips',
  description: `Refreshes from the payment provider (a finished checkout becomes active here). \`status\` is \`none\` before any checkout. ${SUB_DOC}`,
  ok: s.SubscriptionView,
});

export const createCheckout = route({
  method: 'post',
  path: '/slip-subscription/create-checkout',
  operationId: 'createSlipSubscriptionCheckout',
  tags: subTags,
  status: 201,
  summary: 'Start the slip subscription (hosted checkout session)',
  description: `Creates a checkout session at the payment provider for \`quota\` slips (at least the slips already in service) and answers its \`url\`; the subscription is active once the checkout is paid (GET /slip-subscription/status picks it up). The offline payment simulator completes the checkout at once, as if paid with the test card. An active subscription answers 409 \`already_exists\` (use add-slips). \`successUrl\`/\`cancelUrl\` default to this API's status page. ${SUB_DOC}`,
  body: s.CheckoutBody,
  ok: s.CheckoutResult,
  errors: [402, 403, 409],
});

export const addSlips = route({
  method: 'post',
  path: '/slip-subscription/add-slips',
  operationId: 'addSlipSubscriptionSlips',
  tags: subTags,
  summary: 'Subscribe more slips (raise the quota)',
  description: `Raises the quota by \`count\`; the billed quantity becomes max(quota, slips in service), pro-rated by the provider. Needs an active subscription (402). ${SUB_DOC}`,
  body: s.AddSlipsBody,
  ok: s.SubscriptionView,
  errors: [402, 403],
});

export const portal = route({
  method: 'post',
  path: '/slip-subscription/portal',
  operationId: 'createSlipSubscriptionPortal',
  tags: subTags,
  summary: "A session of the payment provider's billing portal",
  description: `Invoices, card and cancellation at the provider; \`returnUrl\` defaults to this API's status page. 404 without a slip subscription. ${SUB_DOC}`,
  body: s.PortalBody,
  ok: s.PortalResult,
  errors: [403, 404],
});

export const cancel = route({
  method: 'post',
  path: '/slip-subscription/cancel',
  operationId: 'cancelSlipSubscription',
  tags: subTags,
  summary: 'Cancel the slip subscription at the end of the billing period',
  description: `The subscription stays active until \`currentPeriodEnd\`; cancelling again changes nothing. 404 without an active subscription. ${SUB_DOC}`,
  ok: s.SubscriptionView,
  errors: [403, 404],
});
