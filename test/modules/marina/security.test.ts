/** The shared security checks on every marina route (no credentials, bad credentials, another operator, missing permission). */
import { describe, it, beforeAll } from 'vitest';
import { post } from '../../harness';
import { checkSecurity, type RouteCase } from '../../security';
import { day, makeSlip, marinaOperator, reserve } from './helpers';
import type { Operator } from '../../harness';

let op: Operator;
let slipId: string;
let otherSlipId: string;
let mapId: string;
let resId: string;
let resNumber: string;
let templateId: string;
let contractId: string;

beforeAll(async () => {
  op = await marinaOperator();
  slipId = (await makeSlip(op)).id;
  otherSlipId = (await makeSlip(op)).id;
  mapId = (await post('/slips/maps', { locationId: op.locationId, name: 'M' }, { key: op.adminKey })).body.mapId;
  const r = await reserve(op, slipId);
  resId = r.body.id;
  resNumber = r.body.reservationNumber;
  templateId = (await post('/slip-contracts/templates', { name: 'T', title: 'T', body: 'Hi {{renter.fullName}}', isDefault: true }, { key: op.adminKey })).body
    .id;
  contractId = (await post('/slip-contracts/generate', { reservationId: resId }, { key: op.adminKey })).body.id;
});

const check = async (cases: RouteCase[]) => {
  for (const c of cases) await checkSecurity(op, c);
};

