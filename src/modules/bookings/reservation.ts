/**
 * The reservation of a booking sale: what each line asks of its item's lock, and the early
 * reservation that lets a sale take two sequential round trips after authentication instead of three.
 *
 * Early reservation: when every line's window and quantity can be read from the request alone (a
 * rental with `startTime`, `endTime`, and `quantity` or `assetIds`; no bundle, no tickets), the lock
 * call starts together with the sale's first read batch. Once the items are read and the lines
 * priced, the reservation is kept only if it is exactly what the lines ask (same windows, quantity,
 * assets, seats, and the item's version the price was computed from); otherwise it is released and
 * the lines are reserved again, the way a sale without it does. Errors keep their order: a request
 * the plan refuses (400) answers that, whatever the lock said.
 */
import { carry, type CarriedResult, type Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { reserveAll, type LockItem, type Reservation, type ReserveCall, type ReserveRequest, type SaleJournal } from '../availability/service';
import type { PreparedLine } from './lines';
import type { BookInput } from './schemas';
import type { CreateBookingOptions } from './types';

/** What a line asks of the lock, whichever way its window and quantity were found. */
interface LineAsk {
  itemId: string;
  start: number;
  end: number;
  quantity: number | undefined;
  assetIds: string[] | undefined;
  seats: number | undefined;
  privateCharter: boolean | undefined;
  expectVersion: number | undefined;
}

/** The lock request of one line of the order. */
function requestOf(a: LineAsk, sourceId: string, o: { customerId: string; source: string; email: string; opts: CreateBookingOptions }): ReserveRequest {
  return {
    customerId: o.customerId,
    itemId: a.itemId,
    expectVersion: a.expectVersion,
    line: {
      kind: 'booking',
      sourceId,
      start: a.start,
      end: a.end,
      quantity: a.quantity,
      assetIds: a.assetIds,
      seats: a.seats,
      privateCharter: a.privateCharter,
      enforceRules: o.source !== 'operator',
      holdEmail: o.email,
      ...(o.opts.replacesHold ? { excludeSourceIds: [o.opts.replacesHold.sourceId] } : {}),
    },
  };
}

/** The lines as priced: their lock requests. */
export function lineRequests(
  prepared: PreparedLine[],
  rentalIds: string[],
  o: { customerId: string; source: string; email: string; opts: CreateBookingOptions },
) {
  return prepared.map((p, i) =>
    requestOf(
      {
        itemId: p.item.row.id,
        start: p.start,
        end: p.end,
        quantity: p.item.item.kind === 'tour' ? undefined : p.quantity,
        assetIds: p.req.assetIds,
        seats: p.tour?.seats,
        privateCharter: p.tour?.privateCharter,
        expectVersion: p.item.row.version,
      },
      rentalIds[i],
      o,
    ),
  );
}

/** A reservation started with the sale's first read. */
export interface EarlyReservation {
  rentalIds: string[];
  requests: ReserveRequest[];
  result: PromiseSettledResult<Reservation[]>;
}

/** The lock requests of an order whose lines are rentals readable from the request alone, or null. */
export function earlyRequests(
  input: BookInput,
  o: { customerId: string; source: string; opts: CreateBookingOptions },
): { rentalIds: string[]; requests: ReserveRequest[] } | null {
  const rd = input.rentalDetails;
  if (o.opts.preloaded || rd.bundleCode) return null;
  const lines = rd.items ?? (rd.inventoryId ? [{ ...rd, inventoryId: rd.inventoryId }] : []);
  if (!lines.length) return null;
  const asks: LineAsk[] = [];
  for (const l of lines) {
    if (!l.startTime || !l.endTime || (l.tickets && Object.keys(l.tickets).length) || l.participants != null) return null;
    const start = Date.parse(l.startTime);
    const end = Date.parse(l.endTime);
    if (!(end > start)) return null;
    const quantity = l.assetIds?.length ? new Set(l.assetIds).size : (l.quantity ?? 1);
    asks.push({ itemId: l.inventoryId, start, end, quantity, assetIds: l.assetIds, seats: undefined, privateCharter: undefined, expectVersion: undefined });
  }
  const rentalIds = asks.map(() => newId('bk'));
  const who = { ...o, email: input.customerInfo.email };
  return { rentalIds, requests: asks.map((a, i) => requestOf(a, rentalIds[i], who)) };
}

/**
 * The lock calls of the early reservation with the sale's first read carried by the one made first
 * (reserveAll goes by item id): `onRows` receives that read's rows, mapped as `db.batch` maps them,
 * whether the lock reserves or refuses. With `onItem`, that call also asks for the item as the lock
 * read it (a one-item sale does not read it again).
 */
export function carryIn(requests: ReserveRequest[], statements: Stmt[], onRows: (rows: unknown[]) => void, onItem?: (item: LockItem) => void): ReserveCall[] {
  const first = requests.reduce((at, r, i) => (r.itemId < requests[at].itemId ? i : at), 0);
  const carried = carry(statements);
  return requests.map((r, i) =>
    i === first
      ? {
          ...r,
          carried: carried.statements,
          onCarried: (results: CarriedResult[]) => onRows(carried.take(results)),
          ...(onItem ? { withItem: true, onItem } : {}),
        }
      : r,
  );
}

/** Starts the early reservation; what it took is in the journal. Never throws: its answer waits for the plan. */
export async function reserveEarly(
  caller: Parameters<typeof reserveAll>[0],
  journal: SaleJournal,
  early: { rentalIds: string[]; requests: ReserveRequest[] },
  calls: ReserveCall[] = early.requests,
) {
  const [result] = await Promise.allSettled([reserveAll(caller, calls)]);
  if (result.status === 'fulfilled') journal.held(result.value);
  return { ...early, result };
}

/** Whether the early reservation is exactly what the priced lines ask (and of the item versions they were priced from). */
export function earlyFits(early: EarlyReservation, wanted: ReserveRequest[]): boolean {
  if (early.requests.length !== wanted.length) return false;
  type Asked = { start: number; end: number; quantity?: number; seats?: number; privateCharter?: boolean; assetIds?: string[] };
  const same = (a: ReserveRequest, b: ReserveRequest) => {
    const x = a.line as Asked;
    const y = b.line as Asked;
    return (
      a.itemId === b.itemId &&
      x.start === y.start &&
      x.end === y.end &&
      x.quantity === y.quantity &&
      x.seats === y.seats &&
      !!x.privateCharter === !!y.privateCharter &&
      JSON.stringify(x.assetIds ?? null) === JSON.stringify(y.assetIds ?? null)
    );
  };
  if (!early.requests.every((r, i) => same(r, wanted[i]))) return false;
  return early.result.status === 'rejected' || early.result.value.every((r, i) => r.version === wanted[i].expectVersion);
}
