/**
 * Contract test: the real answers of every read (GET) operation validate against the response
 * schema `/openapi.json` documents for it, with a JSON Schema 2020-12 validator (ajv). One operator
 * is built with the API and the shared factories (items, bookings, deposits, waivers, channel...),
 * then each case calls one GET and checks its answer. A GET added to the API without a case here
 * fails the coverage test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { api, createOperator, eventually, get, patch, post, put, signToken, type Caller, type Operator } from '../harness';
import { at, bookBody, dateAhead, rentalItem, tourItem, type TestItem } from '../modules/bookings/factories';
import { ch, connect, idem, partnerKey, platform, rentalItem as channelItem } from '../modules/channel/factories';
import { createItem, form, pngBytes, rentalData } from '../modules/inventory/helpers';
import { outbound, resolver } from '../../src/adapters/http';

type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const TZ = 'America/New_York';
/** The smallest baseline JPEG (1x1): a valid signature image. */
const TINY_JPEG =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP////////////////////////////////////////////' +
  '//////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

let doc: Doc;
let ajv: Ajv2020;
const operations = new Map<string, { method: string; path: string; op: Operation }>();
const validators = new Map<string, ValidateFunction>();

/** Everything the reads need, built once through the API. */
interface World {
  op: Operator;
  rental: TestItem;
  tour: TestItem;
  apiItem: { inventory_id: string };
  mediaPath: string;
  booking: { rentalId: string; transactionId: string; renterId: string };
  tourBooking: { rentalId: string };
  pendingRentalId: string;
  cancelledRentalId: string;
  webhookId: string;
  waiver: { templateId: string; signatureId: string; pin: string };
  waitlistId: string;
  partner: { key: string; connectionId: string; bookingId: string; reference: string };
  ota: { portalToken: string; liveKey: string };
  month: string;
  /** An account made by sign-up (it has a subscription). */
  signupToken: string;
  /** Memberships: a tier, a membership (with a family member and credits), an organization, an affiliate, a portal session. */
  members: { tierId: string; membershipId: string; orgId: string; affiliateId: string; portalSession: string };
  /** The booking widget: a booking placed through its checkout (renter token, participant, document), a captain on shift. */
  widget: { rentalId: string; renterToken: string; documentId: string; captainShiftDay: number };
}
let w: World;

/**
 * A copy of the document where every object schema that lists its properties and says nothing of
 * others is closed (`additionalProperties: false`), after inlining references and merging `allOf`:
 * a field the service answers but the document does not name fails the contract.
 */
function closedObjects(d: Doc): Doc {
  const schemas = (d.components as { schemas?: Record<string, unknown> }).schemas ?? {};
  const resolving = new Set<string>();
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (!node || typeof node !== 'object') return node;
    let n = node as Record<string, unknown>;
    if (typeof n.$ref === 'string' && n.$ref.startsWith('#/components/schemas/')) {
      const name = n.$ref.slice('#/components/schemas/'.length);
      if (resolving.has(name)) return n;
      resolving.add(name);
      const { $ref: _ref, ...rest } = n;
      const out = close({ ...(schemas[name] as object), ...rest });
      resolving.delete(name);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n)) out[k] = close(v);
    n = out;
    if (
      Array.isArray(n.allOf) &&
      n.allOf.every((m) => m && typeof m === 'object' && ((m as { type?: unknown }).type === 'object' || (m as { properties?: unknown }).properties))
    ) {
      const members = n.allOf as Record<string, unknown>[];
      const { allOf: _all, ...rest } = n;
      n = {
        ...rest,
        type: 'object',
        properties: Object.assign({}, ...members.map((m) => m.properties ?? {})),
        required: members.flatMap((m) => (m.required as string[]) ?? []),
      };
      const open = members.find((m) => m.additionalProperties !== undefined && m.additionalProperties !== false);
      if (open) n.additionalProperties = open.additionalProperties;
    }
    if (n.properties && n.additionalProperties === undefined) n.additionalProperties = false;
    return n;
  };
  return { ...d, paths: close(d.paths) as Doc['paths'] };
}

