/**
 * Deleting every row of one operator: for sandbox operators only (a deleted test clock's operator;
 * a private sandbox reset). Walks every table of the schema that carries the tenant column
 * (`customer_id`), so a module's new table is covered without a list to maintain, and deletes the
 * operator's rows in one D1 batch (all or nothing), the customer row last.
 */
import { eq, sql } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DB } from './client';
import * as schema from './schema';
import { customers } from './schema/accounts';

let tenantTables: { name: string; table: SQLiteTable }[] | undefined;

/** The tables with a `customer_id` column (built once per isolate). */
export function tablesWithTenant(): { name: string; table: SQLiteTable }[] {
  tenantTables ??= (Object.values(schema) as unknown[])
    .filter((t: unknown): t is SQLiteTable => t instanceof SQLiteTable)
    .map((table) => ({ table, config: getTableConfig(table) }))
    .filter(({ config }) => config.columns.some((c) => c.name === 'customer_id'))
    .map(({ table, config }) => ({ name: config.name, table }));
  return tenantTables;
}

/** Deletes every row of `customerId` in every tenant table, then the customer; answers the tables touched. */
export async function purgeTenant(db: DB, customerId: string): Promise<number> {
  const tables = tablesWithTenant();
  const deletes = tables.map(({ table }) => db.delete(table).where(sql`customer_id = ${customerId}`));
  await db.batch([...deletes, db.delete(customers).where(eq(customers.id, customerId))] as unknown as Parameters<DB['batch']>[0]);
  return tables.length;
}
