/**
 * POST /ota/api: one endpoint for every supplier operation, `{requestType, data}` with the key in
 * `data.ApiKey`. A missing or unknown requestType answers 400 before the key is looked at; the
 * key then answers 401/403; `data` is validated against the operation's request (400).
 */
import type { MiddlewareHandler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import type { AppEnv, Ctx } from '../../lib/context';
import { validationError } from '../../lib/openapi';
import { ApiError } from '../../lib/errors';
import { readBodyText } from '../../lib/provider-auth';
import * as s from './schemas';
import { marketplaceFail } from './errors';
import type { ConfigRow } from './types';
import { availabilityCalendar, availabilityCheck, tourList } from './catalog';
import { reserveHold } from './reserve';
import { confirmReservation } from './confirm';
import { cancelReservation } from './cancel';
import { amendReservation } from './amend';

interface Operation {
  schema: ZodType;
  run: (ctx: Ctx, cfg: ConfigRow, data: never) => Promise<unknown>;
}

const OPERATIONS: Record<string, Operation> = {
  TourList: { schema: s.EmptyBody, run: (ctx, cfg) => tourList(ctx, cfg) },
  AvailabilityCalendar: { schema: s.CalendarBody, run: (ctx, cfg, d) => availabilityCalendar(ctx, cfg, d) },
  AvailabilityCheck: { schema: s.CheckBody, run: (ctx, cfg, d) => availabilityCheck(ctx, cfg, d) },
  Reserve: { schema: s.ReserveBody, run: (ctx, cfg, d) => reserveHold(ctx, cfg, d) },
  Booking: { schema: s.BookingBody, run: (ctx, cfg, d) => confirmReservation(ctx, cfg, d) },
  BookingCancellation: { schema: s.CancellationBody, run: (ctx, _cfg, d) => cancelReservation(ctx, d) },
  BookingAmendment: { schema: s.AmendmentBody, run: (ctx, _cfg, d) => amendReservation(ctx, d) },
  SpecialOffers: { schema: s.EmptyBody, run: async () => ({ offers: [] }) },
};

/** The request types, as the marketplace names them (`AvailabilityCheckRequest`; the `Request` suffix and case are optional). */
export const REQUEST_TYPES = Object.keys(OPERATIONS).map((k) => `${k}Request`);

function operationOf(requestType: string): [string, Operation] | undefined {
  const key = requestType
    .trim()
    .replace(/Request$/i, '')
    .toLowerCase();
  return Object.entries(OPERATIONS).find(([k]) => k.toLowerCase() === key);
}

/** Runs before the key check: 400 for an unknown requestType. */
export const checkRequestType: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = JSON.parse(await readBodyText(c)) as { requestType: string };
  if (!operationOf(body.requestType))
    throw marketplaceFail('unknown_request_type', `Unknown requestType "${body.requestType}"; one of ${REQUEST_TYPES.join(', ')}`, {
      details: [{ field: 'requestType', message: 'unknown requestType' }],
    });
  await next();
};

export async function dispatch(ctx: Ctx, cfg: ConfigRow, body: { requestType: string; data: Record<string, unknown> }) {
  const [name, op] = operationOf(body.requestType)!;
  const { ApiKey: _key, ...data } = body.data;
  const parsed = op.schema.safeParse(data);
  if (!parsed.success) {
    const err = validationError(parsed.error as ZodError, 'json');
    throw new ApiError('validation_failed', err.message, { details: err.details?.map((d) => ({ ...d, field: `data.${d.field}` })) });
  }
  return { requestType: `${name}Request`, data: await op.run(ctx, cfg, parsed.data as never) };
}
