/** Public vocabulary of haul services. */
export const HAUL_STATUSES = ['requested', 'scheduled', 'confirmed', 'in_progress', 'completed', 'cancelled'] as const;
export type HaulStatus = (typeof HAUL_STATUSES)[number];

/** Statuses in which a service has not started: it may be edited, cancelled and deleted. */
export const NOT_STARTED: readonly HaulStatus[] = ['requested', 'scheduled', 'confirmed'];

/** Types that put the boat back in the water (a second lift, on the return date). */
export const RETURNING: readonly string[] = ['round_trip', 'haul_and_hold'];

/** What a lift of the yard does: take the boat out, put it in, move it (a relocation is one lift). */
export const LIFT_KINDS = ['haul_out', 'launch', 'relocation'] as const;
export type LiftKind = (typeof LIFT_KINDS)[number];

/** Photos per service, size of one photo. */
export const MAX_PHOTOS = 50;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const PHOTOS_PER_REQUEST = 10;
