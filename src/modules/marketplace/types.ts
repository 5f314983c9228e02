/** Types and constants of the tour marketplace that other files (and modules) share. */
import type { marketplaceConfigs, marketplaceReservations } from '../../db/schema/marketplace';

export type ConfigRow = typeof marketplaceConfigs.$inferSelect;
export type ReservationRow = typeof marketplaceReservations.$inferSelect;

/** How long a reservation holds price and inventory (the marketplace needs at least 15 minutes). */
export const HOLD_MS = 20 * 60_000;
