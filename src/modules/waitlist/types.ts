// Public vocabulary of the waitlist: its row, statuses and offer triggers.
import type { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';

export type EntryRow = typeof waitlistEntries.$inferSelect;
export type Status = EntryRow['status'];
export type Trigger = (typeof waitlistOffers.$inferSelect)['trigger'];

/** The key of an entry that is waiting or offered: one per item, e-mail, date and time (unique while active). */
export const activeKey = (inventoryId: string, email: string, date: string, time: string | null | undefined) => `${inventoryId}|${email}|${date}|${time ?? ''}`;
