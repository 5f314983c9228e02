import type { Ctx } from './context';

/** The development server's origin: the last resort when neither `PUBLIC_BASE_URL` nor a request says where Berth is. */
export const DEV_ORIGIN = 'http://127.0.0.1:8787';

/**
 * Where the links Berth sends (e-mails, SMS) point: the configured `PUBLIC_BASE_URL`, else the
 * origin of the request being served (so a server started on another port links to itself), else
 * the development server. Without a trailing slash.
 */
export function publicOrigin(ctx: Pick<Ctx, 'env' | 'origin'>): string {
  return (ctx.env.PUBLIC_BASE_URL || ctx.origin || DEV_ORIGIN).replace(/\/+$/, '');
}
