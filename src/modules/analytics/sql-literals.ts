/**
 * SQL string literals for the report statements. D1 binds at most 100 parameters per statement and
 * a report over 50 locations needs more, so values that are already checked (ids read back from
 * the caller's own rows, dates validated as YYYY-MM-DD, instants this code formatted) are written
 * as literals, quoted the SQL way (a quote doubled), never pasted raw.
 */
import { sql, type SQL } from 'drizzle-orm';

export const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
export const lit = (v: string): SQL => sql.raw(quote(v));
export const litList = (vs: readonly string[]): SQL => sql.raw(vs.map(quote).join(', '));
