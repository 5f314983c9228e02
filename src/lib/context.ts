import type { Context } from 'hono';
import type { Env } from '../env';
import { getDb, type DB } from '../db/client';
import { ApiError } from './errors';

export type Role = 'admin' | 'manager' | 'staff';

/** Who is calling. Built by the authentication middleware. */
export interface Principal {
  kind: 'user' | 'api_key' | 'system' | 'anonymous';
  /** Rate-limit bucket and audit actor. */
  credentialId: string;
  userId: string | null;
  customerId: string | null;
  role: Role | null;
  permissions: string[];
  plan: 'standard' | 'enterprise';
  subject?: string;
  email?: string;
  name?: string;
}

export const ANONYMOUS: Principal = {
  kind: 'anonymous',
  credentialId: 'anonymous',
  userId: null,
  customerId: null,
  role: null,
  permissions: [],
  plan: 'standard',
};

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    principal: Principal;
    /** Set by the channel middleware (reseller API). */
    channel?: unknown;
  };
}

/** Transport-free context handed to services, jobs and other modules. */
export interface Ctx {
  env: Env;
  db: DB;
  principal: Principal;
  requestId: string;
  waitUntil: (p: Promise<unknown>) => void;
}

export function ctxOf(c: Context<AppEnv>): Ctx {
  return {
    env: c.env,
    db: getDb(c.env.DB),
    principal: c.get('principal') ?? ANONYMOUS,
    requestId: c.get('requestId'),
    waitUntil: (p) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {
        void p;
      }
    },
  };
}

/** A context for cron, queue consumers and seeding. */
export function systemCtx(env: Env, opts: { customerId?: string; waitUntil?: (p: Promise<unknown>) => void; requestId?: string } = {}): Ctx {
  return {
    env,
    db: getDb(env.DB),
    principal: {
      kind: 'system',
      credentialId: 'system',
      userId: null,
      customerId: opts.customerId ?? null,
      role: 'admin',
      permissions: ['admin'],
      plan: 'enterprise',
    },
    requestId: opts.requestId ?? `sys_${Date.now()}`,
    waitUntil: opts.waitUntil ?? ((p) => void p),
  };
}

/** The caller's operator account; 403 when the identity has none yet. */
export function tenantOf(ctx: Ctx): string {
  const id = ctx.principal.customerId;
  if (!id) throw new ApiError('no_account', 'This identity has no operator account yet; create one with POST /customer');
  return id;
}

/** A `customerId` given in a request must be the caller's own: 403 otherwise. Returns the caller's id. */
export function ownCustomer(ctx: Ctx, customerId?: string | null): string {
  const own = tenantOf(ctx);
  if (customerId != null && customerId !== '' && customerId !== own) {
    throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  }
  return own;
}

export const isAdmin = (p: Principal) => p.role === 'admin' || p.permissions.includes('admin');

export function requireAdmin(ctx: Ctx): void {
  if (!isAdmin(ctx.principal)) throw new ApiError('forbidden', 'This operation needs admin permission');
}

/** Staff-level check: admins and managers pass, plus anyone holding the named permission. */
export function requirePermission(ctx: Ctx, permission: string): void {
  const p = ctx.principal;
  if (isAdmin(p) || p.role === 'manager' || p.permissions.includes(permission)) return;
  throw new ApiError('forbidden', `This operation needs the "${permission}" permission`);
}
