import type { Context } from 'hono';
import type { Env } from '../env';
import { getDb, type DB } from '../db/client';
import { ApiError } from './errors';
import type { HookEvents, HookName } from './hooks';
import type { SaleExtension } from './sale-extensions';
import { createLogger, type Logger, type LogLevel } from './logger';
import { wallClock, type Clock } from './clock';

export type Role = 'admin' | 'manager' | 'staff';

/** Who is calling. Built by the authentication middleware. */
export interface Principal {
  /**
   * `app`: an installed app calling the partner gateway (acting for the operator user who
   * authorized it, within its scopes); `partner`: a partner account (apps, channel portal);
   * `platform`: Berth's own staff (app and offering review).
   */
  kind: 'user' | 'api_key' | 'system' | 'anonymous' | 'app' | 'partner' | 'platform';
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
  /** Set for `partner` principals. */
  partnerId?: string;
  /** Set for `app` principals: the app, its installation and the scopes of the access token. */
  app?: { appId: string; installationId: string; scopes: string[]; sandbox: boolean };
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
    /** The hook listeners of every module, set by the app. */
    hooks: Hooks;
    /** Request-scoped structured logger. */
    log: Logger;
    /** Operator authentication, set by the app; route middleware calls it for operator and public routes. */
    authenticate: Authenticator;
    /** The `Idempotency-Key` claim of this request (set by the idempotency middleware of an `idempotent` route). */
    idempotencyClaim?: string;
    /** Runs a request through the whole app as the given principal (set by the app; the partner gateway uses it). */
    dispatch: Dispatch;
    /** The request's clock: the wall clock, or the caller's operator's sandbox test clock (set by authentication). */
    clock: Clock;
  };
}

/**
 * Serves `req` with the app's own routes, authenticated as `as` instead of by the request's
 * credentials (the partner gateway has already checked the access token and its scope).
 */
export type Dispatch = (req: Request, as: Principal) => Promise<Response>;

/** Who may call a route: operator credentials (default), operator admin, public (credentials optional), none (own scheme or callbacks). */
export type Access = 'operator' | 'admin' | 'public' | 'none';

/** Reads and checks operator credentials for a route with the given access; answers the rate-limit headers to set. */
export type Authenticator = (c: Context<AppEnv>, access: Access) => Promise<Record<string, string>>;

export type HookListener<K extends HookName> = (ctx: Ctx, e: HookEvents[K]) => Promise<void>;
export type HookListeners = { [K in HookName]?: HookListener<K> };

/** Runs the listeners of a hook; a failing listener is logged, never surfaced to the caller. */
export interface Hooks {
  emit<K extends HookName>(ctx: Ctx, name: K, e: HookEvents[K]): Promise<void>;
  /** The sale extensions of every module (lib/sale-extensions.ts), in module-list order; none in contexts without hooks. */
  sale?: readonly SaleExtension[];
}

export function hooksOf(listeners: { module: string; hooks: HookListeners }[], sale: readonly SaleExtension[] = []): Hooks {
  return {
    sale,
    async emit(ctx, name, e) {
      for (const l of listeners) {
        const fn = l.hooks[name];
        if (!fn) continue;
        try {
          await fn(ctx, e);
        } catch (err) {
          ctx.log.error('hook listener failed', { hook: name, module: l.module, error: String(err) });
        }
      }
    },
  };
}

/** For contexts that run no listeners (seeding, direct service calls in tests). */
export const NO_HOOKS: Hooks = { emit: async () => {} };

export function logLevelOf(env: Env): LogLevel {
  const l = env.LOG_LEVEL;
  return l === 'debug' || l === 'info' || l === 'warn' || l === 'error' ? l : 'info';
}

/** Transport-free context handed to services, jobs and other modules. */
export interface Ctx {
  env: Env;
  db: DB;
  principal: Principal;
  requestId: string;
  waitUntil: (p: Promise<unknown>) => void;
  hooks: Hooks;
  log: Logger;
  /** The request's `Idempotency-Key` claim: `commit()` marks it in the same batch as the first write. */
  idempotencyClaimId?: string;
  /** Where every "now" comes from (lib/clock.ts): the wall clock, or the operator's sandbox test clock. */
  clock: Clock;
  /** The request's origin (`https://host`), for links in messages when `PUBLIC_BASE_URL` is not set (lib/public-origin.ts). */
  origin?: string;
}

export function ctxOf(c: Context<AppEnv>): Ctx {
  return {
    env: c.env,
    db: getDb(c.env.DB),
    principal: c.get('principal') ?? ANONYMOUS,
    requestId: c.get('requestId'),
    hooks: c.get('hooks') ?? NO_HOOKS,
    log: c.get('log') ?? createLogger({ requestId: c.get('requestId') }, logLevelOf(c.env)),
    idempotencyClaimId: c.get('idempotencyClaim'),
    clock: c.get('clock') ?? wallClock,
    origin: new URL(c.req.url).origin,
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
export function systemCtx(
  env: Env,
  opts: { customerId?: string; waitUntil?: (p: Promise<unknown>) => void; requestId?: string; hooks?: Hooks; clock?: Clock } = {},
): Ctx {
  const clock = opts.clock ?? wallClock;
  const requestId = opts.requestId ?? `sys_${clock.now()}`;
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
    requestId,
    waitUntil: opts.waitUntil ?? ((p) => void p),
    hooks: opts.hooks ?? NO_HOOKS,
    log: createLogger({ requestId }, logLevelOf(env)),
    clock,
  };
}

/**
 * For service entry points that jobs, tests and scripts may also call with a bare `env`: the context
 * itself, or a system context for the env.
 */
export function callerCtx(from: Ctx | Env, opts: { customerId?: string; clock?: Clock } = {}): Ctx {
  return 'principal' in from ? from : systemCtx(from, opts);
}

/** A system context acting for one operator, inheriting the request id, waitUntil, hooks and logger of `ctx`. */
export function systemCtxFor(ctx: Ctx, customerId: string): Ctx {
  return {
    ...systemCtx(ctx.env, { customerId, requestId: ctx.requestId, waitUntil: ctx.waitUntil, hooks: ctx.hooks, clock: ctx.clock }),
    db: ctx.db,
    log: ctx.log,
    origin: ctx.origin,
  };
}

/**
 * An anonymous caller (a renter, the booking widget) acting for one operator: the operator is the
 * tenant of every read and write, and audit rows name `name` with `credentialId` as the actor.
 */
export function anonymousFor(ctx: Ctx, customerId: string, credentialId: string, name: string): Ctx {
  const principal: Principal = { kind: 'anonymous', credentialId, userId: null, customerId, role: null, permissions: [], plan: 'standard', name };
  return { ...ctx, principal };
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

/** Berth's own staff (platform key or the identity provider's platform role), a role apart from operators' admins. */
export const isPlatformStaff = (p: Principal) => p.kind === 'platform';

export function requirePlatformStaff(ctx: Ctx): void {
  if (!isPlatformStaff(ctx.principal))
    throw new ApiError('forbidden', `This operation is for Berth's platform staff (x-platform-key or a platform-role token)`);
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
