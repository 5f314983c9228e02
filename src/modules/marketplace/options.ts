/**
 * Product options: a tour is one option (its id is the item id; tickets by fare tier); a rental
 * offers one option per allowed duration, `{itemId}:{hours}h` (the item's shortest slot when it
 * lists no durations).
 */
export interface OptionRef {
  itemId: string;
  /** Rentals: hours of the option (null: the item's default). */
  hours: number | null;
}

export function parseOption(productOptionId: string): OptionRef {
  const m = /^(.+?):(\d{1,4}(?:\.\d{1,2})?)h$/.exec(productOptionId);
  return m ? { itemId: m[1], hours: Number(m[2]) } : { itemId: productOptionId, hours: null };
}

export const optionId = (itemId: string, hours: number | null) => (hours == null ? itemId : `${itemId}:${hours}h`);

/** Hours as a short label: 2 -> "2 hours", 0.5 -> "30 minutes". */
export function durationLabel(hours: number): string {
  if (hours < 1) return `${Math.round(hours * 60)} minutes`;
  if (hours === 1) return '1 hour';
  if (hours % 24 === 0) return `${hours / 24} day${hours === 24 ? '' : 's'}`;
  return `${hours} hours`;
}
