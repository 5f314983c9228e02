/** Public vocabulary of guest passes. */
export const PASS_STATUSES = ['active', 'expired', 'revoked'] as const;
export type PassStatus = (typeof PASS_STATUSES)[number];

/** What a pass lets the guest use. */
export const PASS_PERMISSIONS = ['dock_access', 'gate', 'boat_access', 'parking', 'showers', 'laundry', 'pool', 'wifi', 'fuel_dock'] as const;
export type PassPermission = (typeof PASS_PERMISSIONS)[number];
export const DEFAULT_PERMISSIONS: PassPermission[] = ['gate', 'dock_access'];

/** Access codes: no 0/O, 1/I/L, so a code read aloud or from a screen is typed right. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const CODE_LENGTH = 8;
export const CODE_PATTERN = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8,16}$/;

/** Verification answers. */
export const VERIFY_RESULTS = ['valid', 'not_yet_valid', 'expired', 'revoked'] as const;
export type VerifyResult = (typeof VERIFY_RESULTS)[number];

/** Unknown codes a credential may try before verification answers 429 for the rest of the window. */
export const VERIFY_MISS_LIMIT = 10;
export const VERIFY_MISS_WINDOW_MS = 10 * 60_000;

/** Active passes per reservation: staff, and renters in the tenant portal. */
export const MAX_ACTIVE_PASSES = { staff: 50, tenant: 10 } as const;
