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
import { SELF, env } from 'cloudflare:test';
import { BASE, api, createOperator, eventually, get, patch, post, put, signToken, type Caller, type Operator } from '../harness';
import { at, bookBody, dateAhead, rentalItem, tourItem, type TestItem } from '../modules/bookings/factories';
import { ch, connect, idem, partnerKey, platform, rentalItem as channelItem } from '../modules/channel/factories';
import { createItem, form, mp4Bytes, pngBytes, rentalData } from '../modules/inventory/helpers';
import { day, makeSlip, reserve } from '../modules/marina/helpers';
import { PLATFORM, REDIRECT, approve, bearer, createApp, installAndToken, openAuthorize, raw, registerPartner } from '../modules/partners/helpers';
import { outbound, resolver } from '../../src/adapters/http';
import { localDateTime } from '../../src/modules/octo/slots';
import { wallTimeToUtc } from '../../src/lib/time';
import { integrationCases, integrationsWorld, type IntegrationsWorld } from '../modules/integrations/contract-world';

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
  photoPath: string;
  booking: { rentalId: string; transactionId: string; renterId: string };
  tourBooking: { rentalId: string };
  pendingRentalId: string;
  cancelledRentalId: string;
  /** The cancelled booking's e-mail (an outbox message with an HTML part). */
  messageId: string;
  webhookId: string;
  waiver: { templateId: string; signatureId: string; pin: string };
  waitlistId: string;
  partner: { key: string; connectionId: string; bookingId: string; reference: string };
  /** OCTO: a hold and a confirmed booking of the partner key on the tour. */
  octo: { holdUuid: string; confirmedUuid: string; date: string };
  ota: { portalToken: string; liveKey: string };
  month: string;
  /** An account made by sign-up (it has a subscription). */
  signupToken: string;
  /** Memberships: a tier, a membership (with a family member and credits), an organization, an affiliate, a portal session. */
  members: { tierId: string; membershipId: string; orgId: string; affiliateId: string; portalSession: string };
  /** Marina II: a unit with a reservation (guest pass, document, haul service, readings, a tenant session), a free unit, a waitlist entry, a public booking. */
  marina: {
    slipId: string;
    freeSlipId: string;
    reservationId: string;
    renterId: string;
    waitlistId: string;
    waitlistRenterId: string;
    passId: string;
    accessCode: string;
    documentId: string;
    tenant: string;
    haulId: string;
    photoUrl: string;
    readingId: string;
    publicReservationId: string;
    bookingToken: string;
  };
  /** Coverage: a partner's approved offering (the in-process reference underwriter) enabled here, a quote, a policy. */
  coverage: { partnerToken: string; offeringId: string; quoteId: string; policyId: string; transactionId: string };
  /** The booking widget: a booking placed through its checkout (renter token, participant, document), a captain on shift. */
  widget: { rentalId: string; renterToken: string; documentId: string; captainShiftDay: number };
}
let w: World;
let iw: IntegrationsWorld;

/** What the reads of the marina, communications and counter-sales modules need, built on the same operator. */
interface Merged {
  slips: { pinned: string; unpinned: string };
  mapId: string;
  reservation: { id: string; number: string };
  contracts: { signed: string; pending: string; templateId: string };
  shortCode: string;
  /** An operator message template and an automation using it. */
  messages: { templateId: string; automationId: string };
  carts: { contacted: string; fresh: string };
  promo: { code: string; giftCard: string; affiliateId: string };
  pos: { transactionId: string; rentalId: string };
}
let m: Merged;

/** The partner platform on the same operator: an approved app installed with an access token, authorization requests, geofences, positions, a pool, a call. */
interface PartnerPlatform {
  partnerToken: string;
  appId: string;
  reviewAppId: string;
  accessToken: string;
  installationId: string;
  idp: { request: string; cookie: string };
  callback: { request: string; cookie: string };
  consent: { request: string; cookie: string };
  geofenceId: string;
  polygonId: string;
  poolId: string;
  callId: string;
}
let pf: PartnerPlatform;
/** A sandbox operator on a test clock (the test-clock reads answer sandbox operators only). */
let clocked: Operator;
beforeAll(async () => {
  clocked = await createOperator({ clockAt: '2027-01-14T15:00:00Z' });
});

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

/** The documented success answer of an operation: its 2xx, or its 3xx for a redirect (`GET /s/{code}`). */
const successOf = (op: Operation) => Object.entries(op.responses).find(([code]) => /^[23]/.test(code))!;

