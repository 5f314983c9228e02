import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Protection plans'];
const SETTINGS = `\`locationId\` must be a location of the caller (404 otherwise). Changes need the \`settings\` permission (admins and managers have it) and answer the location's settings.`;

export const listPlans = route({
  method: 'get',
  path: '/api/v2/protection-plans',
  operationId: 'listProtectionPlans',
  tags,
  summary: "The industry's protection plans (as a location offers them)",
  access: 'public',
  query: s.CatalogQuery,
  ok: s.PlanList,
  errors: [403],
  description: `Public. \`industry\` defaults to \`marine\`. With \`locationId\` each plan shows whether that location offers it (\`enabled\`) and its price with the location's override (\`percentage\`, \`maxCap\`); a location without settings offers every active plan. \`includeInactive\` adds retired plans and needs admin credentials (403 otherwise). Money in dollars.`,
});

export const listBundles = route({
  method: 'get',
  path: '/api/v2/protection-bundles',
  operationId: 'listProtectionBundles',
  tags,
  summary: "The industry's plan bundles",
  access: 'public',
  query: s.BundleQuery,
  ok: s.BundleList,
  description: 'Public. `industry` defaults to `marine`; with `locationId`, `enabled` tells whether the location offers the bundle.',
});

export const getPlan = route({
  method: 'get',
  path: '/api/v2/protection-plans/{planCode}',
  operationId: 'getProtectionPlan',
  tags,
  summary: 'One protection plan',
  access: 'public',
  params: s.PlanParams,
  ok: s.Plan,
  errors: [404],
  description: 'Public. An unknown plan answers 404 (a retired one too, unless the caller is an admin).',
});

export const getBundle = route({
  method: 'get',
  path: '/api/v2/protection-bundles/{bundleCode}',
  operationId: 'getProtectionBundle',
  tags,
  summary: 'One bundle with its plans',
  access: 'public',
  params: s.BundleParams,
  ok: s.Bundle,
  errors: [404],
  description: 'Public. Includes the full plans of the bundle. Unknown bundle: 404.',
});

export const getSettings = route({
  method: 'get',
  path: '/api/v2/locations/{locationId}/protection-settings',
  operationId: 'getLocationProtectionSettings',
  tags,
  summary: "A location's protection settings (or its defaults)",
  params: s.LocationParams,
  ok: s.Settings,
  errors: [404],
  description: `A location that never saved settings answers **200 with its defaults** (every active plan and bundle of \`marine\` enabled, no overrides) and \`isDefault: true\`, rather than the spec's 404-with-defaults, so clients read one shape; 404 is kept for a location that is unknown or another operator's.`,
});

export const putSettings = route({
  method: 'put',
  path: '/api/v2/locations/{locationId}/protection-settings',
  operationId: 'putLocationProtectionSettings',
  tags,
  summary: "Set a location's industry, enabled plans and bundles, and overrides",
  params: s.LocationParams,
  body: s.SettingsBody,
  ok: s.Settings,
  errors: [403, 404],
  description: `Each field given replaces the stored one (a new \`industry\` starts from that industry's defaults for the fields not given). Codes must exist in the industry's catalog (400 otherwise); \`planOverrides\` maps plan codes to \`{percentage (0-100), maxCap (dollars)}\`. ${SETTINGS}`,
});

const TOGGLE = `Unknown code (or one of another industry) answers 404; enabling a retired one 400. Enabling an enabled one or disabling a disabled one changes nothing (200). ${SETTINGS}`;

export const enablePlan = route({
  method: 'post',
  path: '/api/v2/locations/{locationId}/protection-settings/plan/{planCode}',
  operationId: 'enableLocationProtectionPlan',
  tags,
  summary: 'Offer a plan at the location',
  params: s.LocationPlanParams,
  ok: s.Settings,
  errors: [403, 404],
  description: TOGGLE,
});

export const disablePlan = route({
  method: 'delete',
  path: '/api/v2/locations/{locationId}/protection-settings/plan/{planCode}',
  operationId: 'disableLocationProtectionPlan',
  tags,
  summary: 'Stop offering a plan at the location',
  params: s.LocationPlanParams,
  ok: s.Settings,
  errors: [403, 404],
  description: TOGGLE,
});

export const enableBundle = route({
  method: 'post',
  path: '/api/v2/locations/{locationId}/protection-settings/bundle/{bundleCode}',
  operationId: 'enableLocationProtectionBundle',
  tags,
  summary: 'Offer a bundle at the location',
  params: s.LocationBundleParams,
  ok: s.Settings,
  errors: [403, 404],
  description: `200 with the settings. ${TOGGLE}`,
});

export const disableBundle = route({
  method: 'delete',
  path: '/api/v2/locations/{locationId}/protection-settings/bundle/{bundleCode}',
  operationId: 'disableLocationProtectionBundle',
  tags,
  summary: 'Stop offering a bundle at the location',
  params: s.LocationBundleParams,
  ok: s.Settings,
  errors: [403, 404],
  description: `200 with the settings. ${TOGGLE}`,
});

export const setOverride = route({
  method: 'put',
  path: '/api/v2/locations/{locationId}/protection-settings/override/{planCode}',
  operationId: 'setLocationProtectionOverride',
  tags,
  summary: "Override a plan's percentage and cap at the location",
  params: s.LocationPlanParams,
  body: s.OverrideBody,
  ok: s.Settings,
  errors: [403, 404],
  description: `200 with the settings. \`percentage\` 0-100 and \`maxCap\` in dollars (at least one; 400 otherwise). The plan's minimum stays. Unknown plan: 404. ${SETTINGS}`,
});

export const removeOverride = route({
  method: 'delete',
  path: '/api/v2/locations/{locationId}/protection-settings/override/{planCode}',
  operationId: 'removeLocationProtectionOverride',
  tags,
  summary: "Remove a plan's override at the location",
  params: s.LocationPlanParams,
  ok: s.Settings,
  errors: [403, 404],
  description: `200 with the settings (also when there was no override: nothing changes). Unknown plan: 404. ${SETTINGS}`,
});

export const purchase = route({
  method: 'post',
  path: '/public/bookings/{rentalId}/protection-plans',
  operationId: 'buyBookingProtectionPlan',
  tags,
  summary: "Buy a protection plan for a booking (charges the booking's stored card)",
  access: 'public',
  params: s.PurchaseParams,
  body: s.PurchaseBody,
  ok: s.PurchaseOut,
  errors: [402, 404],
  idempotent: true,
  description: `Public (renter-facing). The premium is computed on the server: the plan's percentage (or the location's override) of the booking total before protection, capped by \`maxCap\`, floored by the plan minimum; \`calculatedCost\` (dollars) must match it within a cent (400 \`price_mismatch\` with the server's figures). The plan must be offered at the booking's location (400 \`plan_not_offered\`); a cancelled or finished booking answers 400. The booking's stored payment method (the renter's default card, else the card that paid the booking) is charged through the payments service (400 \`no_payment_method\` when there is none, 402 when declined), and the premium is added to the booking's total and amount paid and to the ledger with \`payment.completed\`, in one batch. Buying the same plan for the same booking again answers the first purchase with \`charged: false\` (never a second charge). Unknown booking: 404.`,
});
