/**
 * Abuse limits of the anonymous endpoints that send a message (gift-card e-mails, magic links,
 * one-time codes, waitlist and cart contacts) or charge a card (checkouts, gift-card purchases,
 * tips, protection plans, enrolments, slip bookings). Each such route handler calls `limitAbuse`
 * first, before any read or write, so unknown cards, codes and bookings count too. Three limits,
 * each counted exactly in a RateLimiter Durable Object (fixed windows, real time):
 *
 * - per client IP (the address the platform reports, lib/ip-limit.ts: a client-sent header is
 *   never trusted outside Cloudflare's edge), per endpoint;
 * - per target: the card (payment method), gift card, booking or e-mail address the request acts
 *   on, within its operator;
 * - per operator per hour, per endpoint: whatever the number of clients, an operator's name never
 *   sends or charges more than that in an hour.
 *
 * Past any of them the answer is 429 `rate_limited` with `Retry-After` (seconds until that window
 * resets), and nothing is sent or charged. The limits are checked in that order and a refused
 * request is not counted by the later ones, so a flood from one address cannot use up an
 * operator's hourly budget.
 */
import type { Context } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { wallClock } from './clock';
import { sha256Hex } from './crypto';
import { clientIp } from './ip-limit';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface Limit {
  limit: number;
  windowMs: number;
}

export interface AbuseLimits {
  perIp: Limit;
  perTarget: Limit;
  perOperator: Limit;
}

/** `target` requests per target and `operator` per operator an hour, `ip` per client address a minute. */
const limits = (target: number, operator: number, ip = 60): AbuseLimits => ({
  perIp: { limit: ip, windowMs: MINUTE },
  perTarget: { limit: target, windowMs: HOUR },
  perOperator: { limit: operator, windowMs: HOUR },
});

/**
 * Every guarded endpoint, by action name, with its limits. Messages whose module also caps the
 * e-mails per address (renter codes, cart recovery: see communications/throttle.ts) allow more
 * requests per target here, since the extra requests send nothing.
 */
export const ABUSE_LIMITS = {
  // Messages.
  'gift-card-email': limits(3, 30),
  'member-portal-link': limits(5, 300),
  'slip-portal-link': limits(5, 300),
  'renter-code': limits(30, 300),
  'review-request': limits(10, 300),
  'waitlist-join': limits(20, 300),
  'slip-waitlist-join': limits(10, 300),
  'cart-recovery': limits(20, 1000, 120),
  'partner-password-reset': limits(5, 1000),
  // Charges.
  'gift-card-purchase': limits(20, 300),
  'gift-card-saved-card': limits(20, 300),
  'widget-checkout': limits(20, 1000),
  'coverage-checkout': limits(20, 1000),
  'membership-enroll': limits(20, 300),
  'slip-booking': limits(20, 300),
  'booking-tip': limits(20, 300),
  'protection-plan': limits(20, 300),
} as const satisfies Record<string, AbuseLimits>;

export type AbuseAction = keyof typeof ABUSE_LIMITS;

/** The operator a request acts for: its id, or how to find it (null when unknown: the service answers its own 404). */
export type OperatorOf = string | null | undefined | (() => Promise<string | null | undefined>);

export interface AbuseCheck {
  /** The card, gift card, booking or address the request acts on (null: none; the other limits still apply). */
  target?: string | null;
  operator?: OperatorOf;
}

/** The RateLimiter object names of a check (exported for the wiring tests). */
export async function abuseBuckets(action: AbuseAction, q: { ip: string; operator: string | null; target: string | null }) {
  return {
    ip: `abuse:${action}:ip:${q.ip}`,
    target: q.target === null ? null : `abuse:${action}:to:${q.operator ?? '-'}:${await sha256Hex(q.target.trim().toLowerCase())}`,
    operator: q.operator === null ? null : `abuse:${action}:op:${q.operator}`,
  };
}

async function resolve(operator: OperatorOf): Promise<string | null> {
  if (typeof operator !== 'function') return operator ?? null;
  try {
    return (await operator()) ?? null;
  } catch {
    return null; // an unknown record: the service answers its 404 (after this request was counted per IP and target)
  }
}

const REFUSAL = {
  ip: 'Too many requests from this address',
  target: 'Too many requests for this card, booking or address',
  operator: "Too many requests for this operator's public pages",
} as const;

/** 429 `rate_limited` with `Retry-After` past a limit of `action` (see the file's comment); nothing is counted past a refusal. */
export async function limitAbuse(c: Context<AppEnv>, action: AbuseAction, check: AbuseCheck = {}): Promise<void> {
  const own: AbuseLimits = ABUSE_LIMITS[action];
  const ns = c.env.RATE_LIMITER;
  const count = async (kind: keyof typeof REFUSAL, bucket: string | null, { limit, windowMs }: Limit) => {
    if (!bucket) return;
    const state = await ns.get(ns.idFromName(bucket)).hit(limit, windowMs);
    if (state.allowed) return;
    // Real time: the limiter's windows are real time (a rate limit, not business time).
    const retryAfter = Math.max(1, state.reset - Math.floor(wallClock.now() / 1000));
    throw new ApiError('rate_limited', `${REFUSAL[kind]}; retry in ${retryAfter}s`, {
      headers: { 'Retry-After': String(retryAfter) },
      extra: { limitKind: kind },
    });
  };
  // The operator is looked up (when only a location, slip or booking names it) while the address is counted.
  const operating = resolve(check.operator);
  const ip = clientIp(c);
  await count('ip', (await abuseBuckets(action, { ip, operator: null, target: null })).ip, own.perIp);
  const buckets = await abuseBuckets(action, { ip, operator: await operating, target: check.target ?? null });
  await count('target', buckets.target, own.perTarget);
  await count('operator', buckets.operator, own.perOperator);
}
