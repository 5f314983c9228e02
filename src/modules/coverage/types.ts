/**
 * The public vocabulary of embedded coverage: statuses, deposit effects, question field types,
 * message categories and the payout countries. Other modules (the widget) and the docs read these.
 */

export type OfferingStatus = 'draft' | 'in_review' | 'approved';
export type RescheduleDelivery = 'hourly' | 'immediate' | 'none';
export const RESCHEDULE_DELIVERIES = ['hourly', 'immediate', 'none'] as const;

export const DEPOSIT_EFFECTS = ['none', 'waive', 'reduce_to', 'reduce_by', 'reduce_by_percent'] as const;
export type DepositEffect = (typeof DEPOSIT_EFFECTS)[number];

/** Quote statuses at checkout (see the table in the module's tag description). */
export const QUOTE_STATUSES = ['quoted', 'ready', 'needs_acceptance', 'declined', 'failed', 'purchasing', 'purchased'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const POLICY_STATUSES = ['pending', 'bound', 'not_issued', 'not_covered', 'cancelled'] as const;
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

/** Question field types a checkout can draw; any other type in an underwriter's schema is dropped. */
export const FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'dropdown', 'multiselect', 'address', 'notice'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const MAX_FIELDS = 12;

export const MESSAGE_CATEGORIES = ['policy_issued', 'policy_document', 'policy_cancelled', 'claim_update'] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

/** Payout countries (spec: the US, the UK, the EEA, Canada and Switzerland). */
export const EEA = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI',
  'ES', 'SE', 'IS', 'LI', 'NO',
] as const; // prettier-ignore
export const PAYOUT_COUNTRIES: readonly string[] = ['US', 'GB', 'CA', 'CH', ...EEA];

/** Limits and timings (spec Limits). */
export const MAX_QUOTE_TIMEOUT_MS = 5000;
/** A quote can be bought for this long after it was shown. */
export const QUOTE_TTL_MS = 60 * 60_000;
/** Bind retries run this long after payment; then the booking is flagged to the operator (within 30 minutes, with the 5-minute sweep). */
export const BIND_WINDOW_MS = 20 * 60_000;
/** A rotated signing secret keeps working this long (the overlap). */
export const SECRET_OVERLAP_MS = 24 * 3600_000;
