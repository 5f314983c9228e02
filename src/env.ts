import { z } from 'zod';
import type { InventoryLockRpc } from './modules/availability/types';
import type { RateLimiterRpc } from './lib/rate-limiter-protocol';
import type { SlipLockRpc } from '../durable-objects/slip-lock-protocol';
import type { OAuthGrantRpc } from '../durable-objects/oauth-grant-protocol';
import type { AccountingQueueRpc } from '../durable-objects/accounting-queue-protocol';
import { createLogger } from './lib/logger';

/** Bindings and configuration of the Worker. Secrets come from `.dev.vars` locally and `wrangler secret put` in deployments. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  /** Static assets (public/, `[assets]` in wrangler.toml): the PDF font files (lib/pdf-fonts.ts). */
  ASSETS: Fetcher;
  /** One InventoryLock object per inventory item (typed by its RPC protocol, not its class: no import cycle). */
  INVENTORY_LOCK: DurableObjectNamespace<InventoryLockRpc>;
  /** One RateLimiter object per credential. */
  RATE_LIMITER: DurableObjectNamespace<RateLimiterRpc>;
  /** One lock object per marina unit (slip reservations, transfers, date changes). */
  SLIP_LOCK: DurableObjectNamespace<SlipLockRpc>;
  /** One object per OAuth grant: its code and token hashes, rotated atomically. */
  OAUTH_GRANT: DurableObjectNamespace<OAuthGrantRpc>;
  /** Queue messages are `{ kind, ...fields }` (lib/module.ts QueueMessage; spelled out here so env.ts imports no module machinery). */
  EVENTS_QUEUE: Queue<{ kind: string; [field: string]: unknown }>;
  /** One AccountingQueue object per operator: journal exports sent at the accounting provider's pace. */
  ACCOUNTING_QUEUE: DurableObjectNamespace<AccountingQueueRpc>;

  ENVIRONMENT: 'development' | 'test' | 'staging' | 'production';
  /** `debug`, `info` (default), `warn` or `error`: log lines under this level are dropped. */
  LOG_LEVEL?: string;
  /** Identity provider: issuer and audience checked on every bearer token. */
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  /** Production: the identity provider's JWKS URL (RS256/ES256). */
  JWKS_URL?: string;
  /** Development only: HS256 secret for locally issued tokens. Ignored in production. */
  JWT_SECRET?: string;
  /** Payment provider secret key; without it the offline simulator runs. */
  STRIPE_SECRET_KEY?: string;
  /** Payment provider secret key of the Canadian platform account (`stripeRegion: "CA"`); defaults to STRIPE_SECRET_KEY. */
  STRIPE_SECRET_KEY_CA?: string;
  /** Signing secret of the payment provider's webhooks (`whsec_...`); without it POST /public/gift-card/webhook answers 400. */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Berth's own staff: the platform key sent as `x-platform-key` (a role apart from operators' admins). */
  PLATFORM_API_KEY?: string;
  /** Payment provider publishable key: the booking widget's card form (the provider's payment element) uses it. */
  STRIPE_PUBLISHABLE_KEY?: string;
  /** Key (base64, 32 bytes) for AES-GCM payloads of the public widget endpoint. */
  WIDGET_ENCRYPTION_KEY?: string;
  /** Geocoder (optional; without it addresses are stored without coordinates). */
  GEOCODER_API_KEY?: string;
  /** Telephony provider (optional; without it numbers and calls are simulated). */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  /** SMS sender (with the Twilio account above): a Twilio number in E.164 or a messaging service SID; without one SMS go to the outbox. */
  TWILIO_FROM_NUMBER?: string;
  TWILIO_MESSAGING_SERVICE_SID?: string;
  /** E-mail provider (Postmark server token) and sender (a Postmark sender signature); without the token e-mails go to the outbox. */
  POSTMARK_SERVER_TOKEN?: string;
  POSTMARK_MESSAGE_STREAM?: string;
  EMAIL_FROM?: string;
  /** Identity provider management API (optional; without it invitations are recorded only). */
  IDP_DOMAIN?: string;
  IDP_MANAGEMENT_TOKEN?: string;
  /**
   * Partner platform: the private signing keys of embedded session tokens, as a JWK set
   * (`{"keys":[{...ES256 or RS256 private JWK with kid...}]}`); the first key signs, all are
   * published at /.well-known/jwks.json. Required in staging and production; development
   * generates one key and keeps it in D1.
   */
  OAUTH_SIGNING_KEYS?: string;
  /** Client id of Berth's consent page at the identity provider (IDP_DOMAIN): operators sign in there before authorizing an app. */
  IDP_CLIENT_ID?: string;
  /** Development only: password of the seeded demo partner account and client secret of its app. */
  DEMO_PARTNER_PASSWORD?: string;
  DEMO_APP_CLIENT_SECRET?: string;
  /**
   * Coverage: AES-GCM key (base64, 32 bytes) that encrypts the offerings' signing secrets at rest.
   * Required in staging and production; development and tests use a fixed development key.
   */
  COVERAGE_ENCRYPTION_KEY?: string;
  /** Development only: signing secret of the seeded sandbox coverage offering (the reference underwriter). */
  DEMO_COVERAGE_SIGNING_SECRET?: string;
  /** Integrations: AES-GCM key (base64, 32 bytes) for stored provider credentials and signed OAuth state (development has a fixed default). */
  INTEGRATIONS_ENCRYPTION_KEY?: string;
  /** `on`: development and tests call the real providers (with their secrets) instead of the offline simulators. */
  INTEGRATIONS_LIVE?: string;
  /** The dashboard the OAuth callbacks send the user back to (default http://localhost:5173). */
  FRONTEND_URL?: string;
  /** Calendar sync (Google Calendar OAuth client); without it development simulates the provider. */
  GOOGLE_CALENDAR_CLIENT_ID?: string;
  GOOGLE_CALENDAR_CLIENT_SECRET?: string;
  /** Accounting (Wave OAuth application); without it development simulates the provider. */
  ACCOUNTING_CLIENT_ID?: string;
  ACCOUNTING_CLIENT_SECRET?: string;
  /** Tour marketplace API base (availability notifications sent with each operator's outbound key). */
  MARKETPLACE_API_URL?: string;
  /** Signing secret of check-in QR tokens and renter one-time codes (optional: derived from WIDGET_ENCRYPTION_KEY otherwise). */
  RENTER_TOKEN_SECRET?: string;
  /** Workers AI binding (optional; without it the AI helpers answer from the operator's data with deterministic rules). */
  AI?: Ai;
  /** Cloudflare Images binding (optional): makes the photo variants; without it the Worker resizes JPEG and PNG itself (adapters/images.ts). */
  IMAGES?: ImagesBinding;
  /** Workers AI text model (default @cf/meta/llama-3.1-8b-instruct). */
  AI_MODEL?: string;
  /** Workers AI vision model for receipts, licences and check-in photos (default @cf/meta/llama-3.2-11b-vision-instruct). */
  AI_VISION_MODEL?: string;
  /** Apple Wallet passes (wallet-pass-a): pass type certificate and key (PEM, unencrypted PKCS#8), Apple WWDR certificate (PEM), ids. */
  APPLE_PASS_CERT_PEM?: string;
  APPLE_PASS_KEY_PEM?: string;
  APPLE_WWDR_CERT_PEM?: string;
  APPLE_PASS_TYPE_ID?: string;
  APPLE_TEAM_ID?: string;
  /** Google Wallet passes (wallet-pass-b): issuer id, service account e-mail and its private key (PEM, PKCS#8). */
  GOOGLE_WALLET_ISSUER_ID?: string;
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL?: string;
  GOOGLE_WALLET_PRIVATE_KEY_PEM?: string;
  /** Development only: token that allows POST /__dev/seed. */
  DEV_SEED_TOKEN?: string;
  /**
   * Development only, off unless `on`: partners' URLs (app webhooks, coverage baseUrl) may point at
   * this machine, for the partner CLI's local loops (`berth webhook trigger` to a local receiver,
   * `berth coverage dev`). The machine's owner turns it on; a self-registered partner never can.
   */
  DEV_PARTNER_LOOPBACK?: string;
  DEMO_API_KEY?: string;
  OTHER_API_KEY?: string;
  DEMO_CHANNEL_TEST_KEY?: string;
  /** Sandbox integrations: Demo Marina's tour-marketplace key, its GPS tracker key and its operator calendar feed token. */
  DEMO_MARKETPLACE_KEY?: string;
  DEMO_GPS_DEVICE_KEY?: string;
  DEMO_CALENDAR_FEED_TOKEN?: string;
  PUBLIC_BASE_URL?: string;
  /** `off` stops the cron job that seeds the sandbox tenant when it is missing (the test pool sets it). */
  SANDBOX_AUTOSEED?: string;
  /**
   * Where new InventoryLock objects are created (a Durable Object location hint: wnam, enam, sam,
   * weur, eeur, apac, oc, afr, me). Set it to the D1 database's region: every reserve reads D1 once
   * from inside the lock. Without it an object is created near the Worker that first calls it.
   */
  LOCK_LOCATION_HINT?: DurableObjectLocationHint;
}