function pointer(...parts: string[]) {
  return parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** The validator of an operation's documented success answer (compiled once, refs resolved in the document). */
function validatorOf(operationId: string): { validate: ValidateFunction | null; media: string[]; status: number } {
  const found = operations.get(operationId);
  if (!found) throw new Error(`no operation ${operationId} in /openapi.json`);
  const [status, res] = Object.entries(found.op.responses).find(([code]) => code.startsWith('2'))!;
  const media = Object.keys(res.content ?? {});
  if (!media.includes('application/json')) return { validate: null, media, status: Number(status) };
  let validate = validators.get(operationId);
  if (!validate) {
    const ref = `openapi.json#/${pointer('paths', found.path, found.method, 'responses', status, 'content', 'application/json', 'schema')}`;
    validate = ajv.compile({ $ref: ref });
    validators.set(operationId, validate);
  }
  return { validate, media, status: Number(status) };
}

async function expectContract(operationId: string, path: string, caller: Caller = { key: w.op.adminKey }) {
  const found = operations.get(operationId);
  expect(found, `operation ${operationId}`).toBeDefined();
  expect(found!.method).toBe('get');
  const r = await api('GET', path, caller);
  const { validate, media, status } = validatorOf(operationId);
  expect(r.status, `${path}: ${r.text}`).toBe(status);
  const type = (r.headers.get('content-type') ?? '').split(';')[0].trim();
  expect(media, `${operationId} answered ${type}`).toContain(type);
  if (!validate) return r;
  const ok = validate(r.body);
  expect(
    ok ? [] : validate.errors!.slice(0, 8).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`),
    `${operationId} ${path}`,
  ).toEqual([]);
  return r;
}

interface Case {
  op: string;
  label?: string;
  path: () => string;
  caller?: () => Caller;
}

const q = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString();
const admin = () => ({ key: w.op.adminKey });
const anonymous = () => ({});

const CASES: Case[] = [
  // Customers, users, staff, locations, keys, webhooks, messages
  { op: 'getCustomer', path: () => '/customer' },
  { op: 'listCustomerPaymentMethods', path: () => '/customer/payment-methods' },
  { op: 'getSubscription', path: () => '/customer/subscription', caller: () => ({ token: w.signupToken }) },
  { op: 'getCurrentUser', path: () => '/user' },
  { op: 'getTermsStatus', path: () => '/user/terms-status' },
  { op: 'exportMyData', path: () => '/user/export/my-data' },
  { op: 'listUserAuditLogs', path: () => `/user/${w.op.adminId}/audit-logs` },
  { op: 'listUsers', path: () => '/userManagement' },
  { op: 'listStaffShifts', path: () => `/staffSchedule?${q({ locationId: w.op.locationId })}` },
  {
    op: 'listStaffShifts',
    label: 'with occurrences',
    path: () => `/staffSchedule?${q({ customerId: w.op.customerId, from: at(TZ, 0, '00:00'), to: at(TZ, 7, '00:00') })}`,
  },
  { op: 'listLocations', path: () => '/location' },
  { op: 'listLocations', label: 'of one item', path: () => `/location?${q({ inventoryId: w.rental.id })}` },
  { op: 'listApiKeys', path: () => '/api-keys' },
  { op: 'listWebhooks', path: () => '/webhooks' },
  { op: 'getWebhook', path: () => `/webhooks/${w.webhookId}` },
  { op: 'listWebhookDeliveries', path: () => `/webhooks/${w.webhookId}/deliveries` },
  { op: 'listOutboxMessages', path: () => '/outbox/messages' },
  // Schedule
  { op: 'listItemSchedule', path: () => `/schedule/schedule?${q({ inventory_id: w.rental.id, include_drydock: true })}` },
  { op: 'listItemSchedule', label: 'dates only', path: () => `/schedule/schedule?${q({ inventory_id: w.rental.id, dates_only: true })}` },
  { op: 'searchItemSchedule', path: () => `/schedule/schedule/search?${q({ inventory_id: w.rental.id, customer_name: 'Rita' })}` },
  { op: 'listLocationSchedule', path: () => `/schedule/location?${q({ location_ids: JSON.stringify([w.op.locationId]) })}` },
  {
    op: 'listLocationSchedule',
    label: 'lightweight',
    path: () => `/schedule/location?${q({ location_ids: JSON.stringify([w.op.locationId]), lightweight: true })}`,
  },
  { op: 'listScheduleByCustomerStatus', path: () => `/schedule/by-customer-status?${q({ status: 'confirmed,pending' })}` },
  { op: 'listScheduleByCustomerStatus', label: 'lightweight', path: () => `/schedule/by-customer-status?${q({ lightweight: true })}` },
  { op: 'listScheduleByLocationStatus', path: () => `/schedule/by-location-status?${q({ location_id: w.op.locationId })}` },
  { op: 'listSchedulesPaginated', path: () => `/schedule/schedules/paginated?${q({ limit: 1 })}` },
  { op: 'countSchedules', path: () => '/schedule/schedules/count' },
  // Deposits, events, public booking
  { op: 'auditRentalDeposits', path: () => `/preAuth/audit-preauths/${w.booking.rentalId}` },
  { op: 'listBookingEvents', path: () => `/events?${q({ transactionid: w.booking.transactionId })}` },
  { op: 'getPublicOrder', path: () => `/public/order/${w.booking.transactionId}`, caller: anonymous },
  { op: 'getPublicBooking', path: () => `/public/booking?${q({ TransactionId: w.booking.transactionId })}`, caller: anonymous },
  { op: 'getWidgetData', path: () => `/public/customer?${q({ customer_id: w.op.customerId })}`, caller: anonymous },
  { op: 'getWidgetInfo', path: () => `/public/widget-info?${q({ customer_id: w.op.customerId, inventory_id: w.rental.id })}`, caller: anonymous },
  // Renters
  { op: 'listRenters', path: () => `/renters?${q({ customerId: w.op.customerId })}` },
  { op: 'listRenters', label: 'with accounting', path: () => `/renters?${q({ customerId: w.op.customerId, includeAccounting: true })}` },
  { op: 'exportRenters', path: () => `/renters/export?${q({ customerId: w.op.customerId })}` },
  { op: 'suggestRenters', path: () => `/renters/search-suggestions?${q({ customerId: w.op.customerId, query: 'Rit' })}` },
  { op: 'listOwingRenters', path: () => '/owing/renters' },
  { op: 'listRenterJournalEntries', path: () => `/renters/journal-entries/${w.booking.renterId}` },
  { op: 'getRenter', path: () => `/renters/${w.booking.renterId}` },
  { op: 'listRenterPaymentMethods', path: () => `/renters/${w.booking.renterId}/payment-methods` },
  // Waiver numbers and waivers
  { op: 'listWaiverNumbers', path: () => `/pending-renters?${q({ customerId: w.op.customerId })}` },
  { op: 'validateWaiverPin', path: () => `/pending-renters/validate?${q({ pin: w.waiver.pin })}`, caller: anonymous },
  { op: 'getWaiverUrl', path: () => `/waiverUrl?${q({ locationId: w.op.locationId })}`, caller: anonymous },
  { op: 'validateWaiverNumber', path: () => `/waiverNumberValidation?${q({ waiverNumber: w.waiver.pin, locationId: w.op.locationId })}`, caller: anonymous },
  { op: 'getWaiverLogo', path: () => `/inHouseWaiver/logo/${w.op.locationId}`, caller: anonymous },
  { op: 'listPublicWaiverTemplates', path: () => `/inHouseWaiver/waiver/templates/location/${w.op.locationId}`, caller: anonymous },
  { op: 'listWaiverTemplates', path: () => `/inHouseWaiver/waiver/templates?${q({ locationId: w.op.locationId })}` },
  { op: 'getWaiverTemplate', path: () => `/inHouseWaiver/waiver/template/${w.waiver.templateId}`, caller: anonymous },
  { op: 'getWaiverSignature', path: () => `/inHouseWaiver/waiver/sign/info/${w.waiver.signatureId}`, caller: anonymous },
  { op: 'verifyWaiverSignature', path: () => `/inHouseWaiver/waiver/verify/${w.waiver.signatureId}`, caller: anonymous },
  { op: 'downloadSignedWaiver', path: () => `/inHouseWaiver/waiver/sign/${w.waiver.signatureId}`, caller: anonymous },
  // Inventory and records
  { op: 'listInventory', path: () => `/inventory/customer?${q({ customer_id: w.op.customerId })}` },
  { op: 'getInventoryPricing', path: () => `/inventory-pricing?${q({ inventory_id: w.rental.id })}` },
  { op: 'getInventoryPricing', label: 'tour', path: () => `/inventory-pricing?${q({ inventory_id: w.tour.id })}` },
  { op: 'getInventoryMedia', path: () => w.mediaPath, caller: anonymous },
  { op: 'listBoatRecordRundown', path: () => `/boatRecords/rundownRecords?${q({ inventoryId: w.apiItem.inventory_id })}` },
  { op: 'listBoatRecords', path: () => `/boatRecords?${q({ inventoryId: w.apiItem.inventory_id })}` },
  // Channel API, partner portal, connections
  { op: 'getChannelIdentity', path: () => '/channel/v1/me', caller: () => ch(w.partner.key) },
  { op: 'getChannelIdentity', label: 'platform key', path: () => '/channel/v1/me', caller: () => ch(w.ota.liveKey) },
  { op: 'listChannelProducts', path: () => '/channel/v1/products', caller: () => ch(w.partner.key) },
  { op: 'findChannelBookings', path: () => `/channel/v1/bookings?${q({ reference: w.partner.reference })}`, caller: () => ch(w.partner.key) },
  { op: 'getChannelBooking', path: () => `/channel/v1/bookings/${w.partner.bookingId}`, caller: () => ch(w.partner.key) },
  { op: 'getChannelSettlement', path: () => `/channel/v1/settlement?${q({ month: w.month })}`, caller: () => ch(w.partner.key) },
  { op: 'getPortalChannel', path: () => '/channel/v1/portal/channel', caller: () => ch(w.ota.portalToken) },
  { op: 'getPortalSettlement', path: () => `/channel/v1/portal/settlement?${q({ month: w.month })}`, caller: () => ch(w.ota.portalToken) },
  { op: 'listAvailableChannels', path: () => '/channel-connections/channels' },
  { op: 'listChannelConnections', path: () => '/channel-connections' },
  { op: 'getChannelConnection', path: () => `/channel-connections/${w.partner.connectionId}` },
  { op: 'getConnectionSettlement', path: () => `/channel-connections/${w.partner.connectionId}/settlement?${q({ month: w.month })}` },
  // Availability, bookings, drydock, waitlist
  { op: 'preloadAvailability', path: () => `/preload-availability?${q({ inventoryId: w.rental.id, month: w.month })}`, caller: anonymous },
  {
    op: 'getMonthAvailability',
    path: () => `/public/availability?${q({ inventoryId: w.rental.id, locationId: w.op.locationId, month: w.month })}`,
    caller: anonymous,
  },
  {
    op: 'getMonthAvailability',
    label: 'tour',
    path: () => `/public/availability?${q({ inventoryId: w.tour.id, locationId: w.op.locationId, month: w.month })}`,
    caller: anonymous,
  },
  {
    op: 'getDayAvailability',
    path: () => `/public/day-availability?${q({ inventoryId: w.rental.id, locationId: w.op.locationId, date: dateAhead(TZ, 3) })}`,
    caller: anonymous,
  },
  {
    op: 'getDayAvailability',
    label: 'tour',
    path: () => `/public/day-availability?${q({ inventoryId: w.tour.id, locationId: w.op.locationId, date: dateAhead(TZ, 4) })}`,
    caller: anonymous,
  },
  {
    op: 'checkAssetAvailability',
    path: () => {
      const start = Math.floor(Date.parse(at(TZ, 3, '10:00')) / 1000);
      return `/public/check-availability?${q({ inventoryId: w.rental.id, assetId: w.rental.assetIds[0], startUtc: start, endUtc: start + 3600 })}`;
    },
    caller: anonymous,
  },
  {
    op: 'getTimeSlotPopularity',
    path: () => `/public/time-slot-popularity?${q({ inventoryId: w.rental.id, locationId: w.op.locationId })}`,
    caller: anonymous,
  },
  { op: 'checkAvailability', path: () => `/availability?${q({ inventoryId: w.rental.id, startTime: at(TZ, 3, '10:00'), endTime: at(TZ, 3, '12:00') })}` },
  {
    op: 'checkAvailability',
    label: 'tour',
    path: () => `/availability?${q({ inventoryId: w.tour.id, startTime: at(TZ, 4, '10:00'), endTime: at(TZ, 4, '12:00'), seats: 2 })}`,
  },
  { op: 'getBooking', path: () => `/coreBooking/${w.booking.rentalId}` },
  { op: 'getBooking', label: 'tour', path: () => `/coreBooking/${w.tourBooking.rentalId}` },
  { op: 'getBooking', label: 'pending, pay later', path: () => `/coreBooking/${w.pendingRentalId}` },
  { op: 'getBooking', label: 'cancelled and refunded', path: () => `/coreBooking/${w.cancelledRentalId}` },
  { op: 'listDrydocks', path: () => `/drydock?${q({ boatId: w.rental.id })}` },
  { op: 'listWaitlistEntries', path: () => '/waitlist' },
  { op: 'getWaitlistEntry', path: () => `/waitlist/${w.waitlistId}` },
  // Memberships, member portal, affiliates
  { op: 'listMembershipTiers', path: () => `/memberships/tiers?${q({ customerId: w.op.customerId })}` },
  { op: 'getMembershipTier', path: () => `/memberships/tiers/${w.members.tierId}?${q({ customerId: w.op.customerId })}` },
  { op: 'listMemberships', path: () => `/memberships?${q({ customerId: w.op.customerId })}` },
  { op: 'getMembership', path: () => `/memberships/${w.members.membershipId}?${q({ customerId: w.op.customerId })}` },
  { op: 'listMembershipInvoices', path: () => `/memberships/${w.members.membershipId}/invoices?${q({ customerId: w.op.customerId })}` },
  { op: 'getMembershipCredits', path: () => `/memberships/${w.members.membershipId}/credits?${q({ customerId: w.op.customerId })}` },
  { op: 'listOrganizations', path: () => `/memberships/organizations?${q({ customerId: w.op.customerId })}` },
  { op: 'getOrganization', path: () => `/memberships/organizations/${w.members.orgId}?${q({ customerId: w.op.customerId })}` },
  { op: 'listOrganizationMembers', path: () => `/memberships/organizations/${w.members.orgId}/members?${q({ customerId: w.op.customerId })}` },
  { op: 'listPublicMembershipTiers', path: () => `/public/memberships/tiers?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'getMemberPortal', path: () => '/public/memberships/portal', caller: () => ({ headers: { authorization: `Bearer ${w.members.portalSession}` } }) },
  {
    op: 'listMemberPortalInvoices',
    path: () => '/public/memberships/portal/invoices',
    caller: () => ({ headers: { authorization: `Bearer ${w.members.portalSession}` } }),
  },
  { op: 'checkAffiliateIdAvailability', path: () => `/affiliate/check-availability?${q({ affiliateId: w.members.affiliateId })}` },
  // Booking widget: public settings and integrations, staff availability, renter self-service, passes, the page and its catalog
  { op: 'getPublicSettings', path: () => `/public/customer/${w.op.customerId}/public`, caller: anonymous },
  { op: 'getPublicCustomCode', path: () => `/public/getCustomCode?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'getPublicTagManager', path: () => `/public/getTagManager?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'getPublicSocialConversion', path: () => `/public/getSocialConversion?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'getPublicVideoPixel', path: () => `/public/getVideoPixel?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'getPublicChatMessaging', path: () => `/public/getChatMessaging?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  {
    op: 'listAvailableStaff',
    path: () =>
      `/public/available-staff?${q({ locationId: w.op.locationId, skill: 'captain', startTime: at(TZ, w.widget.captainShiftDay, '10:00'), endTime: at(TZ, w.widget.captainShiftDay, '12:00') })}`,
    caller: anonymous,
  },
  {
    op: 'listStaffAvailabilityRange',
    path: () => `/public/available-staff-range?${q({ locationId: w.op.locationId, start: at(TZ, 1, '00:00'), end: at(TZ, 3, '00:00') })}`,
    caller: anonymous,
  },
  { op: 'getCancellationEligibility', path: () => `/public/bookings/${w.booking.rentalId}/cancellation-eligibility`, caller: anonymous },
  { op: 'listBookingDocuments', path: () => `/coreBooking/${w.widget.rentalId}/documents` },
  { op: 'downloadBookingDocument', path: () => `/coreBooking/${w.widget.rentalId}/documents/${w.widget.documentId}` },
  { op: 'listMaskedPaymentMethods', path: () => `/public/payment-methods?${q({ stripeCustomerId: 'cus_sim_unknown' })}`, caller: anonymous },
  {
    op: 'listBookingParticipantsAsRenter',
    path: () => `/public/bookings/${w.widget.rentalId}/participants`,
    caller: () => ({ headers: { 'x-renter-token': w.widget.renterToken } }),
  },
  { op: 'listBookingParticipants', path: () => `/coreBooking/${w.widget.rentalId}/participants` },
  { op: 'getWalletPass', path: () => `/public/bookings/${w.widget.rentalId}/wallet-pass-a`, caller: anonymous },
  { op: 'downloadWalletPass', path: () => `/public/bookings/${w.widget.rentalId}/wallet-pass-a/download`, caller: anonymous },
  { op: 'getWalletSaveLink', path: () => `/public/bookings/${w.widget.rentalId}/wallet-pass-b`, caller: anonymous },
  { op: 'downloadBookingCalendarEvent', path: () => `/public/bookings/${w.widget.rentalId}/calendar.ics`, caller: anonymous },
  { op: 'getWidgetPage', path: () => `/widget?${q({ customer: w.op.customerId })}`, caller: anonymous },
  { op: 'getWidgetCatalog', path: () => `/public/widget/catalog?${q({ customerId: w.op.customerId })}`, caller: anonymous },
  { op: 'listAffiliates', path: () => `/affiliate?${q({ customerId: w.op.customerId })}` },
  // Analytics, forecast, AI helpers
  {
    op: 'getAnalyticsMetrics',
    path: () => `/analytics/metrics?${q({ locationIds: w.op.locationId, startDate: dateAhead(TZ, -1), endDate: dateAhead(TZ, 5) })}`,
  },
  {
    op: 'getInventoryPerformance',
    path: () => `/analytics/inventory-performance?${q({ locationIds: w.op.locationId, startDate: dateAhead(TZ, -1), endDate: dateAhead(TZ, 5), limit: 5 })}`,
  },
  { op: 'getYearOverYear', path: () => `/analytics/year-over-year?${q({ locationIds: w.op.locationId })}` },
  {
    op: 'getWidgetMetrics',
    path: () => `/analytics/widget-metrics?${q({ locationIds: w.op.locationId, startDate: dateAhead(TZ, -1), endDate: dateAhead(TZ, 1) })}`,
  },
  { op: 'getForecast', path: () => `/forecast?${q({ locationId: w.op.locationId, days: 14 })}` },
  { op: 'listBusinessAuditCharges', path: () => '/ai/business-audit/billing' },
  { op: 'proxyPage', path: () => `/ai/proxy-page?${q({ url: CONTRACT_SITE })}` },
];

async function ok<T = any>(p: Promise<{ status: number; body: T; text: string }>, status = [200, 201, 202]): Promise<T> {
  const r = await p;
  expect(status, `${r.status}: ${r.text}`).toContain(r.status);
  return r.body;
}

const realFetch = outbound.fetch;
const realResolve = resolver.resolve;
/** The public page of the AI helpers' cases (the page proxy, the business audit). */
const CONTRACT_SITE = 'https://contract-site.example.test/';
afterAll(() => {
  outbound.fetch = realFetch;
  resolver.resolve = realResolve;
});

beforeAll(async () => {
  // Webhook deliveries go to a receiver that answers 200 (no network in tests).
  outbound.fetch = async (input: Request | string | URL) =>
    String(input instanceof Request ? input.url : input) === CONTRACT_SITE
      ? new Response('<html lang="en"><head><title>Contract Marina</title></head><body><h1>Boats</h1><script>x()</script></body></html>', {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        })
      : new Response('ok', { status: 200 });
  resolver.resolve = async () => ['93.184.216.34'];
  const r = await get('/openapi.json');
  doc = r.body as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(closedObjects(doc) as object, 'openapi.json');
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) operations.set(op.operationId, { method, path, op });
  }

  const op = await createOperator({ timezone: TZ });
  const key = op.adminKey;
  const rental = await rentalItem(op, { assets: 2 });
  const tour = await tourItem(op, { capacity: 10 });

  // Inventory through its own API: an asset map (one pinned asset, one without a pin) and a photo.
  const apiItem = await createItem(op, rentalData(op));
  const [a1] = apiItem.data.assets as { assetId: string }[];
  await ok(post(`/inventory/asset-map/${apiItem.inventory_id}`, { pins: [{ assetId: a1.assetId, x: 40, y: 60 }] }, { key }));
  const photo = await ok(api('POST', `/inventory/photo/${apiItem.inventory_id}`, { key, rawBody: form(pngBytes()) }));
  const images: string[] = photo.data?.images ?? photo.images ?? [];
  const mediaPath = new URL(images[images.length - 1], 'http://x').pathname;
  await ok(post('/boatRecords', { inventoryId: apiItem.inventory_id, RecordType: 'checkout', Details: { fuel: 'full' } }, { key }));

  // Bookings: a paid rental with a deposit hold, a tour with tickets.
  const booked = await ok(
    post('/coreBooking/book', bookBody({ inventoryId: rental.id, startTime: at(TZ, 3, '10:00'), endTime: at(TZ, 3, '12:00'), quantity: 1 }), { key }),
  );
  const tourBooked = await ok(post('/coreBooking/book', bookBody({ inventoryId: tour.id, startTime: at(TZ, 4, '10:00'), tickets: { Adult: 2 } }), { key }));
  const payLater = await ok(
    post(
      '/coreBooking/book',
      bookBody({ inventoryId: rental.id, startTime: at(TZ, 5, '10:00'), endTime: at(TZ, 5, '12:00'), quantity: 1, paymentMethodId: null }),
      { key },
    ),
  );
  const cancelled = await ok(
    post('/coreBooking/book', bookBody({ inventoryId: rental.id, startTime: at(TZ, 6, '10:00'), endTime: at(TZ, 6, '12:00'), quantity: 1 }), { key }),
  );
  await ok(post(`/coreBooking/${cancelled.rentalId}/cancel`, {}, { key }));
  await ok(
    post(
      '/preAuth/authorize-deposit',
      { rentalId: booked.rentalId, authorizeAmount: 100, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa', customerId: op.customerId },
      { key },
    ),
  );
  await ok(post('/events', { rentalId: booked.rentalId, content: 'Called the renter about fuel' }, { key }));
  await ok(post('/drydock', { boatId: rental.id, startDate: dateAhead(TZ, 20), endDate: dateAhead(TZ, 21), notes: 'Hull cleaning' }, { key }));
  const joined = await ok(
    post('/public/waitlist', {
      firstName: 'Wanda',
      lastName: 'Waiter',
      email: 'wanda@example.test',
      date: dateAhead(TZ, 4),
      time: '10:00',
      inventoryId: tour.id,
      locationId: op.locationId,
    }),
  );

  // Staff, webhooks (a delivery attempt), waivers.
  await ok(
    post(
      '/staffSchedule',
      { customerId: op.customerId, locationId: op.locationId, staffId: op.adminId, startTime: at(TZ, 2, '09:00'), endTime: at(TZ, 2, '17:00') },
      { key },
    ),
  );
  const hook = await ok(post('/webhooks', { url: 'https://hooks.example.test/berth', description: 'Contract test' }, { key }));
  await ok(post(`/webhooks/${hook.id}/test`, {}, { key }));
  await eventually(async () => (await get(`/webhooks/${hook.id}/deliveries`, { key })).body?.data?.length > 0);
  const template = await ok(
    post(
      '/inHouseWaiver/waiver/template',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        title: 'Rental waiver',
        sections: [
          { type: 'text', title: 'Risks', content: 'Boating involves risks.' },
          { type: 'checkbox', id: 'ack', label: 'I accept the risks' },
          { type: 'signature', id: 'sig', label: 'Signature' },
        ],
      },
      { key },
    ),
  );
  const waiverNumber = await ok(post('/pending-renters', { customerId: op.customerId, locationId: op.locationId, firstName: 'Val' }, { key }));
  const signed = await ok(
    post('/inHouseWaiver/waiver/sign', {
      templateId: template.templateId,
      firstName: 'Jane',
      lastName: 'Doe',
      userEmail: 'jane.doe@example.test',
      formData: { ack: true, sig: TINY_JPEG },
    }),
  );

  const signupToken = await signToken({ sub: `idp|${crypto.randomUUID()}`, email: `sub-${crypto.randomUUID().slice(0, 6)}@example.test` });
  await ok(post('/customer', { name: 'Signed-up Marina' }, { token: signupToken }));

  // Channel: a partner key with a booking, and a platform channel the operator connected to.
  const sold = await channelItem(op, { hourly: 50, assets: 1, taxes: [{ name: 'Sales tax', rate: 7 }] });
  const pk = await partnerKey(op, { commissionRate: 15 });
  const reference = `REF-${crypto.randomUUID().slice(0, 6)}`;
  const channelBooking = await ok(
    post(
      '/channel/v1/bookings',
      {
        productId: sold.id,
        startTime: at(TZ, 10, '10:00'),
        endTime: at(TZ, 10, '12:00'),
        quantity: 1,
        totalPrice: 107,
        reference,
        guest: { firstName: 'Gail', lastName: 'Guest', email: 'gail@example.test' },
      },
      idem(pk.key, reference),
    ),
  );
  const ota = await platform();
  await connect(op, ota.channelId);
  await ok(put('/channel/v1/portal/webhook', { url: 'https://ota.example.test/hooks' }, ch(ota.portalToken)));

  // Memberships: a public tier, a member enrolled through the widget (portal link in the welcome e-mail), a family
  // member, credits, a free month (a second invoice), an organization with an authorized renter, an affiliate.
  const tier = await ok(
    post(
      '/memberships/tiers',
      {
        customerId: op.customerId,
        name: 'Contract Club',
        pricing: { monthly: 2500, yearly: 25000 },
        benefits: { discountPercentage: 10, creditsPerPeriod: 500, perks: ['Coffee'] },
        familyOptions: { enabled: true, maxMembers: 2 },
        allowedMemberTypes: ['individual', 'organization'],
        isPublic: true,
      },
      { key },
    ),
  );
  const enrolled = await ok(
    post('/public/memberships/enroll', {
      customerId: op.customerId,
      tierId: tier.tierId,
      firstName: 'Mo',
      lastName: 'Member',
      email: 'mo.member@example.test',
      paymentMethodId: 'pm_card_visa',
    }),
  );
  const membershipId = enrolled.membership.membershipId;
  await ok(post(`/memberships/${membershipId}/family`, { customerId: op.customerId, renterId: booked.renterId, email: 'family@example.test' }, { key }));
  await ok(post(`/memberships/${membershipId}/credits/adjust`, { customerId: op.customerId, amount: 300, description: 'Welcome' }, { key }));
  await ok(post(`/memberships/${membershipId}/billing/add-free-month`, { customerId: op.customerId, reason: 'Contract' }, { key }));
  const welcome = await ok(get(`/outbox/messages?${q({ template: 'membership.welcome', to: 'mo.member@example.test' })}`, { key }));
  const linkToken = /token=(mpl_[A-Za-z0-9]+)/.exec(welcome.data[0].body)![1];
  const portalSession = (await ok(post('/public/memberships/portal/session', { token: linkToken }))).sessionToken as string;
  const org = await ok(
    post(
      '/memberships/organizations',
      { customerId: op.customerId, name: 'Contract Co', contactEmail: 'co@example.test', contactName: 'Co', billingAddress: { city: 'Miami' } },
      { key },
    ),
  );
  await ok(post(`/memberships/organizations/${org.orgId}/members`, { customerId: op.customerId, renterId: booked.renterId }, { key }));
  await ok(
    post(
      `/memberships/organizations/${org.orgId}/membership`,
      { customerId: op.customerId, tierId: tier.tierId, billingCycle: 'monthly', paymentMethodId: 'pm_card_visa' },
      { key },
    ),
  );
  const affiliate = await ok(
    post('/affiliate', { customerId: op.customerId, name: 'Contract Affiliate', email: 'aff@example.test', percentageEarned: 5 }, { key }),
  );

  // Booking widget: host-page integrations, a captain on shift, a booking through the widget's checkout with a participant and a document.
  await ok(
    api('PATCH', '/customer', {
      key,
      body: {
        integrations: {
          customCode: { head: '<meta name="x" content="y">' },
          tagManager: { containerId: 'GTM-CONTRACT1' },
          socialConversion: { metaPixelId: '1234567890' },
          videoPixel: { provider: 'youtube', pixelId: 'YT-1' },
          chatMessaging: { provider: 'crisp', websiteId: 'web-1', welcomeMessage: 'Ahoy' },
          reviewConnections: { google: { url: 'https://g.page/r/contract' } },
        },
      },
    }),
  );
  const captain = await op.addUser({ role: 'staff', skills: ['captain'] });
  await ok(
    post(
      '/staffSchedule',
      { customerId: op.customerId, locationId: op.locationId, staffId: captain.userId, startTime: at(TZ, 2, '08:00'), endTime: at(TZ, 2, '18:00') },
      { key },
    ),
  );
  const widgetSale = await ok(
    post('/public/widget/checkout', {
      customerId: op.customerId,
      inventoryId: rental.id,
      startTime: at(TZ, 8, '10:00'),
      endTime: at(TZ, 8, '12:00'),
      customerInfo: { firstName: 'Wil', lastName: 'Widget', email: 'wil.widget@example.test' },
      paymentMethodId: 'pm_card_visa',
      refAffiliate: 'CONTRACT',
    }),
  );
  await ok(
    post(
      `/public/bookings/${widgetSale.rentalId}/participants`,
      { firstName: 'Wil', lastName: 'Widget' },
      { headers: { 'x-renter-token': widgetSale.renterToken } },
    ),
  );
  const docForm = new FormData();
  docForm.set('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'insurance.pdf', { type: 'application/pdf' }));
  const uploaded = await ok(api('POST', `/public/bookings/${widgetSale.rentalId}/documents`, { rawBody: docForm }));

  // A paid business audit (the account's integration on, a card on file).
  await ok(patch('/customer', { integrations: { businessAudit: { enabled: true } } }, { key }));
  await ok(post('/customer/payment-method', { paymentMethodId: 'pm_card_visa' }, { key }));
  await ok(post('/ai/business-audit', { websiteUrl: CONTRACT_SITE }, { key }));

  w = {
    op,
    rental,
    tour,
    apiItem,
    mediaPath,
    booking: { rentalId: booked.rentalId, transactionId: booked.transactionId, renterId: booked.renterId },
    tourBooking: { rentalId: tourBooked.rentalId },
    pendingRentalId: payLater.rentalId,
    cancelledRentalId: cancelled.rentalId,
    webhookId: hook.id,
    waiver: { templateId: template.templateId, signatureId: signed.signatureId, pin: waiverNumber.pin },
    waitlistId: joined.entryId,
    partner: { key: pk.key, connectionId: pk.connectionId, bookingId: channelBooking.bookingId, reference },
    ota: { portalToken: ota.portalToken, liveKey: ota.keys.live },
    month: dateAhead(TZ, 3).slice(0, 7),
    signupToken,
    members: { tierId: tier.tierId, membershipId, orgId: org.orgId, affiliateId: affiliate.affiliateId, portalSession },
    widget: { rentalId: widgetSale.rentalId, renterToken: widgetSale.renterToken, documentId: uploaded.documentId, captainShiftDay: 2 },
  };
}, 120_000);

describe('OpenAPI contract: every read answers what the document says', () => {
  it('has a case for every GET operation of the document', () => {
    const gets = [...operations.entries()].filter(([, o]) => o.method === 'get').map(([id]) => id);
    const covered = new Set(CASES.map((c) => c.op));
    expect(gets.filter((id) => !covered.has(id))).toEqual([]);
    expect([...covered].filter((id) => !operations.has(id))).toEqual([]);
  });

  it('documents the fields of every JSON read (no bare `object`)', () => {
    const bare = [...operations.entries()]
      .filter(([, o]) => o.method === 'get')
      .filter(([, o]) => {
        const schema = Object.entries(o.op.responses).find(([code]) => code.startsWith('2'))![1].content?.['application/json']?.schema as
          Record<string, unknown> | undefined;
        return schema && !schema.$ref && !schema.properties && !schema.anyOf && !schema.oneOf && !schema.allOf;
      })
      .map(([id]) => id);
    expect(bare).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.op}${c.label ? ` (${c.label})` : ''}`, async () => {
      await expectContract(c.op, c.path(), (c.caller ?? admin)());
    });
  }

  it('the validator refuses an answer that breaks the documented schema', async () => {
    const r = await get(`/coreBooking/${w.booking.rentalId}`, admin());
    const { validate } = validatorOf('getBooking');
    expect(validate!(r.body)).toBe(true);
    expect(validate!({ ...r.body, status: 'teleported' })).toBe(false);
    const { rentalId: _drop, ...withoutId } = r.body;
    expect(validate!(withoutId)).toBe(false);
  });

  it('documents the nullable asset map pin as anyOf with null, and accepts a null pin', async () => {
    const r = await expectContract('listInventory', `/inventory/customer?${q({ customer_id: w.op.customerId })}`);
    const assets = (r.body.data ?? r.body).flatMap((i: any) => i.assets ?? i.data?.assets ?? []);
    expect(assets.some((a: any) => a.mapPin === null)).toBe(true);
    expect(assets.some((a: any) => a.mapPin && typeof a.mapPin.x === 'number')).toBe(true);
  });
});
