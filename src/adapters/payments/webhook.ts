import { wallClock } from '../../lib/clock';
import { hmacSha256Hex, timingSafeEqual } from '../../lib/crypto';

/**
 * The payment provider's webhook signature (the `Stripe-Signature` header: `t=<unix seconds>,v1=<hex>`,
 * where v1 is HMAC-SHA256 of `{t}.{raw body}` with the endpoint's signing secret). Both the real
 * provider and the offline simulator sign this way, so the same verification runs everywhere.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Signature timestamps are checked against the provider's clock: real time, never an operator's sandbox clock. */
const realSeconds = () => Math.floor(wallClock.now() / 1000);

export type WebhookCheck = { ok: true } | { ok: false; reason: string };

export async function verifyWebhookSignature(payload: string, header: string | undefined, secret: string, nowSeconds = realSeconds()): Promise<WebhookCheck> {
  if (!header) return { ok: false, reason: 'missing signature header' };
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const sigs = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!Number.isFinite(t) || !sigs.length) return { ok: false, reason: 'malformed signature header' };
  if (Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = await hmacSha256Hex(secret, `${t}.${payload}`);
  return sigs.some((s) => timingSafeEqual(s, expected)) ? { ok: true } : { ok: false, reason: 'signature mismatch' };
}

/** Signs a payload as the provider does (the simulator's events and tests). */
export async function signWebhookPayload(payload: string, secret: string, nowSeconds = realSeconds()): Promise<string> {
  return `t=${nowSeconds},v1=${await hmacSha256Hex(secret, `${nowSeconds}.${payload}`)}`;
}