export const isProduction = (env: Env) => env.ENVIRONMENT === 'production' || env.ENVIRONMENT === 'staging';

const optional = <T extends z.ZodType>(t: T) => t.optional();
const base64Key32 = z.string().refine((v) => {
  try {
    return atob(v).length === 32;
  } catch {
    return false;
  }
}, 'must be 32 bytes in base64');

/** A JSON Web Key Set of private signing keys, each with `kid` and `d`. */
const signingKeys = z.string().refine((v) => {
  try {
    const set = JSON.parse(v) as { keys?: { kid?: unknown; d?: unknown }[] };
    return Array.isArray(set.keys) && set.keys.length > 0 && set.keys.every((k) => typeof k.kid === 'string' && typeof k.d === 'string');
  } catch {
    return false;
  }
}, 'must be a JSON Web Key Set of private keys, each with a kid');

/** What every environment needs, and the format of what is optional. */
const Common = z.object({
  ENVIRONMENT: z.enum(['development', 'test', 'staging', 'production']),
  LOG_LEVEL: optional(z.enum(['debug', 'info', 'warn', 'error'])),
  JWT_ISSUER: z.string().url(),
  JWT_AUDIENCE: z.string().min(1),
  JWKS_URL: optional(z.string().url()),
  JWT_SECRET: optional(z.string().min(16)),
  STRIPE_SECRET_KEY: optional(z.string().regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_... or rk_...)')),
  WIDGET_ENCRYPTION_KEY: optional(base64Key32),
  STRIPE_SECRET_KEY_CA: optional(z.string().regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_... or rk_...)')),
  STRIPE_WEBHOOK_SECRET: optional(z.string().regex(/^whsec_/, 'must be a webhook signing secret (whsec_...)')),
  PLATFORM_API_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
  PUBLIC_BASE_URL: optional(z.string().url()),
  GEOCODER_API_KEY: optional(z.string().min(1)),
  TWILIO_ACCOUNT_SID: optional(z.string().regex(/^AC[0-9a-f]{32}$/i, 'must be a Twilio account SID (AC...)')),
  TWILIO_AUTH_TOKEN: optional(z.string().min(16)),
  TWILIO_FROM_NUMBER: optional(z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 (+15551234567)')),
  TWILIO_MESSAGING_SERVICE_SID: optional(z.string().regex(/^MG[0-9a-f]{32}$/i, 'must be a Twilio messaging service SID (MG...)')),
  POSTMARK_SERVER_TOKEN: optional(z.string().min(8)),
  POSTMARK_MESSAGE_STREAM: optional(z.string().min(1).max(100)),
  EMAIL_FROM: optional(z.string().min(3).max(200)),
  IDP_DOMAIN: optional(z.string().min(1)),
  IDP_MANAGEMENT_TOKEN: optional(z.string().min(1)),
  OAUTH_SIGNING_KEYS: optional(signingKeys),
  IDP_CLIENT_ID: optional(z.string().min(1)),
  LOCK_LOCATION_HINT: optional(z.enum(['wnam', 'enam', 'sam', 'weur', 'eeur', 'apac', 'oc', 'afr', 'me'])),
  COVERAGE_ENCRYPTION_KEY: optional(base64Key32),
  INTEGRATIONS_ENCRYPTION_KEY: optional(base64Key32),
  INTEGRATIONS_LIVE: optional(z.enum(['on', 'off'])),
  FRONTEND_URL: optional(z.string().url()),
  GOOGLE_CALENDAR_CLIENT_ID: optional(z.string().min(8)),
  GOOGLE_CALENDAR_CLIENT_SECRET: optional(z.string().min(8)),
  ACCOUNTING_CLIENT_ID: optional(z.string().min(8)),
  ACCOUNTING_CLIENT_SECRET: optional(z.string().min(8)),
  MARKETPLACE_API_URL: optional(z.string().url()),
  RENTER_TOKEN_SECRET: optional(z.string().min(32)),
  STRIPE_PUBLISHABLE_KEY: optional(z.string().regex(/^pk_(test|live)_/, 'must be a Stripe publishable key (pk_...)')),
  AI_MODEL: optional(z.string().regex(/^@cf\/[\w.\-/]+$/, 'must be a Workers AI model name (@cf/...)')),
  AI_VISION_MODEL: optional(z.string().regex(/^@cf\/[\w.\-/]+$/, 'must be a Workers AI model name (@cf/...)')),
  APPLE_PASS_CERT_PEM: optional(z.string().includes('BEGIN CERTIFICATE')),
  APPLE_PASS_KEY_PEM: optional(z.string().includes('BEGIN PRIVATE KEY')),
  APPLE_WWDR_CERT_PEM: optional(z.string().includes('BEGIN CERTIFICATE')),
  APPLE_PASS_TYPE_ID: optional(z.string().regex(/^pass\.[\w.-]+$/, 'must be a pass type identifier (pass.com.example...)')),
  APPLE_TEAM_ID: optional(z.string().regex(/^[A-Z0-9]{10}$/, 'must be a 10-character team id')),
  GOOGLE_WALLET_ISSUER_ID: optional(z.string().regex(/^\d{10,25}$/, 'must be the numeric issuer id')),
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: optional(z.string().email()),
  GOOGLE_WALLET_PRIVATE_KEY_PEM: optional(z.string().includes('BEGIN PRIVATE KEY')),
});

/** Staging and production: the identity provider, the payment provider and the widget key are required. */
const Deployed = Common.extend({
  JWKS_URL: z.string().url(),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_... or rk_...)'),
  WIDGET_ENCRYPTION_KEY: base64Key32,
  OAUTH_SIGNING_KEYS: signingKeys,
  COVERAGE_ENCRYPTION_KEY: base64Key32,
  INTEGRATIONS_ENCRYPTION_KEY: base64Key32,
});

export class ConfigError extends Error {}

let checked: { ok: true } | { ok: false; message: string } | undefined;

/**
 * Checks the configuration once per isolate. In staging and production a missing or malformed
 * secret stops the Worker with a message naming it (every request answers 503 with that message
 * and the error is logged) instead of failing at its first use.
 */
export function checkConfig(env: Env): void {
  if (!checked) {
    const parsed = (isProduction(env) ? Deployed : Common).safeParse(env);
    if (parsed.success) checked = { ok: true };
    else {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.input === undefined ? 'missing' : i.message}`);
      checked = { ok: false, message: `Configuration error: ${problems.join('; ')}` };
      createLogger({ component: 'config' }).error(checked.message);
    }
  }
  if (!checked.ok) throw new ConfigError(checked.message);
}
