/**
 * Conditional GETs: a weak ETag computed from what an answer depends on (never from the answer
 * itself, so a matching `If-None-Match` is answered 304 before the answer is computed).
 */
import type { Context } from 'hono';

/** FNV-1a (64 bit) of the parts, as a weak validator `W/"..."`. */
export function etagOf(parts: readonly (string | number | null | undefined)[]): string {
  let h = 0xcbf29ce484222325n;
  const text = parts.map((p) => (p == null ? '' : String(p))).join('\u001f');
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return `W/"${h.toString(36)}"`;
}

/** Does the request's If-None-Match name this ETag (weak comparison, `*` included)? */
export function matches(c: Context, etag: string): boolean {
  const header = c.req.header('if-none-match');
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

/**
 * Sets `ETag` and `Cache-Control: no-cache` (clients and caches keep the answer but revalidate it
 * each time) and answers 304 without a body when the client's copy is current; otherwise null.
 */
export function conditional(c: Context, etag: string): Response | null {
  c.header('ETag', etag);
  c.header('Cache-Control', 'no-cache');
  if (!matches(c, etag)) return null;
  return c.body(null, 304);
}