describe('marina routes refuse the wrong callers', () => {
  it('slips and settings', async () => {
    const L = op.locationId;
    await check([
      { method: 'GET', path: `/slips?locationId=${L}`, otherStatus: 404 },
      { method: 'POST', path: '/slips', body: { locationId: L, unitNumber: 'SEC-1' }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slips/availability?locationId=${L}&arrivalDate=${day(op, 1)}&departureDate=${day(op, 2)}`, otherStatus: 404 },
      { method: 'GET', path: `/slips/sections?locationId=${L}`, otherStatus: 404 },
      { method: 'GET', path: `/slips/stats?locationId=${L}`, otherStatus: 404 },
      { method: 'GET', path: `/slips/search?q=T&locationId=${L}`, otherStatus: 404 },
      { method: 'POST', path: '/slips/bulk-create', body: { locationId: L, prefix: 'S', start: 1, end: 2 }, otherStatus: 404, adminOnly: true },
      { method: 'PUT', path: '/slips/bulk', body: { slipIds: [slipId], changes: { depthFt: 9 } }, otherStatus: 404, adminOnly: true },
      { method: 'PUT', path: '/slips/sections/rename', body: { locationId: L, from: 'A', to: 'B' }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slips/sections/counts?locationId=${L}`, otherStatus: 404 },
      { method: 'DELETE', path: `/slips/sections/A?locationId=${L}`, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slips/${slipId}`, otherStatus: 404 },
      { method: 'PUT', path: `/slips/${slipId}`, body: { name: 'x' }, otherStatus: 404, adminOnly: true },
      { method: 'DELETE', path: `/slips/${slipId}`, otherStatus: 404, adminOnly: true },
      { method: 'PATCH', path: `/slips/${slipId}/status`, body: { status: 'maintenance' }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slip-settings/${L}`, otherStatus: 404 },
      { method: 'PUT', path: `/slip-settings/${L}`, body: { billHoldHours: 5 }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slip-settings/${L}/templates`, otherStatus: 404 },
      { method: 'POST', path: `/slip-settings/${L}/reset`, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: '/slip-subscription/status' },
      { method: 'POST', path: '/slip-subscription/create-checkout', body: { quota: 5 }, adminOnly: true },
      { method: 'POST', path: '/slip-subscription/add-slips', body: { count: 1 }, adminOnly: true },
      { method: 'POST', path: '/slip-subscription/portal', body: {}, adminOnly: true },
      { method: 'POST', path: '/slip-subscription/cancel', adminOnly: true },
    ]);
  });

  it('marina maps', async () => {
    const L = op.locationId;
    await check([
      { method: 'GET', path: `/slips/maps/${L}`, otherStatus: 404 },
      { method: 'POST', path: '/slips/maps', body: { locationId: L, name: 'N' }, otherStatus: 404, adminOnly: true },
      { method: 'PUT', path: '/slips/maps/reorder', body: { locationId: L, mapIds: [mapId] }, otherStatus: 404, adminOnly: true },
      { method: 'PUT', path: '/slips/maps/batch-pins', body: { mapId, pins: [{ slipId, x: 1, y: 1 }] }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slips/maps/${mapId}`, otherStatus: 404 },
      { method: 'PUT', path: `/slips/maps/${mapId}`, body: { name: 'x' }, otherStatus: 404, adminOnly: true },
      { method: 'DELETE', path: `/slips/maps/${mapId}`, otherStatus: 404, adminOnly: true },
      { method: 'PATCH', path: `/slips/maps/${mapId}/toggle-active`, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slips/maps/${mapId}/pins`, otherStatus: 404 },
      { method: 'GET', path: `/slips/maps/${L}/unassigned`, otherStatus: 404 },
      { method: 'PUT', path: `/slips/${slipId}/map-pin`, body: { mapId, x: 1, y: 2 }, otherStatus: 404, adminOnly: true },
      { method: 'PATCH', path: `/slips/${slipId}/map-pin`, body: { x: 1, y: 2 }, otherStatus: 404, adminOnly: true },
      { method: 'DELETE', path: `/slips/${slipId}/map-pin`, otherStatus: 404, adminOnly: true },
    ]);
  });

  it('slip reservations', async () => {
    const R = `/slip-reservations/${resId}`;
    await check([
      { method: 'GET', path: `/slip-reservations?locationId=${op.locationId}`, otherStatus: 404 },
      {
        method: 'POST',
        path: '/slip-reservations',
        body: {
          slipId: otherSlipId,
          rateType: 'nightly',
          arrivalDate: day(op, 40),
          departureDate: day(op, 41),
          boat: { vesselName: 'B', loaFt: 20 },
          renterId: 'rnt_x',
        },
        otherStatus: 404,
        adminOnly: true,
      },
      { method: 'GET', path: `/slip-reservations/stats?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-reservations/due-billing?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-reservations/expiring?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-reservations/check-availability?slipId=${slipId}&arrivalDate=${day(op, 1)}&departureDate=${day(op, 2)}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-reservations/by-number/${resNumber}`, otherStatus: 404 },
      { method: 'GET', path: R, otherStatus: 404 },
      { method: 'PUT', path: R, body: { notes: 'x' }, otherStatus: 404, adminOnly: true },
      { method: 'DELETE', path: R, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/recalculate-total`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/confirm`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/send-bill`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/check-in`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/check-out`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/cancel`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/transfer`, body: { slipId: otherSlipId }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/contract-signed`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/messages`, body: { body: 'hi' }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `${R}/messages`, otherStatus: 404 },
      { method: 'POST', path: `${R}/record-payment`, body: { amountCents: 100, method: 'cash' }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `${R}/payments`, otherStatus: 404 },
      { method: 'POST', path: `${R}/charge-card`, body: { amountCents: 100, paymentMethodId: 'pm_card_visa' }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/terminal-charge`, body: { amountCents: 100, readerId: 'tmr_simulated' }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/recognize-revenue`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `${R}/refund`, body: {}, otherStatus: 404, adminOnly: true },
    ]);
  });

  it('slip contracts', async () => {
    await check([
      { method: 'GET', path: `/slip-contracts/templates?locationId=${op.locationId}`, otherStatus: 404 },
      {
        method: 'POST',
        path: '/slip-contracts/templates',
        body: { name: 'n', title: 't', body: 'b', locationId: op.locationId },
        otherStatus: 404,
        adminOnly: true,
      },
      { method: 'GET', path: '/slip-contracts/templates/variables' },
      { method: 'GET', path: `/slip-contracts/templates/${templateId}`, otherStatus: 404 },
      { method: 'PUT', path: `/slip-contracts/templates/${templateId}`, body: { name: 'x' }, otherStatus: 404, adminOnly: true },
      { method: 'DELETE', path: `/slip-contracts/templates/${templateId}`, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: `/slip-contracts/templates/${templateId}/duplicate`, body: {}, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slip-contracts/reservation/${resId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-contracts/pending?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-contracts/signed?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-contracts/stats?locationId=${op.locationId}`, otherStatus: 404 },
      { method: 'POST', path: '/slip-contracts/generate', body: { reservationId: resId }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: '/slip-contracts/send', body: { contractId }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: '/slip-contracts/sign', body: { contractId, signerName: 'x', signature: 'x', agreed: true }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: '/slip-contracts/resend', body: { contractId }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: '/slip-contracts/void', body: { contractId, reason: 'r' }, otherStatus: 404, adminOnly: true },
      { method: 'POST', path: '/slip-contracts/regenerate-pdf', body: { contractId }, otherStatus: 404, adminOnly: true },
      { method: 'GET', path: `/slip-contracts/${contractId}`, otherStatus: 404 },
      { method: 'GET', path: `/slip-contracts/${contractId}/pdf`, otherStatus: 404 },
    ]);
  });
});
