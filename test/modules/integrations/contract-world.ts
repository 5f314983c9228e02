/**
 * What the OpenAPI contract test needs to call every read of the Integrations family: one
 * operator with each integration connected (offline simulators), and the cases themselves.
 */
import { SELF, env } from 'cloudflare:test';
import { expect } from 'vitest';
import { BASE, createOperator, get, post, put, type Caller, type Operator } from '../../harness';
import { at, book, bookBody, rentalItem, tourItem } from '../bookings/factories';
import { twilioAuthToken, twilioSignature } from '../../../src/adapters/telephony-signature';

export interface IntegrationsWorld {
  op: Operator;
  boatId: string;
  calendarCallback: string;
  feedPath: string;
  acctCallback: string;
  externalBookingId: string;
}

const ok = async (p: Promise<{ status: number; text: string; body: any }>) => {
  const r = await p;
  expect([200, 201], r.text).toContain(r.status);
  return r.body;
};
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function signedPost(path: string, params: Record<string, string>) {
  const sig = await twilioSignature(twilioAuthToken(env)!, BASE + path, params);
  const res = await SELF.fetch(BASE + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sig },
    body: new URLSearchParams(params),
  });
  expect(res.status).toBe(200);
}

export async function integrationsWorld(): Promise<IntegrationsWorld> {
  const op = await createOperator();
  const key = op.adminKey;
  const boat = await rentalItem(op, { assets: 2 });
  await tourItem(op, { capacity: 6 });
  const b = await book(op, bookBody({ inventoryId: boat.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') }));
  expect(b.status, b.text).toBe(201);

  // Calendar: the admin connected (full round trip); a staff member's consent still to come back.
  const c1 = await ok(get(`/integrations/calendar/connect?userId=${op.adminId}&customerId=${op.customerId}`, { key }));
  expect((await SELF.fetch(BASE + pathOf(c1.authorizationUrl))).status).toBe(200);
  await ok(post('/integrations/calendar/sync', {}, { key }));
  const staff = await op.addUser({ role: 'staff' });
  const c2 = await ok(get(`/integrations/calendar/connect?userId=${staff.userId}&customerId=${op.customerId}`, { key }));
  const feed = await ok(post('/integrations/calendar/feeds', { userId: op.adminId }, { key }));

  // Marketplace, fleet software.
  await ok(
    post('/ota/admin/configure', { customerId: op.customerId, supplierId: 'SUP-C', apiKey: `contract-${crypto.randomUUID()}`, currency: 'usd' }, { key }),
  );
  await ok(
    post(
      '/fleetsys/connect',
      { customerId: op.customerId, clientId: `c-${op.customerId.slice(-6)}`, clientSecret: 'secret-000000', tokenUrl: 'https://fleet.example.test/token' },
      { key },
    ),
  );
  await ok(put('/fleetsys/product-mappings', { customerId: op.customerId, mappings: [{ inventoryId: boat.id, productId: 'fsp_pontoon' }] }, { key }));
  await ok(post('/fleetsys/sync-booking', { rentalId: b.body.rentalId, customerId: op.customerId, locationId: op.locationId }, { key }));

  // Accounting: connected with a business; a second consent still to come back.
  const a1 = await ok(get(`/auth/acct/connect?businessId=${op.customerId}`, { key }));
  expect((await SELF.fetch(BASE + pathOf(a1.authorizationUrl), { redirect: 'manual' })).status).toBe(302);
  await ok(put('/acct/select-business', { businessId: op.customerId, acctBusinessId: 'simbiz_main', acctBusinessName: 'Marina Books' }, { key }));
  await ok(put('/acct/bank-account', { businessId: op.customerId, bankAccountId: 'simacct_checking' }, { key }));
  await ok(put('/acct/gl-mappings', { businessId: op.customerId, glMappings: { sales: 'simacct_sales', accounts_receivable: 'simacct_ar' } }, { key }));
  const a2 = await ok(get(`/auth/acct/connect?businessId=${op.customerId}`, { key }));

  // Voice: a voicemail. GPS: a home geofence, a tracker, an exit alert.
  const number = `+1786${String(Date.now()).slice(-7)}`;
  await env.DB.prepare('UPDATE locations SET phone_number = ? WHERE id = ?').bind(number, op.locationId).run();
  await signedPost('/communication/voice/incoming-call', { CallSid: 'CA_contract', From: '+14155550100', To: number });
  await signedPost(`/communication/voice/handle-recording?locationId=${op.locationId}`, {
    CallSid: 'CA_contract',
    RecordingSid: 'RE_contract',
    RecordingUrl: 'https://recordings.example/RE_contract',
    RecordingDuration: '9',
  });
  const home = { lat: 25.7743, lng: -80.1937 };
  const basin = await ok(post('/geofences', { locationId: op.locationId, name: 'Basin', shape: 'circle', center: home, radiusMeters: 150 }, { key }));
  await ok(put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: basin.geofenceId }, { key }));
  const device = await ok(post('/integrations/gps/devices', { locationId: op.locationId, deviceName: 'contract-tracker', assetId: boat.assetIds[0] }, { key }));
  const t = Date.now() - 60_000;
  const fixes = [home, { lat: 25.7843, lng: -80.1937 }, { lat: 25.7853, lng: -80.1937 }].map((p, i) => ({
    ...p,
    accuracy: 8,
    recordedAt: new Date(t + i * 5000).toISOString(),
  }));
  await ok(post('/integrations/gps/ingest', { fixes }, { headers: { authorization: `Bearer ${device.deviceKey}` } }));

  return {
    op,
    boatId: boat.id,
    calendarCallback: pathOf(c2.authorizationUrl),
    feedPath: new URL(feed.url).pathname,
    acctCallback: pathOf(a2.authorizationUrl),
    externalBookingId: `${b.body.rentalId}:${b.body.assetIds[0]}`,
  };
}

interface Case {
  op: string;
  label?: string;
  path: () => string;
  caller?: () => Caller;
}

/** The contract cases of the Integrations family's reads. */
export function integrationCases(w: () => IntegrationsWorld): Case[] {
  const admin = () => ({ key: w().op.adminKey });
  const anonymous = () => ({});
  const c = () => w().op.customerId;
  return [
    { op: 'connectCalendar', path: () => `/integrations/calendar/connect?userId=${w().op.adminId}&customerId=${c()}`, caller: admin },
    { op: 'completeCalendarConnection', path: () => w().calendarCallback, caller: anonymous },
    { op: 'getCalendarStatus', path: () => `/integrations/calendar/status?userId=${w().op.adminId}`, caller: admin },
    { op: 'listCalendars', path: () => `/integrations/calendar/calendars?userId=${w().op.adminId}`, caller: admin },
    { op: 'listCalendarFeeds', path: () => '/integrations/calendar/feeds', caller: admin },
    { op: 'getCalendarFeed', path: () => w().feedPath, caller: anonymous },
    { op: 'getInventoryStructuredData', path: () => `/schema/inventory/${w().boatId}?baseUrl=https://rentals.example`, caller: anonymous },
    { op: 'getLocationStructuredData', path: () => `/schema/location/${w().op.locationId}`, caller: anonymous },
    { op: 'listOperatorStructuredData', path: () => `/schema/all/${c()}`, caller: anonymous },
    { op: 'getMarketplaceConfiguration', path: () => '/ota/admin/configuration', caller: admin },
    { op: 'getFleetStatus', path: () => `/fleetsys/status?customerId=${c()}`, caller: admin },
    { op: 'listFleetInventoryTypes', path: () => `/fleetsys/inventory-types?customerId=${c()}`, caller: admin },
    { op: 'listFleetProducts', path: () => `/fleetsys/products?customerId=${c()}`, caller: admin },
    {
      op: 'findFleetReservations',
      path: () => `/fleetsys/reservations?customerId=${c()}&externalBookingId=${encodeURIComponent(w().externalBookingId)}`,
      caller: admin,
    },
    { op: 'getFleetProductMappings', path: () => `/fleetsys/product-mappings?customerId=${c()}`, caller: admin },
    { op: 'connectAccounting', path: () => `/auth/acct/connect?businessId=${c()}`, caller: admin },
    { op: 'completeAccountingConnection', path: () => w().acctCallback, caller: anonymous },
    { op: 'getAccountingStatus', path: () => `/acct/integration-status?businessId=${c()}`, caller: admin },
    { op: 'listAccountingAccounts', path: () => `/acct/chart-of-accounts?businessId=${c()}`, caller: admin },
    { op: 'listAccountingBusinesses', path: () => `/acct/businesses?businessId=${c()}`, caller: admin },
    { op: 'getAccountingGlMappings', path: () => `/acct/gl-mappings?businessId=${c()}`, caller: admin },
    { op: 'listAccountingExports', path: () => `/acct/journal-exports?businessId=${c()}`, caller: admin },
    { op: 'listVoicemails', path: () => '/communication/voice/voicemails', caller: admin },
    { op: 'listGpsAlerts', path: () => '/integrations/alerts?minutes=60', caller: admin },
    { op: 'listGpsDeviceAlerts', path: () => '/integrations/device-alerts/contract-tracker', caller: admin },
    { op: 'getGpsAlertSummary', path: () => '/integrations/alert-summary?hours=24', caller: admin },
    { op: 'listGpsDevices', path: () => '/integrations/gps/devices', caller: admin },
    { op: 'listGpsHomeAreas', path: () => '/integrations/gps/home-areas', caller: admin },
    { op: 'getGpsSettings', path: () => '/integrations/gps/settings', caller: admin },
  ];
}
