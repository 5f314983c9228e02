import { z } from '@hono/zod-openapi';
import { ApiError, type ErrorDetail } from '../../lib/errors';
import { publicBookingErrors } from './errors';

/**
 * What a renter may change on their booking through PATCH /public/booking: contact details and
 * their own notes and preferences. Everything else (status, prices, totals, payments, owner,
 * ids, items, assets, times, names and the e-mail the cancellation code is sent to) is refused.
 */
const text = (max: number) => z.string().trim().max(max).nullable();
const phone = z
  .string()
  .trim()
  .min(5)
  .max(32)
  .regex(/^\+?[0-9 ().-]+$/, 'must be a phone number')
  .nullable();
const prefKey = /^(?!(?:__proto__|constructor|prototype)$)[A-Za-z0-9_-]{1,50}$/;

interface Rule {
  path: RegExp;
  doc: string;
  value: z.ZodType;
}

const RULES: Rule[] = [
  { path: /^customerInfo\.phone$/, doc: 'customerInfo.phone', value: phone },
  {
    path: /^customerInfo\.address$/,
    doc: 'customerInfo.address',
    value: z.union([
      z.string().trim().max(500),
      z.record(z.string().regex(prefKey), z.string().max(200)).refine((o) => Object.keys(o).length <= 10, 'at most 10 fields'),
      z.null(),
    ]),
  },
  {
    path: /^customerInfo\.address\.(line1|line2|street|city|state|postalCode|zip|country)$/,
    doc: 'customerInfo.address.{line1,line2,street,city,state,postalCode,zip,country}',
    value: text(200),
  },
  { path: /^customerInfo\.emergencyContact\.(name|relationship)$/, doc: 'customerInfo.emergencyContact.{name,relationship}', value: text(200) },
  { path: /^customerInfo\.emergencyContact\.phone$/, doc: 'customerInfo.emergencyContact.phone', value: phone },
  { path: /^customerInfo\.preferredLanguage$/, doc: 'customerInfo.preferredLanguage', value: text(20) },
  { path: /^customerInfo\.marketingOptIn$/, doc: 'customerInfo.marketingOptIn', value: z.boolean() },
  { path: /^extendedData\.(notes|specialRequests)$/, doc: 'extendedData.{notes,specialRequests}', value: text(2000) },
  { path: /^extendedData\.arrivalTime$/, doc: 'extendedData.arrivalTime', value: text(50) },
  { path: /^extendedData\.(dietaryRestrictions|accessibilityNeeds)$/, doc: 'extendedData.{dietaryRestrictions,accessibilityNeeds}', value: text(500) },
  {
    path: /^extendedData\.preferences\.[A-Za-z0-9_-]{1,50}$/,
    doc: 'extendedData.preferences.<key>',
    value: z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]),
  },
];

/** The allow-list as documented (and answered by GET /public/booking as `editablePaths`). */
export const EDITABLE_PATHS = RULES.map((r) => r.doc);

/** Booking fields that can never change through the public endpoint (named in the 400). */
const PROTECTED =
  /^(status|Status|pricing|rentalPricing|subtotal|discountTotal|taxTotal|tipTotal|feeTotal|total|amountPaid|paymentPlan|paymentIntentId|paymentMethodId|depositInformation|customerId|CustomerInfo|owner|locationId|itemId|inventoryId|renterId|id|rentalId|transactionId|bundleGroupId|assetIds|assetId|start|end|startTime|endTime|localDate|quantity|participants|addons|promoCode|discountDetails|source|version|channel\w*|commissionRate|testMode|checkedInAt|checkedOutAt|cancelledAt|createdAt|updatedAt|rentalDetails)$/;

export interface PathChange {
  path: string;
  root: 'customerInfo' | 'extendedData';
  segments: string[];
  value: unknown;
}

function refusal(path: string): ErrorDetail {
  const root = path.split('.')[0];
  const why = PROTECTED.test(root)
    ? `${root} can never be changed through the public booking endpoint`
    : root === 'customerInfo' || root === 'extendedData'
      ? `${path} is not renter-editable`
      : `${path} is not a renter-editable field`;
  return { field: path, location: 'body', code: 'forbidden_path', message: why };
}

/** Validates every path and value of a PATCH body; 400 naming each refused path or bad value. */
export function checkPatch(data: Record<string, unknown>): PathChange[] {
  const refused: ErrorDetail[] = [];
  const invalid: ErrorDetail[] = [];
  const out: PathChange[] = [];
  for (const [path, value] of Object.entries(data)) {
    const rule = RULES.find((r) => r.path.test(path));
    const segments = path.split('.');
    if (!rule || segments.some((s) => !prefKey.test(s))) {
      refused.push(refusal(path));
      continue;
    }
    const parsed = rule.value.safeParse(value);
    if (!parsed.success) {
      invalid.push({ field: path, location: 'body', code: 'invalid_value', message: `${path}: ${parsed.error.issues[0]?.message ?? 'invalid value'}` });
      continue;
    }
    out.push({ path, root: segments[0] as PathChange['root'], segments: segments.slice(1), value: parsed.data });
  }
  if (refused.length) {
    throw publicBookingErrors.fail(
      'forbidden_path',
      `Not editable: ${refused.map((r) => r.field).join(', ')}. Renter-editable paths: ${EDITABLE_PATHS.join(', ')}`,
      { details: [...refused, ...invalid] },
    );
  }
  if (invalid.length) throw new ApiError('validation_failed', `Invalid request: ${invalid.map((d) => d.message).join('; ')}`, { details: invalid });
  // Parents before children, so `address` then `address.city` composes.
  return out.sort((a, b) => a.segments.length - b.segments.length);
}

/** Sets (or, for null, removes) a nested value, turning a non-object on the way into an object. */
export function setPath(target: Record<string, unknown>, segments: string[], value: unknown): void {
  let node = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const k = segments[i];
    const cur = node[k];
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) {
      // A string address becomes {line1: <old string>} so a single field can be set on it.
      node[k] = typeof cur === 'string' && cur ? { line1: cur } : {};
    }
    node = node[k] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1];
  if (value === null) delete node[last];
  else node[last] = value;
}
