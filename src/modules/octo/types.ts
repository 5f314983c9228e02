/**
 * Public vocabulary of the OCTO supplier API: the capabilities Berth implements and the OCTO
 * statuses. The response types come from OCTO's own published types (`@octocloud/types`, a
 * development dependency: only types are imported, nothing reaches the bundle).
 */
export const OCTO_CAPABILITIES = ['octo/pricing', 'octo/content'] as const;
export type OctoCapability = (typeof OCTO_CAPABILITIES)[number];

export const OCTO_BOOKING_STATUSES = ['ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] as const;
export type OctoBookingStatus = (typeof OCTO_BOOKING_STATUSES)[number];

/** Holds last at least this long, whatever `expirationMinutes` asks (the default is 30). */
export const MIN_HOLD_MINUTES = 15;
export const DEFAULT_HOLD_MINUTES = 30;
export const MAX_HOLD_MINUTES = 24 * 60;

/**
 * An OCTO type with its string enums as the plain literal unions they serialize to
 * (`${AvailabilityStatus}` is `'AVAILABLE' | ...`), so views written with string literals are
 * checked against the published types.
 */
export type Plain<T> = T extends string
  ? `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? Plain<U>[]
      : T extends object
        ? { [K in keyof T]: Plain<T[K]> }
        : T;
