import { drizzle } from 'drizzle-orm/d1';
import type { BatchItem } from 'drizzle-orm/batch';

export const getDb = (d1: D1Database) => drizzle(d1);
export type DB = ReturnType<typeof getDb>;
export type Stmt = BatchItem<'sqlite'>;
