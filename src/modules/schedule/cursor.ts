import { and, asc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { base64Decode, base64Encode } from '../../lib/crypto';
import { bookings } from '../../db/schema/bookings';
import { Filters, type FiltersT } from './schemas';
import { checkRange, emailExpr, like, multiZoneDateConds, nameExpr, rentalIdExpr, selectEntries, statusCounts } from './queries';

// ---------------------------------------------------------------------------------------------
// Cursor pagination

const many = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

function filterError(message: string, issues: { path: PropertyKey[]; message: string; code: string }[], field = 'filters') {
  return new ApiError('validation_failed', message, {
    details: issues.length
      ? issues.map((i) => ({ field: [field, ...i.path.map(String)].join('.'), location: 'query', code: i.code, message: i.message }))
      : [{ field, location: 'query', code: 'invalid', message }],
  });
}

/** Parses the `filters` query parameter (a JSON object) or answers 400 naming the bad key. */
export function parseFilters(raw: string | undefined): FiltersT {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw filterError('filters must be a JSON object, e.g. {"status":["confirmed"]}', []);
  }
  const r = Filters.safeParse(parsed);
  if (!r.success)
    throw filterError(`Invalid filters: ${r.error.issues.map((i) => `${i.path.join('.') || 'filters'}: ${i.message}`).join('; ')}`, r.error.issues);
  return r.data;
}

function filterConds(customerId: string, f: FiltersT): SQL[] {
  const conds: SQL[] = [eq(bookings.customerId, customerId)];
  const inv = many(f.inventoryId);
  if (inv) conds.push(inArray(bookings.itemId, inv));
  const loc = many(f.locationId);
  if (loc) conds.push(inArray(bookings.locationId, loc));
  const st = many(f.status);
  if (st) conds.push(inArray(bookings.status, st));
  const src = many(f.source);
  if (src) conds.push(inArray(bookings.source, src));
  if (f.renterId) conds.push(eq(bookings.renterId, f.renterId));
  if (f.transactionId) conds.push(eq(bookings.transactionId, f.transactionId));
  conds.push(...multiZoneDateConds(f.startDate, f.endDate));
  if (f.search) {
    const t = f.search.replace(/\s+/g, ' ');
    conds.push(or(like(rentalIdExpr, t), like(nameExpr, t), like(emailExpr, t))!);
  }
  return conds;
}

interface Cursor {
  after: [number, string];
  filters: FiltersT;
}

export function encodeCursor(c: Cursor): string {
  return base64Encode(new TextEncoder().encode(JSON.stringify({ v: 1, after: c.after, filters: c.filters })));
}

const invalidCursor = (why: string) =>
  new ApiError('invalid_cursor', `Invalid cursor: ${why}. Use the nextCursor of the previous page, or omit cursor to start over.`, {
    details: [{ field: 'cursor', code: 'invalid_cursor', message: why }],
  });

/** Decodes a cursor (standard or URL-safe base64 of JSON `{after: [start, rentalId], filters}`) or answers 400. */
export function decodeCursor(raw: string): Cursor {
  let json: unknown;
  try {
    const b64 = raw.replace(/-/g, '+').replace(/_/g, '/');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('not base64');
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(base64Decode(b64 + '==='.slice((b64.length + 3) % 4))));
  } catch {
    throw invalidCursor('not base64-encoded JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw invalidCursor('not an object');
  const o = json as Record<string, unknown>;
  const after = o.after;
  if (!Array.isArray(after) || after.length !== 2 || !Number.isSafeInteger(after[0]) || typeof after[1] !== 'string' || !after[1] || after[1].length > 128) {
    throw invalidCursor('`after` must be [start (epoch ms), rentalId]');
  }
  const f = Filters.safeParse(o.filters ?? {});
  if (!f.success) throw invalidCursor('its filters are not valid');
  return { after: [after[0] as number, after[1] as string], filters: f.data };
}

const sameFilters = (a: FiltersT, b: FiltersT) => {
  const norm = (f: FiltersT) =>
    JSON.stringify(
      Object.entries(f)
        .filter(([, v]) => v !== undefined)
        .sort(([x], [y]) => x.localeCompare(y)),
    );
  return norm(a) === norm(b);
};

/** GET /schedule/schedules/paginated: keyset pages ordered by (start, rentalId). */
export async function paginated(ctx: Ctx, q: { limit: number; cursor?: string; filters?: string }) {
  const customerId = tenantOf(ctx);
  const given = q.filters !== undefined ? parseFilters(q.filters) : undefined;
  const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
  if (cursor && given && !sameFilters(cursor.filters, given)) {
    throw new ApiError('invalid_cursor', 'The cursor was made for other filters; omit filters (the cursor carries them) or start over without cursor', {
      details: [{ field: 'filters', code: 'cursor_mismatch', message: "differs from the cursor's filters" }],
    });
  }
  const filters = cursor?.filters ?? given ?? {};
  checkRange(filters.startDate, filters.endDate);
  const conds = filterConds(customerId, filters);
  if (cursor) {
    const [s, id] = cursor.after;
    conds.push(or(gt(bookings.start, s), and(eq(bookings.start, s), gt(bookings.id, id)))!);
  }
  const rows = await selectEntries(ctx, and(...conds), [asc(bookings.start), asc(bookings.id)], q.limit + 1);
  const hasMore = rows.length > q.limit;
  const data = rows.slice(0, q.limit);
  const last = data[data.length - 1];
  return {
    data,
    limit: q.limit,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ after: [Date.parse(last.startTime), last.rentalId], filters }) : null,
    filters: filters as Record<string, unknown>,
  };
}

/** GET /schedule/schedules/count: how many bookings match the filters, in total and per status. */
export async function countSchedules(ctx: Ctx, q: { filters?: string }) {
  const customerId = tenantOf(ctx);
  const filters = parseFilters(q.filters);
  checkRange(filters.startDate, filters.endDate);
  const byStatus = await statusCounts(ctx, and(...filterConds(customerId, filters)), Boolean(filters.search));
  return { total: Object.values(byStatus).reduce((a, b) => a + b, 0), byStatus, filters: filters as Record<string, unknown> };
}
