import { sqliteTable, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json, tenant, timestamps } from './_columns';

/**
 * Sandbox test clocks (modules/sandbox). A clock belongs to the sandbox operator that created it
 * (`customer_id`) and drives its own private demo operator (`operator_id`, an id starting with
 * `cus_tclk_`), whose "now" is `frozen_time`. While an advance runs, `target_time` is where it goes
 * and `frozen_time` the last instant fully processed.
 */
export const testClocks = sqliteTable(
  'test_clocks',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    operatorId: text('operator_id').notNull(),
    name: text('name'),
    status: text('status', { enum: ['ready', 'advancing', 'failed'] })
      .notNull()
      .default('ready'),
    frozenTime: text('frozen_time').notNull(),
    targetTime: text('target_time'),
    /** The last advance that stopped part way: the job that failed, the instant it ran at and the error. */
    failure: json<{ job: string; at: string; error: string } | null>('failure'),
    /** The advance's progress: steps run and jobs that did work. */
    progress: json<{ steps: number; ran: Record<string, number> } | null>('progress'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('test_clocks_operator_uq').on(t.operatorId), index('test_clocks_customer_idx').on(t.customerId, t.createdAt)],
);
