import { ApiError } from '../../lib/errors';

/** 400 `bad_request` naming the field at fault. */
export const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });
