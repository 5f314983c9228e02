/** Public vocabulary of meter readings. */
export const UTILITIES = ['electricity', 'water'] as const;
export type Utility = (typeof UTILITIES)[number];

/** The unit each utility is read in. */
export const UTILITY_UNIT: Record<Utility, string> = { electricity: 'kWh', water: 'gal' };

/** Digits of a meter when neither the reading nor the meter's previous reading says. */
export const DEFAULT_DIGITS = 6;

/** Why a reading waits for review (it is not charged to a reservation until reviewed). */
export const FLAG_REASONS = ['reading_below_previous', 'usage_above_3x_usual'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** A reading is flagged when its usage per day is above this multiple of the unit's usual usage per day. */
export const USUAL_MULTIPLE = 3;
/** How many earlier usages make the unit's usual usage (at least two are needed to judge). */
export const USUAL_WINDOW = 6;
