/**
 * Credential schemes of outside callers (the tour marketplace, the telephony provider, GPS
 * devices) whose inputs are validated BEFORE the credential is checked: a request missing a
 * required input answers 400 whoever sends it, and only a complete request is authenticated (401
 * or 403). Those callers always send complete requests, so the order costs them nothing, and it
 * lets a developer see what is missing before wiring the credential.
 *
 * The middleware validates the route's query and JSON body with the same zod schemas the route
 * declares (the router validates them again for the handler), then runs the scheme's check.
 */
import type { MiddlewareHandler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { JSON_BODY_LIMIT, validationError, type AuthScheme } from './openapi';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export interface ProviderScheme {
  security: AuthScheme['security'];
  /** Checks the credential (throws 401/403/503); runs after the inputs passed validation. */
  check: MiddlewareHandler<AppEnv>;
}

/** Reads the body once (keeping it readable for the router's validator) within the JSON cap. */
export async function readBodyText(c: Parameters<MiddlewareHandler<AppEnv>>[0], limit = JSON_BODY_LIMIT): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > limit) throw new ApiError('payload_too_large', `Request body exceeds the ${Math.round(limit / 1024)} KiB limit`);
  // Bytes decoded as UTF-8 (a form body read with .text() makes workerd warn about its content type).
  const text = new TextDecoder().decode(await c.req.arrayBuffer());
  if (text.length > limit) throw new ApiError('payload_too_large', `Request body exceeds the ${Math.round(limit / 1024)} KiB limit`);
  // The body stream is consumed: hand the rest of the chain a fresh one (the text stays cached for c.req.json()).
  c.req.raw = new Request(c.req.raw, { body: text });
  return text;
}

/** An AuthScheme whose middleware validates `query` and `body` first, then checks the credential. */
export function validatedScheme(scheme: ProviderScheme, parts: { query?: ZodType; body?: ZodType }): AuthScheme {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (parts.query) {
      const q = parts.query.safeParse(c.req.query());
      if (!q.success) throw validationError(q.error as ZodError, 'query');
    }
    if (parts.body) {
      const type = c.req.header('content-type');
      if (type !== undefined && !JSON_TYPE.test(type)) {
        throw new ApiError('unsupported_media_type', `Content-Type must be application/json (got "${type.slice(0, 80)}")`);
      }
      const text = await readBodyText(c);
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        throw new ApiError('invalid_json', 'Malformed JSON in request body');
      }
      const b = parts.body.safeParse(json);
      if (!b.success) throw validationError(b.error as ZodError, 'json');
    }
    // Awaited (not returned): a check that throws before its first await is handled at once, not one microtask later.
    await scheme.check(c, next);
  };
  return { security: scheme.security, middleware };
}
