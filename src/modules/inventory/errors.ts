import { ApiError, defineErrors, type ErrorDetail } from '../../lib/errors';

export const inventoryErrors = defineErrors({
  has_upcoming_bookings: { status: 400, meaning: 'The item has upcoming bookings; cancel or move them first' },
  file_too_large: { status: 400, meaning: 'An uploaded file is over its size limit' },
  unsupported_file_type: { status: 400, meaning: 'The file content (magic bytes) is not an accepted type' },
  limit_reached: { status: 400, meaning: 'The item already holds the maximum number of photos or videos' },
  range_not_satisfiable: { status: 416, meaning: 'The requested byte range is outside the file' },
  image_too_large: { status: 400, meaning: 'The photo has too many pixels to be resized here; send a smaller copy' },
  image_unreadable: { status: 400, meaning: 'The photo could not be decoded (damaged, truncated or an unusual encoding)' },
  no_such_variant: { status: 404, meaning: 'The photo is not served at that width; the answer lists the widths it has' },
});

/** 400 `validation_failed` naming the first three problems in the message and listing all in `details`. */
export const invalid = (details: ErrorDetail[]) =>
  new ApiError(
    'validation_failed',
    `Invalid request: ${details
      .map((d) => `${d.field}: ${d.message}`)
      .slice(0, 3)
      .join('; ')}`,
    { details },
  );

export const detail = (field: string, message: string, code = 'invalid'): ErrorDetail => ({ field, location: 'body', code, message });
