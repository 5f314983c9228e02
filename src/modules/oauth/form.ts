import type { Context } from 'hono';
import type { ZodType, z } from 'zod';
import type { AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { validationError } from '../../lib/openapi';

/**
 * Reads an HTML-form body (`application/x-www-form-urlencoded`, as RFC 6749 requires) or a JSON
 * body, and validates it with `schema` (400 `validation_failed` naming the fields). A parameter
 * sent twice is refused (RFC 6749 3.2: parameters must not be included more than once).
 */
export async function readForm<S extends ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  let data: Record<string, unknown>;
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()));
    data = {};
    for (const [k, v] of params) {
      if (k in data) throw new ApiError('validation_failed', `Parameter ${k} is repeated`, { details: [{ field: k, message: 'must not be repeated' }] });
      data[k] = v;
    }
  } else if (/^application\/(?:[\w.+-]+\+)?json/.test(type)) {
    try {
      data = (await c.req.json()) as Record<string, unknown>;
    } catch {
      throw new ApiError('invalid_json', 'Malformed JSON in request body');
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ApiError('validation_failed', 'The body must be an object');
  } else if (!type && (c.req.header('content-length') ?? '0') === '0') {
    data = {};
  } else {
    throw new ApiError('unsupported_media_type', 'Send application/x-www-form-urlencoded (or application/json)');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw validationError(parsed.error, 'json');
  return parsed.data;
}