/** The validator of an operation's documented success answer (compiled once, refs resolved in the document). */
function validatorOf(operationId: string): { validate: ValidateFunction | null; media: string[]; status: number } {
  const found = operations.get(operationId);
  if (!found) throw new Error(`no operation ${operationId} in /openapi.json`);
  const [status, res] = successOf(found.op);
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

async function expectContract(operationId: string, path: string, caller: Caller = { key: w.op.adminKey }, as?: string) {
  const found = operations.get(operationId);
  expect(found, `operation ${operationId}`).toBeDefined();
  expect(found!.method).toBe('get');
  const { status } = validatorOf(operationId);
  const { validate, media } = validatorOf(as ?? operationId);
  if (as) expect(operations.get(as)?.method, `${as} is a documented read`).toBe('get');
  if (status >= 300 && status < 400) {
    // A redirect is checked without following it: the documented status and a Location.
    const headers: Record<string, string> = { ...(caller.headers ?? {}) };
    if (caller.key) headers['x-api-key'] = caller.key;
    if (caller.token) headers.authorization = `Bearer ${caller.token}`;
    const res = await SELF.fetch(BASE + path, { headers, redirect: 'manual' });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(status);
    expect(res.headers.get('location'), `${operationId} Location`).toMatch(/^https?:\/\//);
    const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    if (type) expect(media, `${operationId} answered ${type}`).toContain(type);
    await res.arrayBuffer();
    return { status: res.status, body: undefined, headers: res.headers, text: '' };
  }
  const r = await api('GET', path, caller);
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
  /** The documented operation whose answer this is (the partner gateway serves the core routes: their schema applies). */
  as?: string;
}

const q = (params: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))).toString();
const admin = () => ({ key: w.op.adminKey });
const anonymous = () => ({});
const partner = () => bearer(pf.partnerToken);
/** The browser of an authorization request: its cookie. */
const browser = (cookie: string) => () => ({ headers: { cookie } });
const octoCaller = () => ch(w.partner.key, { 'octo-capabilities': 'octo/pricing, octo/content' });

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
  { op: 'previewOutboxMessage', path: () => `/outbox/messages/${w.messageId}/preview` },
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
  { op: 'getInventoryPhoto', path: () => w.photoPath, caller: anonymous },
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
  { op: 'getOctoSupplier', path: () => '/octo/v1/supplier', caller: () => octoCaller() },
  { op: 'listOctoCapabilities', path: () => '/octo/v1/capabilities', caller: () => octoCaller() },
  { op: 'listOctoProducts', path: () => '/octo/v1/products', caller: () => octoCaller() },
  { op: 'listOctoProducts', label: 'no capabilities', path: () => '/octo/v1/products', caller: () => ch(w.partner.key) },
  { op: 'getOctoProduct', path: () => `/octo/v1/products/${w.tour.id}`, caller: () => octoCaller() },
  { op: 'listOctoBookings', path: () => `/octo/v1/bookings?${q({ localDate: w.octo.date })}`, caller: () => octoCaller() },
  { op: 'getOctoBooking', label: 'on hold', path: () => `/octo/v1/bookings/${w.octo.holdUuid}`, caller: () => octoCaller() },
  { op: 'getOctoBooking', label: 'confirmed', path: () => `/octo/v1/bookings/${w.octo.confirmedUuid}`, caller: () => octoCaller() },
  { op: 'getOctoSettings', path: () => '/octo/settings' },
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
  { op: 'listBookingStaff', path: () => `/coreBooking/${w.booking.rentalId}/staff` },
  { op: 'listStaffTimeOff', path: () => '/staff/time-off' },
  { op: 'getDailyManifest', path: () => `/manifests/${w.op.locationId}?${q({ date: dateAhead(TZ, 3) })}` },
  { op: 'getBooking', label: 'pending, pay later', path: () => `/coreBooking/${w.pendingRentalId}` },
  { op: 'getBooking', label: 'cancelled and refunded', path: () => `/coreBooking/${w.cancelledRentalId}` },
  { op: 'listDrydocks', path: () => `/drydock?${q({ boatId: w.rental.id })}` },
  { op: 'listWaitlistEntries', path: () => '/waitlist' },
  { op: 'getWaitlistEntry', path: () => `/waitlist/${w.waitlistId}` },
  // Slips, maps, slip subscription and settings
  { op: 'getSlipSubscription', path: () => '/slip-subscription/status' },
  { op: 'listSlips', path: () => `/slips?${q({ locationId: w.op.locationId })}` },
  { op: 'searchSlips', path: () => `/slips/search?${q({ q: 'C-', locationId: w.op.locationId })}` },
  { op: 'getSlip', path: () => `/slips/${m.slips.pinned}` },
  { op: 'getSlip', label: 'on no map', path: () => `/slips/${m.slips.unpinned}` },
  { op: 'listSlipSections', path: () => `/slips/sections?${q({ locationId: w.op.locationId })}` },
  { op: 'countSlipSections', path: () => `/slips/sections/counts?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipStats', path: () => `/slips/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'getMarinaMaps', path: () => `/slips/maps/${w.op.locationId}` },
  { op: 'getMarinaMaps', label: 'one map', path: () => `/slips/maps/${m.mapId}` },
  { op: 'listMarinaMapPins', path: () => `/slips/maps/${m.mapId}/pins` },
  { op: 'listUnassignedSlips', path: () => `/slips/maps/${w.op.locationId}/unassigned` },
  { op: 'getSlipSettings', path: () => `/slip-settings/${w.op.locationId}` },
  { op: 'listSlipSettingsTemplates', path: () => `/slip-settings/${w.op.locationId}/templates` },
  // Slip reservations
  {
    op: 'getSlipAvailability',
    path: () => `/slips/availability?${q({ locationId: w.op.locationId, arrivalDate: day(w.op, 40), departureDate: day(w.op, 43), loaFt: 30 })}`,
  },
  {
    op: 'getSlipAvailability',
    label: 'with refused units',
    path: () => {
      const stay = { arrivalDate: day(w.op, 5), departureDate: day(w.op, 8) };
      return `/slips/availability?${q({ locationId: w.op.locationId, ...stay, loaFt: 30, beamFt: 10, includeRefused: true })}`;
    },
  },
  {
    op: 'checkSlipAvailability',
    path: () => `/slip-reservations/check-availability?${q({ slipId: m.slips.pinned, arrivalDate: day(w.op, 40), departureDate: day(w.op, 43), loaFt: 30 })}`,
  },
  {
    op: 'checkSlipAvailability',
    label: 'taken and too long',
    path: () => `/slip-reservations/check-availability?${q({ slipId: m.slips.pinned, arrivalDate: day(w.op, 5), departureDate: day(w.op, 8), loaFt: 80 })}`,
  },
  { op: 'listSlipReservations', path: () => `/slip-reservations?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipReservationStats', path: () => `/slip-reservations/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'listSlipReservationsDueBilling', path: () => `/slip-reservations/due-billing?${q({ locationId: w.op.locationId })}` },
  { op: 'listExpiringSlipReservations', path: () => `/slip-reservations/expiring?${q({ withinDays: 30 })}` },
  { op: 'getSlipReservationByNumber', path: () => `/slip-reservations/by-number/${m.reservation.number}` },
  { op: 'getSlipReservation', path: () => `/slip-reservations/${m.reservation.id}` },
  { op: 'listSlipReservationMessages', path: () => `/slip-reservations/${m.reservation.id}/messages` },
  { op: 'listSlipReservationPayments', path: () => `/slip-reservations/${m.reservation.id}/payments` },
  // Slip contracts
  { op: 'listSlipContractTemplates', path: () => `/slip-contracts/templates?${q({ locationId: w.op.locationId })}` },
  { op: 'listSlipContractVariables', path: () => '/slip-contracts/templates/variables' },
  { op: 'getSlipContractTemplate', path: () => `/slip-contracts/templates/${m.contracts.templateId}` },
  { op: 'listSlipReservationContracts', path: () => `/slip-contracts/reservation/${m.reservation.id}` },
  { op: 'listPendingSlipContracts', path: () => `/slip-contracts/pending?${q({ locationId: w.op.locationId })}` },
  { op: 'listSignedSlipContracts', path: () => '/slip-contracts/signed' },
  { op: 'getSlipContractStats', path: () => `/slip-contracts/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipContract', path: () => `/slip-contracts/${m.contracts.signed}` },
  { op: 'getSlipContract', label: 'sent, not signed', path: () => `/slip-contracts/${m.contracts.pending}` },
  { op: 'getSlipContractPdf', path: () => `/slip-contracts/${m.contracts.signed}/pdf` },
  // Communications, short links, cart recovery
  { op: 'listDefaultTemplates', path: () => '/communication/templates/defaults' },
  { op: 'getDefaultTemplate', path: () => '/communication/templates/defaults/booking_confirmation' },
  { op: 'listMessageTemplates', path: () => `/communication/templates?${q({ key: 'booking_reminder' })}` },
  { op: 'getMessageTemplate', path: () => `/communication/templates/${m.messages.templateId}` },
  { op: 'listMessageAutomations', path: () => `/communication/automations?${q({ active: true })}` },
  { op: 'getMessageAutomation', path: () => `/communication/automations/${m.messages.automationId}` },
  { op: 'listRentalScheduledCommunications', path: () => `/communication/schedule/rental/${w.booking.rentalId}` },
  { op: 'getShortLink', path: () => `/communication/short-code/${m.shortCode}` },
  { op: 'followShortLink', path: () => `/s/${m.shortCode}`, caller: anonymous },
  { op: 'getCartRecoveryAnalytics', path: () => `/public/cartRecovery/analytics/${w.op.locationId}`, caller: anonymous },
  { op: 'getPublicCartRecovery', path: () => `/public/cartRecovery/${m.carts.fresh}`, caller: anonymous },
  { op: 'listAbandonedCarts', path: () => `/cartRecovery/${w.op.locationId}` },
  { op: 'listCartsNeedingContact', path: () => '/communication/cartRecovery/items-needing-contact' },
  { op: 'listCartRecoveryWithStatistics', path: () => `/communication/cartRecovery/${w.op.locationId}?${q({ includeContacted: true })}` },
  // Promo codes and gift cards
  { op: 'listPromoGiftCards', path: () => `/promoGiftCards?${q({ customerId: w.op.customerId })}` },
  { op: 'searchPromoGiftCards', path: () => `/promoGiftCards/search?${q({ promoCode: m.promo.code })}`, caller: () => PLATFORM },
  { op: 'getGiftCardBalance', path: () => `/promoGiftCards/balance?${q({ promoCode: m.promo.giftCard })}` },
  { op: 'getGiftCardBalance', label: 'promo code', path: () => `/promoGiftCards/balance?${q({ promoCode: m.promo.code, customerId: w.op.customerId })}` },
  { op: 'getAffiliatePromoAnalytics', path: () => `/promoGiftCards/affiliate/${m.promo.affiliateId}?${q({ customerId: w.op.customerId })}` },
  // Point of sale
  { op: 'listPosItems', path: () => `/pos/inventory?${q({ locationId: w.op.locationId })}` },
  { op: 'getPosGasPrice', path: () => `/pos/gas-price?${q({ locationId: w.op.locationId })}` },
  { op: 'listPosFolders', path: () => `/pos/folders?${q({ locationId: w.op.locationId })}` },
  { op: 'listPosTransactions', path: () => `/pos/transaction?${q({ locationId: w.op.locationId })}` },
  { op: 'getPosTransaction', path: () => `/pos/transaction/${m.pos.transactionId}` },
  { op: 'listPosTransactionsOfRental', path: () => `/pos/transactions/rental/${m.pos.rentalId}` },
  // Protection plans
  { op: 'listProtectionPlans', path: () => '/api/v2/protection-plans', caller: anonymous },
  {
    op: 'listProtectionPlans',
    label: 'of a location, inactive too',
    path: () => `/api/v2/protection-plans?${q({ locationId: w.op.locationId, includeInactive: true })}`,
  },
  { op: 'listProtectionBundles', path: () => `/api/v2/protection-bundles?${q({ locationId: w.op.locationId })}`, caller: anonymous },
  { op: 'getProtectionPlan', path: () => '/api/v2/protection-plans/MARINE_DAMAGE_WAIVER', caller: anonymous },
  { op: 'getProtectionBundle', path: () => '/api/v2/protection-bundles/MARINE_COMPLETE', caller: anonymous },
  { op: 'getLocationProtectionSettings', path: () => `/api/v2/locations/${w.op.locationId}/protection-settings` },
  // Partner accounts, apps and their review
  { op: 'getPartnerMe', path: () => '/partners/me', caller: partner },
  { op: 'listPartnerTokens', path: () => '/partners/tokens', caller: partner },
  { op: 'getPartnerSandbox', path: () => '/partners/sandbox', caller: partner },
  { op: 'listPartnerApps', path: () => '/partners/apps', caller: partner },
  { op: 'getPartnerApp', path: () => `/partners/apps/${pf.appId}`, caller: partner },
  { op: 'getPartnerApp', label: 'in review, never approved', path: () => `/partners/apps/${pf.reviewAppId}`, caller: partner },
  { op: 'getPartnerAppManifest', path: () => `/partners/apps/${pf.appId}/manifest`, caller: partner },
  { op: 'listPartnerAppInstallations', path: () => `/partners/apps/${pf.appId}/installations`, caller: partner },
  { op: 'listAppsForReview', path: () => '/platform/apps', caller: () => PLATFORM },
  { op: 'listAppsForReview', label: 'approved', path: () => `/platform/apps?${q({ status: 'approved' })}`, caller: () => PLATFORM },
  { op: 'getAppForReview', path: () => `/platform/apps/${pf.appId}`, caller: () => PLATFORM },
  // OAuth: the consent pages, metadata, keys, the operator's installations, the SDKs
  {
    op: 'authorizeApp',
    path: () => `/oauth/authorize?${q({ response_type: 'code', client_id: pf.appId, redirect_uri: REDIRECT, scope: 'read:locations', state: 's' })}`,
    caller: anonymous,
  },
  { op: 'startIdpSignInForAuthorization', path: () => `/oauth/authorize/login/idp?${q({ request: pf.idp.request })}`, caller: () => browser(pf.idp.cookie)() },
  {
    op: 'idpSignInCallback',
    path: () => `/oauth/authorize/callback?${q({ code: 'idp-code-contract', state: pf.callback.request })}`,
    caller: () => browser(pf.callback.cookie)(),
  },
  { op: 'showAuthorizationConsent', path: () => `/oauth/authorize/consent?${q({ request: pf.consent.request })}`, caller: () => browser(pf.consent.cookie)() },
  { op: 'showDeviceApproval', path: () => `/device?${q({ user_code: 'BCDF-GHJK' })}`, caller: anonymous },
  { op: 'getJwks', path: () => '/.well-known/jwks.json', caller: anonymous },
  { op: 'getAuthorizationServerMetadata', path: () => '/.well-known/oauth-authorization-server', caller: anonymous },
  { op: 'listOAuthScopes', path: () => '/oauth/scopes', caller: anonymous },
  { op: 'listAppInstallations', path: () => '/apps/installations' },
  { op: 'getAppInstallation', path: () => `/apps/installations/${pf.installationId}` },
  { op: 'listAppEmbeds', path: () => `/apps/embeds?${q({ embedLocation: 'asset-tracking' })}` },
  { op: 'getHostSdk', path: () => '/sdk/host.js', caller: anonymous },
  { op: 'getAppSdk', path: () => '/sdk/app.js', caller: anonymous },
  // The partner gateway answers what the core route it serves documents
  { op: 'gatewayGet', path: () => '/api/v1/location', caller: () => bearer(pf.accessToken), as: 'listLocations' },
  {
    op: 'gatewayGet',
    label: 'an alias',
    path: () => `/api/v1/inventory?${q({ customer_id: w.op.customerId })}`,
    caller: () => bearer(pf.accessToken),
    as: 'listInventory',
  },
  { op: 'gatewayGet', label: 'geofences', path: () => `/api/v1/geofences/${pf.geofenceId}`, caller: () => bearer(pf.accessToken), as: 'getGeofence' },
  // Geofences, positions, the live map, asset pools, partner calls
  { op: 'listGeofences', path: () => `/geofences?${q({ locationId: w.op.locationId })}` },
  { op: 'getGeofence', path: () => `/geofences/${pf.geofenceId}` },
  { op: 'getGeofence', label: 'a polygon', path: () => `/geofences/${pf.polygonId}` },
  { op: 'listStaffLocations', path: () => '/staff-locations' },
  { op: 'listAssetPositions', path: () => `/asset-positions?${q({ locationId: w.op.locationId })}` },
  { op: 'getAssetTrackingMap', path: () => `/asset-tracking?${q({ locationId: w.op.locationId })}` },
  { op: 'listAssetPools', path: () => '/asset-pools' },
  { op: 'getAssetPool', path: () => `/asset-pools/${pf.poolId}` },
  { op: 'listPartnerCalls', path: () => '/calls/partner/calls' },
  { op: 'getPartnerCall', path: () => `/calls/partner/calls/${pf.callId}` },
  // Sandbox test clocks (a sandbox operator on its own clock)
  { op: 'listTestClocks', path: () => '/sandbox/test-clocks', caller: () => ({ key: clocked.adminKey }) },
  { op: 'getTestClock', path: () => `/sandbox/test-clocks/${clocked.clockId}`, caller: () => ({ key: clocked.adminKey }) },
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
  { op: 'getMemberPortalPage', path: () => `/member-portal?${q({ customer: w.op.customerId })}`, caller: anonymous },
  { op: 'getSlipPortalPage', path: () => `/slip-portal?${q({ customer: w.op.customerId, location: w.op.locationId })}`, caller: anonymous },
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
  // Financial reports
  { op: 'getSalesJournal', path: () => `/reports/sales-journal?${q({ locationId: w.op.locationId, from: dateAhead(TZ, -1), to: dateAhead(TZ, 5) })}` },
  { op: 'getPayouts', path: () => `/reports/payouts?${q({ locationId: w.op.locationId, from: dateAhead(TZ, -1), to: dateAhead(TZ, 5), groupBy: 'method' })}` },
  { op: 'listBusinessAuditCharges', path: () => '/ai/business-audit/billing' },
  { op: 'proxyPage', path: () => `/ai/proxy-page?${q({ url: CONTRACT_SITE })}` },
  // Marina II: waitlist, guest access, documents, tenant portal, public slips, haul services, meter readings
  { op: 'listSlipWaitlist', path: () => `/slips/waitlist?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipWaitlistStats', path: () => `/slips/waitlist/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'listSlipWaitlistByRenter', path: () => `/slips/waitlist/renter/${w.marina.waitlistRenterId}` },
  { op: 'matchSlipWaitlist', path: () => `/slips/waitlist/match/${w.marina.freeSlipId}` },
  { op: 'getSlipWaitlistEntry', path: () => `/slips/waitlist/${w.marina.waitlistId}` },
  { op: 'listSlipGuestPasses', path: () => `/slips/guest-access?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipGuestPassStats', path: () => `/slips/guest-access/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'verifySlipGuestPass', path: () => `/slips/guest-access/verify/${w.marina.accessCode}` },
  { op: 'getSlipGuestPass', path: () => `/slips/guest-access/${w.marina.passId}` },
  { op: 'listSlipDocuments', path: () => `/slip-documents?${q({ locationId: w.op.locationId })}` },
  { op: 'getSlipDocument', path: () => `/slip-documents/${w.marina.documentId}` },
  { op: 'downloadSlipDocument', path: () => `/slip-documents/${w.marina.documentId}/file` },
  { op: 'getSlipPortalSession', path: () => '/slip-portal/session', caller: () => ({ token: w.marina.tenant }) },
  { op: 'listSlipPortalReservations', path: () => '/slip-portal/reservations', caller: () => ({ token: w.marina.tenant }) },
  { op: 'getSlipPortalReservation', path: () => `/slip-portal/reservations/${w.marina.reservationId}`, caller: () => ({ token: w.marina.tenant }) },
  { op: 'getSlipPortalContract', path: () => `/slip-portal/reservations/${w.marina.reservationId}/contract`, caller: () => ({ token: w.marina.tenant }) },
  { op: 'listSlipPortalDocuments', path: () => `/slip-portal/reservations/${w.marina.reservationId}/documents`, caller: () => ({ token: w.marina.tenant }) },
  { op: 'listSlipPortalMessages', path: () => `/slip-portal/reservations/${w.marina.reservationId}/messages`, caller: () => ({ token: w.marina.tenant }) },
  { op: 'listSlipPortalPaymentMethods', path: () => '/slip-portal/payment-methods', caller: () => ({ token: w.marina.tenant }) },
  {
    op: 'listSlipPortalGuestPasses',
    path: () => `/slip-portal/reservations/${w.marina.reservationId}/guest-access`,
    caller: () => ({ token: w.marina.tenant }),
  },
  {
    op: 'listSlipPortalHaulServices',
    path: () => `/slip-portal/reservations/${w.marina.reservationId}/haul-services`,
    caller: () => ({ token: w.marina.tenant }),
  },
  { op: 'getPublicSlipMaps', path: () => `/public/slips/maps/${w.op.locationId}`, caller: anonymous },
  { op: 'listPublicSlips', path: () => `/public/slips/list/${w.op.locationId}`, caller: anonymous },
  {
    op: 'getPublicSlipReservationDocuments',
    path: () => `/public/slips/reservations/${w.marina.publicReservationId}/documents`,
    caller: () => ({ headers: { 'x-booking-token': w.marina.bookingToken } }),
  },
  { op: 'getPublicSlipLocation', path: () => `/public/slips/location/${w.op.locationId}`, caller: anonymous },
  { op: 'getPublicSlip', path: () => `/public/slips/${w.marina.slipId}`, caller: anonymous },
  {
    op: 'getPublicSlipAvailability',
    path: () => `/public/slips/${w.marina.slipId}/availability?${q({ arrivalDate: dateAhead(TZ, 1), departureDate: dateAhead(TZ, 9), loaFt: 60 })}`,
    caller: anonymous,
  },
  { op: 'listHaulServices', path: () => `/haul-services?${q({ locationId: w.op.locationId })}` },
  { op: 'getHaulServiceStats', path: () => `/haul-services/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'listHaulServicesOnDate', path: () => `/haul-services/scheduled/${dateAhead(TZ, 3)}?${q({ locationId: w.op.locationId })}` },
  { op: 'listHaulServicesOfRenter', path: () => `/haul-services/renter/${w.marina.renterId}` },
  { op: 'listHaulServicesOfReservation', path: () => `/haul-services/reservation/${w.marina.reservationId}` },
  { op: 'getHaulService', path: () => `/haul-services/${w.marina.haulId}` },
  { op: 'getHaulServicePhoto', path: () => w.marina.photoUrl },
  { op: 'listMeterReadings', path: () => `/meter-readings?${q({ locationId: w.op.locationId })}` },
  { op: 'getMeterReadingStats', path: () => `/meter-readings/stats?${q({ locationId: w.op.locationId })}` },
  { op: 'listUnbilledMeterReadings', path: () => `/meter-readings/unbilled?${q({ locationId: w.op.locationId })}` },
  { op: 'getLatestMeterReadings', path: () => `/meter-readings/unit/${w.marina.slipId}/latest` },
  { op: 'getMeterReadingHistory', path: () => `/meter-readings/unit/${w.marina.slipId}/history` },
  { op: 'getMeterReading', path: () => `/meter-readings/${w.marina.readingId}` },
  // Coverage: the partner's offerings and payout account, platform review, the operator's checkout, policies and flags, the renter page
  { op: 'listCoverageOfferings', path: () => '/partners/coverage/offerings', caller: () => ({ token: w.coverage.partnerToken }) },
  { op: 'getCoverageOffering', path: () => `/partners/coverage/offerings/${w.coverage.offeringId}`, caller: () => ({ token: w.coverage.partnerToken }) },
  {
    op: 'getCoverageOfferingStatus',
    path: () => `/partners/coverage/offerings/${w.coverage.offeringId}/status`,
    caller: () => ({ token: w.coverage.partnerToken }),
  },
  { op: 'listCoverageCalls', path: () => `/partners/coverage/offerings/${w.coverage.offeringId}/calls`, caller: () => ({ token: w.coverage.partnerToken }) },
  { op: 'getPayoutAccount', path: () => '/partners/payout-account', caller: () => ({ token: w.coverage.partnerToken }) },
  { op: 'listCoverageOfferingsForReview', path: () => `/platform/coverage/offerings?${q({ status: 'approved' })}`, caller: () => PLATFORM_KEY },
  { op: 'getCoverageOfferingForReview', path: () => `/platform/coverage/offerings/${w.coverage.offeringId}`, caller: () => PLATFORM_KEY },
  { op: 'listAvailableCoverageOfferings', path: () => '/coverage/offerings' },
  { op: 'listCoverageEnablements', path: () => `/coverage/enablements?${q({ locationId: w.op.locationId })}` },
  { op: 'getCoverageQuote', path: () => `/coverage/quotes/${w.coverage.quoteId}` },
  { op: 'getPublicCoverageQuote', path: () => `/public/coverage/quotes/${w.coverage.quoteId}`, caller: anonymous },
  { op: 'listCoveragePolicies', path: () => '/coverage/policies' },
  { op: 'getCoveragePolicy', path: () => `/coverage/policies/${w.coverage.policyId}` },
  { op: 'listCoverageFlags', path: () => '/coverage/flags' },
  { op: 'getPublicCoverage', path: () => `/public/coverage?${q({ TransactionId: w.coverage.transactionId })}`, caller: anonymous },
  ...integrationCases(() => iw),
];

const PLATFORM_KEY = { headers: { 'x-platform-key': 'test-platform-staff-key-000000000000001' } };

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

  iw = await integrationsWorld();
  const op = await createOperator({ timezone: TZ });
  const key = op.adminKey;
  const rental = await rentalItem(op, { assets: 2 });
  const tour = await tourItem(op, { capacity: 10 });

  // Inventory through its own API: an asset map (one pinned asset, one without a pin), a photo (served as variants) and a video.
  const apiItem = await createItem(op, rentalData(op));
  const [a1] = apiItem.data.assets as { assetId: string }[];
  await ok(post(`/inventory/asset-map/${apiItem.inventory_id}`, { pins: [{ assetId: a1.assetId, x: 40, y: 60 }] }, { key }));
  const photo = await ok(api('POST', `/inventory/photo/${apiItem.inventory_id}`, { key, rawBody: form(pngBytes()) }));
  const images: string[] = photo.data?.images ?? photo.images ?? [];
  const photoPath = new URL(images[images.length - 1], 'http://x').pathname;
  const video = await ok(api('POST', `/inventory/video/${apiItem.inventory_id}`, { key, rawBody: form(mp4Bytes(), 'tour.mp4', 'video/mp4') }));
  const mediaPath = new URL(video.url, 'http://x').pathname;
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
  const messageId = (await ok(get(`/outbox/messages?${q({ rentalId: cancelled.rentalId, template: 'booking.cancelled' })}`, { key }))).data[0].id as string;
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

  // OCTO: a hold and a confirmed booking on the tour, sold with the partner key.
  const octoDate = dateAhead(TZ, 12);
  const octoId = (time: string) => localDateTime(wallTimeToUtc(octoDate, time, TZ), TZ);
  const octoBody = (time: string) => ({ productId: tour.id, optionId: 'DEFAULT', availabilityId: octoId(time), unitItems: [{ unitId: 'adult' }] });
  const hold = await ok(post('/octo/v1/bookings', octoBody('10:00'), ch(pk.key)));
  const toConfirm = await ok(post('/octo/v1/bookings', octoBody('14:00'), ch(pk.key)));
  await ok(post(`/octo/v1/bookings/${toConfirm.uuid}/confirm`, { contact: { fullName: 'Olga Octo' }, resellerReference: 'OCTO-1' }, ch(pk.key)));
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

  // Marina II: a subscribed marina with a unit, a reservation and everything hanging off it.
  await ok(post('/slip-subscription/create-checkout', { quota: 10 }, { key }));
  const mSlip = await ok(post('/slips', { locationId: op.locationId, unitNumber: 'CT-1', lengthFt: 40, widthFt: 14, depthFt: 8 }, { key }));
  const freeSlip = await ok(post('/slips', { locationId: op.locationId, unitNumber: 'CT-2', lengthFt: 40, widthFt: 14, depthFt: 8 }, { key }));
  const marinaMap = await ok(post('/slips/maps', { locationId: op.locationId, name: 'Contract docks' }, { key }));
  await ok(put('/slips/maps/batch-pins', { mapId: marinaMap.mapId, pins: [{ slipId: mSlip.id, x: 10, y: 10 }] }, { key }));
  const stay = await ok(
    post(
      '/slip-reservations',
      {
        slipId: mSlip.id,
        rateType: 'nightly',
        arrivalDate: dateAhead(TZ, 0),
        departureDate: dateAhead(TZ, 6),
        boat: { vesselName: 'Contract', loaFt: 30 },
        renter: { firstName: 'Tia', lastName: 'Tenant', email: 'tia.tenant@example.test' },
        status: 'confirmed',
      },
      { key },
    ),
  );
  const wl = await ok(
    post(
      '/slips/waitlist',
      {
        locationId: op.locationId,
        renter: { firstName: 'Wes', lastName: 'Wait', email: 'wes.wait@example.test' },
        boat: { vesselName: 'W', loaFt: 28 },
        rateType: 'monthly',
      },
      { key },
    ),
  );
  const pass = await ok(post('/slips/guest-access', { reservationId: stay.id, guestName: 'Gia Guest' }, { key }));
  await ok(post('/slip-portal/invite', { reservationId: stay.id }, { key }));
  const invite = await ok(get(`/outbox/messages?${q({ template: 'slip_portal.magic_link', to: 'tia.tenant@example.test' })}`, { key }));
  const tenantToken = (await ok(post('/slip-portal/session', { token: /token=(spl_[A-Za-z0-9]+)/.exec(invite.data[0].body)![1] }))).sessionToken as string;
  const pdfForm = new FormData();
  pdfForm.append('file', new File([new TextEncoder().encode('%PDF-1.4\n%%EOF\n')], 'insurance.pdf'));
  const upload = await ok(api('POST', '/slip-portal/upload', { token: tenantToken, rawBody: pdfForm }));
  const document = await ok(post(`/slip-portal/reservations/${stay.id}/documents`, { uploadId: upload.uploadId, type: 'insurance' }, { token: tenantToken }));
  await ok(post(`/slip-portal/reservations/${stay.id}/messages`, { body: 'Hello marina' }, { token: tenantToken }));
  await ok(post('/slip-portal/setup-intent', { paymentMethodId: 'pm_card_visa' }, { token: tenantToken }));
  await ok(post('/slip-contracts/templates', { name: 'Contract', title: 'Agreement', body: 'For {{renter.fullName}}', isDefault: true }, { key }));
  const contract = await ok(post('/slip-contracts/generate', { reservationId: stay.id }, { key }));
  await ok(post('/slip-contracts/send', { contractId: contract.id }, { key }));
  const haul = await ok(post('/haul-services', { reservationId: stay.id, serviceType: 'round_trip', requestedDate: dateAhead(TZ, 3) }, { key }));
  await ok(post(`/haul-services/${haul.id}/schedule`, { scheduledDate: dateAhead(TZ, 3), scheduledTime: '09:00' }, { key }));
  const withPhoto = await ok(api('POST', `/haul-services/${haul.id}/photos`, { key, rawBody: form(pngBytes()) }));
  await ok(
    post('/meter-readings', { slipId: mSlip.id, utility: 'electricity', reading: 1000, readAt: new Date(Date.now() - 2 * 86_400_000).toISOString() }, { key }),
  );
  const reading = await ok(post('/meter-readings', { slipId: mSlip.id, utility: 'electricity', reading: 1042.5 }, { key }));
  const publicBooking = await ok(
    post('/public/slips/book', {
      slipId: freeSlip.id,
      arrivalDate: dateAhead(TZ, 20),
      departureDate: dateAhead(TZ, 22),
      boat: { vesselName: 'Public', loaFt: 30 },
      renter: { firstName: 'Pat', lastName: 'Public', email: 'pat.public@example.test' },
    }),
  );
  // Coverage: a partner with a payout account and an approved offering served by the in-process reference underwriter, enabled at a US location.
  const partnerToken = (await ok(post('/partners/register', { email: `cover-${Date.now()}@partner.test`, password: 'contract partner pw', name: 'Cover' })))
    .token;
  const pt = { token: partnerToken };
  await ok(post('/partners/payout-account', { country: 'US' }, pt));
  const offering = await ok(
    post(
      '/partners/coverage/offerings',
      {
        name: 'Contract Cover',
        supportEmail: 'cover@partner.test',
        baseUrl: 'https://reference-underwriter.berth.invalid',
        supportedCountries: ['US'],
        currencies: ['usd'],
      },
      pt,
    ),
  );
  await ok(post(`/partners/coverage/offerings/${offering.offeringId}/submit`, {}, pt));
  await ok(post(`/platform/coverage/offerings/${offering.offeringId}/approve`, {}, PLATFORM_KEY));
  await ok(api('PATCH', '/location', { key, body: { locationId: op.locationId, details: { country: 'US' } } }));
  await ok(post('/coverage/enablements', { locationId: op.locationId, offeringId: offering.offeringId }, { key }));
  const coverWin = { startTime: at(TZ, 8, '10:00'), endTime: at(TZ, 8, '12:00') };
  const cards = await ok(post('/coverage/quotes', { inventoryId: rental.id, ...coverWin }, { key }));
  const coverQuote = cards.data[0].quoteId as string;
  await ok(post(`/coverage/quotes/${coverQuote}/answers`, { answers: { skipper_dob: '1980-01-01', experience: 'some' } }, { key }));
  const covered = await ok(
    post('/coverage/checkout', { ...bookBody({ inventoryId: rental.id, ...coverWin, quantity: 1 }), coverage: { quoteId: coverQuote } }, { key }),
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
      startTime: at(TZ, 9, '10:00'),
      endTime: at(TZ, 9, '12:00'),
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
    photoPath,
    booking: { rentalId: booked.rentalId, transactionId: booked.transactionId, renterId: booked.renterId },
    tourBooking: { rentalId: tourBooked.rentalId },
    pendingRentalId: payLater.rentalId,
    cancelledRentalId: cancelled.rentalId,
    messageId,
    webhookId: hook.id,
    waiver: { templateId: template.templateId, signatureId: signed.signatureId, pin: waiverNumber.pin },
    waitlistId: joined.entryId,
    partner: { key: pk.key, connectionId: pk.connectionId, bookingId: channelBooking.bookingId, reference },
    ota: { portalToken: ota.portalToken, liveKey: ota.keys.live },
    octo: { holdUuid: hold.uuid, confirmedUuid: toConfirm.uuid, date: octoDate },
    month: dateAhead(TZ, 3).slice(0, 7),
    signupToken,
    members: { tierId: tier.tierId, membershipId, orgId: org.orgId, affiliateId: affiliate.affiliateId, portalSession },
    marina: {
      slipId: mSlip.id,
      freeSlipId: freeSlip.id,
      reservationId: stay.id,
      renterId: stay.renterId,
      waitlistId: wl.id,
      waitlistRenterId: wl.renterId,
      passId: pass.id,
      accessCode: pass.accessCode,
      documentId: document.id,
      tenant: tenantToken,
      haulId: haul.id,
      photoUrl: withPhoto.photos[0].url,
      readingId: reading.id,
      publicReservationId: publicBooking.reservation.id,
      bookingToken: publicBooking.bookingToken,
    },
    widget: { rentalId: widgetSale.rentalId, renterToken: widgetSale.renterToken, documentId: uploaded.documentId, captainShiftDay: 2 },
    coverage: {
      partnerToken,
      offeringId: offering.offeringId,
      quoteId: coverQuote,
      policyId: covered.coverage.policyId,
      transactionId: covered.order.transactionId,
    },
  };
}, 120_000);

/** The marina, communications and counter-sales modules, on the operator of the first setup. */
beforeAll(async () => {
  const { op } = w;
  const key = op.adminKey;
  const loc = op.locationId;

  // Marina: a slip subscription, two slips (one pinned on a map), a confirmed reservation with a message, a note and a
  // payment, a pending one; a default contract template, a signed contract and a sent one.
  // The Marina II setup above may have subscribed the operator already (409 already_exists then).
  await ok(post('/slip-subscription/create-checkout', { quota: 5 }, { key }), [200, 201, 202, 409]);
  const pinned = await makeSlip(op, {
    unitNumber: 'C-1',
    name: 'Sunset',
    section: 'C Dock',
    power: { amps: [30, 50], volts: 240, phase: 'single' },
    water: true,
    rates: { nightlyPerFootCents: 400 },
    amenities: ['wifi'],
    overheadClearanceFt: 30,
  });
  const unpinned = await makeSlip(op, { unitNumber: 'C-2', section: 'C Dock', lengthFt: 30, maxLoaFt: 32 });
  await makeSlip(op, { unitNumber: 'X-1', section: null, unitType: 'mooring', status: 'maintenance' });
  const map = await ok(
    post('/slips/maps', { locationId: loc, name: 'C Dock', imageUrl: 'https://img.example.test/c.png', imageWidth: 800, imageHeight: 600 }, { key }),
  );
  await ok(put(`/slips/${pinned.id}/map-pin`, { mapId: map.mapId, x: 25, y: 40, rotation: 90 }, { key }));
  await ok(put(`/slip-settings/${loc}`, { deposit: { policy: 'percent', percent: 25 }, cancellationPolicy: 'Full refund 14 days ahead.' }, { key }));

  const stay = await ok(reserve(op, pinned.id, { arrivalDate: day(op, 2), departureDate: day(op, 20) }));
  await ok(post(`/slip-reservations/${stay.id}/messages`, { body: 'Welcome aboard!' }, { key }));
  await ok(post(`/slip-reservations/${stay.id}/messages`, { body: 'Needs a longer line', channel: 'note' }, { key }));
  await ok(post(`/slip-reservations/${stay.id}/record-payment`, { amountCents: 10000, method: 'check', reference: 'CHK 1001' }, { key }));
  const later = await ok(
    reserve(op, unpinned.id, { status: 'pending', arrivalDate: day(op, 5), departureDate: day(op, 8), boat: { vesselName: 'Zoë', loaFt: 28 } }),
  );
  const template = await ok(
    post(
      '/slip-contracts/templates',
      {
        name: 'Standard',
        title: 'Slip agreement {{reservation.number}}',
        body: 'Between {{marina.name}} and {{renter.fullName}} for {{vessel.name}}. Insurance {{insurance}}. {{settings.cancellationPolicy}}',
        defaults: { insurance: '$300,000' },
        isDefault: true,
      },
      { key },
    ),
  );
  const signed = await ok(post('/slip-contracts/generate', { reservationId: stay.id }, { key }));
  await ok(post('/slip-contracts/send', { contractId: signed.id }, { key }));
  await ok(post('/slip-contracts/sign', { contractId: signed.id, signerName: 'Søren Ødegård', signature: 'Søren Ødegård', agreed: true }, { key }));
  const pending = await ok(post('/slip-contracts/generate', { reservationId: later.id, templateId: template.id }, { key }));
  await ok(post('/slip-contracts/send', { contractId: pending.id, message: 'Please sign' }, { key }));

  // Communications: scheduled messages of a booking, a short link followed once, two abandoned carts (one contacted,
  // one past its contact time).
  const schedule = (body: Record<string, unknown>) =>
    ok(post('/communication/schedule', { customerId: op.customerId, locationId: loc, recipientEmail: 'guest@example.test', ...body }, { key }));
  await schedule({ templateId: 'booking_reminder', rentalId: w.booking.rentalId, trigger: 'before_start', delayMinutes: 60 });
  await schedule({ templateId: 'booking_cancellation', rentalId: w.booking.rentalId, trigger: 'on_cancel' });
  await schedule({
    templateId: 'booking_confirmation',
    rentalId: w.booking.rentalId,
    trigger: 'after_end',
    delayMinutes: 30,
    conditions: { paidInFull: true },
  });
  const link = await ok(
    post('/communication/generate-short-code', { originalUrl: 'https://book.example.test/cart?id=42', metadata: { campaign: 'spring' } }, { key }),
  );
  await (await SELF.fetch(`${BASE}/s/${link.code}`, { redirect: 'manual' })).arrayBuffer();
  const cart = (n: number) =>
    ok(
      api('POST', '/public/cartRecovery', {
        headers: { 'cf-connecting-ip': `198.51.100.${200 + n}` },
        body: {
          id: crypto.randomUUID(),
          email: `cart-${n}-${crypto.randomUUID().slice(0, 6)}@renter.test`,
          locationId: loc,
          firstName: 'Cara',
          bookingInfo: { inventoryId: w.rental.id, startTime: at(TZ, 9, '10:00'), endTime: at(TZ, 9, '12:00'), quantity: 1 },
          cartData: { step: 'payment' },
        },
      }),
    );
  const contacted = await cart(1);
  const fresh = await cart(2);
  await ok(post(`/communication/cartRecovery/${contacted.id}/contact`, {}, { key }));
  await env.DB.prepare('UPDATE cart_recovery_items SET contact_on = ? WHERE id = ?')
    .bind(new Date(Date.now() - 60_000).toISOString(), fresh.id)
    .run();

  // Promo codes: an affiliate's promo code and a gift card, each used once.
  const affiliateId = w.members.affiliateId;
  const tag = op.customerId.slice(-6).toUpperCase();
  const promo = (body: Record<string, unknown>) => ok(post('/promoGiftCards', { customerId: op.customerId, ExpiryDate: '2099-12-31', ...body }, { key }));
  await promo({ promoCode: `SPRING-${tag}`, Details: { '%Discount': 10 }, usageLimit: 5, affiliateId, inventoryIds: [w.rental.id] });
  await promo({ promoCode: `GIFT-${tag}`, Details: { $Discount: 50, type: 'gift_card' } });
  await ok(post('/promoGiftCards/use', { promoCode: `SPRING-${tag}`, customerId: op.customerId, orderAmount: 100 }, { key }));
  await ok(post('/promoGiftCards/use', { promoCode: `GIFT-${tag}`, customerId: op.customerId, orderAmount: 20 }, { key }));

  // Point of sale: a folder, a product with two variants and till stock, a fuel product, a sale settling part of a booking.
  const folder = await ok(post('/pos/folders', { locationId: loc, name: 'Drinks', color: '#00f' }, { key }));
  const soda = await ok(
    post(
      '/pos/inventory',
      {
        locationId: loc,
        name: 'Soda',
        category: 'Drinks',
        taxRate: 7.5,
        image: 'https://img.example.test/soda.png',
        tags: ['cold'],
        folderIds: [folder.folderId],
        variants: [
          { name: 'Can', price: 1.5, quantity: 24, sku: 'SODA-C' },
          { name: 'Bottle', price: 2.25, quantity: 12 },
        ],
      },
      { key },
    ),
  );
  const can = soda.variants[0].variantId;
  await ok(api('PATCH', '/pos/inventory/till', { key, body: { locationId: loc, itemId: soda.itemId, variantId: can, quantity: 5, tillId: 'till-1' } }));
  await ok(
    post(
      '/pos/inventory',
      {
        locationId: loc,
        name: 'Marine gas',
        category: 'Fuel',
        allowNegativeStock: true,
        variants: [{ name: 'Regular', price: 5.49, quantity: 0, unit: 'gallon' }],
      },
      { key },
    ),
  );
  const balance = await ok(
    post('/pos/inventory', { locationId: loc, name: 'Balance payment', variants: [{ name: 'Default', price: 50, quantity: 100 }] }, { key }),
  );
  const payLater = await ok(
    post(
      '/coreBooking/book',
      bookBody({ inventoryId: w.rental.id, startTime: at(TZ, 8, '10:00'), endTime: at(TZ, 8, '12:00'), quantity: 1, paymentMethodId: null }),
      { key },
    ),
  );
  const sale = await ok(
    post(
      '/pos/transaction',
      {
        locationId: loc,
        userId: op.adminId,
        paymentType: 'cash',
        items: [{ itemId: soda.itemId, variantId: can, quantity: 2 }, { itemId: balance.itemId }],
        discountPercentage: 10,
        rentalId: payLater.rentalId,
        settleBooking: true,
        note: 'Dock store',
      },
      { key },
    ),
  );

  // Protection plans: an override of the location.
  await ok(put(`/api/v2/locations/${loc}/protection-settings/override/MARINE_DAMAGE_WAIVER`, { percentage: 15, maxCap: 100 }, { key }));

  // An item's own reminder and an automation sending it two hours after the end.
  const reminder = await ok(
    post(
      '/communication/templates',
      { key: 'booking_reminder', itemId: w.rental.id, subject: 'See you, {{renter.firstName}}', html: '<p>{{booking.when}}</p>', text: '{{booking.when}}' },
      { key },
    ),
  );
  const automation = await ok(
    post(
      '/communication/automations',
      { trigger: 'hours_after_end', hours: 2, recipient: 'renter', channel: 'email', templateId: reminder.templateId, itemIds: [w.rental.id] },
      { key },
    ),
  );

  m = {
    slips: { pinned: pinned.id, unpinned: unpinned.id },
    mapId: map.mapId,
    reservation: { id: stay.id, number: stay.reservationNumber },
    contracts: { signed: signed.id, pending: pending.id, templateId: template.id },
    shortCode: link.code,
    messages: { templateId: reminder.templateId, automationId: automation.automationId },
    carts: { contacted: contacted.id, fresh: fresh.id },
    promo: { code: `SPRING-${tag}`, giftCard: `GIFT-${tag}`, affiliateId },
    pos: { transactionId: sale.transactionId, rentalId: payLater.rentalId },
  };
}, 120_000);

/** The partner platform: apps, their review and installation, the consent pages, geofences, positions, a pool, a call. */
beforeAll(async () => {
  const { op } = w;
  const key = op.adminKey;

  // The identity provider's token endpoint answers an access token for the operator's admin (the consent sign-in).
  const deliver = outbound.fetch;
  outbound.fetch = async (input: Request | string | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.url === 'https://idp.berth.test/oauth/token')
      return Response.json({ access_token: await signToken({ sub: `test|${op.adminId}` }), token_type: 'Bearer' });
    return deliver(input, init);
  };

  // An approved app installed on the operator (an access token of the gateway), another one waiting for review.
  const dev = await registerPartner('Contract Apps');
  const app = await createApp(dev, {
    embedLocations: ['asset-tracking', 'dashboard'],
    webhooks: { url: 'https://app.example.test/hooks', events: ['booking.*'] },
  });
  await approve(dev, app.appId);
  const token = await installAndToken(op, app, 'read:locations read:inventory read:geofence');
  const waiting = await createApp(dev, { name: 'Dock Cam' });
  await ok(post(`/partners/apps/${waiting.appId}/submit`, {}, bearer(dev.token)));

  // Authorization requests, each in its own browser: one before the identity provider, one back from it, one signed in.
  const request = async () => {
    const r = await openAuthorize({ client_id: app.appId, redirect_uri: REDIRECT, scope: 'read:locations', state: crypto.randomUUID() });
    expect(r.res.status, r.res.text).toBe(200);
    return { request: r.request!, cookie: r.cookie! };
  };
  const idp = await request();
  const callback = await request();
  expect((await raw('GET', `/oauth/authorize/login/idp?${q({ request: callback.request })}`, { headers: { cookie: callback.cookie } })).status).toBe(302);
  const consent = await request();
  const login = await raw('POST', '/oauth/authorize/login', {
    headers: { cookie: consent.cookie },
    form: { request: consent.request, method: 'development', userId: op.adminId },
  });
  expect(login.status, login.text).toBe(303);

  // Geofences (a circle and a polygon), staff and asset positions inside them, a pool, a call.
  const center = { lat: 25.7743, lng: -80.1937 };
  const circle = await ok(post('/geofences', { locationId: op.locationId, name: 'Basin', shape: 'circle', center, radiusMeters: 250 }, { key }));
  const square = [
    { lat: 25.77, lng: -80.2 },
    { lat: 25.77, lng: -80.19 },
    { lat: 25.78, lng: -80.19 },
    { lat: 25.78, lng: -80.2 },
  ];
  const polygon = await ok(
    post('/geofences', { locationId: op.locationId, name: 'Fuel dock', shape: 'polygon', points: square, details: { color: '#f80' } }, { key }),
  );
  await ok(post('/staff-locations', { ...center, userId: op.adminId, locationId: op.locationId, accuracyMeters: 5, heading: 90, speedMps: 1.5 }, { key }));
  await ok(post('/asset-positions', { assetId: w.rental.assetIds[0], ...center, source: 'gps', accuracyMeters: 3 }, { key }));
  const pool = await ok(post('/asset-pools', { locationId: op.locationId, name: 'Pontoons', description: 'Both', assetIds: w.rental.assetIds }, { key }));
  const call = await ok(post('/calls/partner/calls', { locationId: op.locationId, to: '+13055550199', message: 'Your boat is ready' }, { key }));

  pf = {
    partnerToken: dev.token,
    appId: app.appId,
    reviewAppId: waiting.appId,
    accessToken: token.access_token,
    installationId: token.installation_id,
    idp,
    callback,
    consent,
    geofenceId: circle.geofenceId,
    polygonId: polygon.geofenceId,
    poolId: pool.poolId,
    callId: call.callId,
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
        const schema = successOf(o.op)[1].content?.['application/json']?.schema as Record<string, unknown> | undefined;
        // A top-level array (OCTO answers lists as bare arrays) is documented by its items.
        const items = schema?.type === 'array' ? (schema.items as Record<string, unknown> | undefined) : undefined;
        if (items) return !items.$ref && !items.properties;
        return schema && !schema.$ref && !schema.properties && !schema.anyOf && !schema.oneOf && !schema.allOf;
      })
      .map(([id]) => id);
    expect(bare).toEqual([]);
  });

  for (const c of CASES) {
    it(`${c.op}${c.label ? ` (${c.label})` : ''}`, async () => {
      await expectContract(c.op, c.path(), (c.caller ?? admin)(), c.as);
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
