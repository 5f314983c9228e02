import { ApiError } from '../../lib/errors';

/** 400 `bad_request` naming the field at fault. */
export const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });

/**
 * 400 `in_the_past` (a shared code: lib/errors.ts): a join or an offer for a date, departure or time
 * already past at the location, on the operator's clock.
 */
export const inThePast = (field: string, message: string) => new ApiError('in_the_past', message, { details: [{ field, message: 'must not be in the past' }] });
