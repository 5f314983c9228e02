import type { InventoryLock } from '../durable-objects/inventory-lock';
import type { RateLimiter } from '../durable-objects/rate-limiter';

/** Bindings and configuration of the Worker. Secrets come from `.dev.vars` locally and `wrangler secret put` in deployments. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  INVENTORY_LOCK: DurableObjectNamespace<InventoryLock>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  EVENTS_QUEUE: Queue<QueueMessage>;

  ENVIRONMENT: 'development' | 'test' | 'staging' | 'production';
  /** Identity provider: issuer and audience checked on every bearer token. */
  JWT_ISSUER: string;
  JWT_AUDIENCE: string;
  /** Production: the identity provider's JWKS URL (RS256/ES256). */
  JWKS_URL?: string;
  /** Development only: HS256 secret for locally issued tokens. Ignored in production. */
  JWT_SECRET?: string;
  /** Payment provider secret key; without it the offline simulator runs. */
  STRIPE_SECRET_KEY?: string;
  /** Key (base64, 32 bytes) for AES-GCM payloads of the public widget endpoint. */
  WIDGET_ENCRYPTION_KEY?: string;
  /** Development only: token that allows POST /__dev/seed. */
  DEV_SEED_TOKEN?: string;
  DEMO_API_KEY?: string;
  OTHER_API_KEY?: string;
  DEMO_CHANNEL_TEST_KEY?: string;
  PUBLIC_BASE_URL?: string;
}

/** Messages carried by the events queue. */
export type QueueMessage = { kind: 'webhook.fanout'; eventId: string } | { kind: 'webhook.deliver'; deliveryId: string };

export const isProduction = (env: Env) => env.ENVIRONMENT === 'production' || env.ENVIRONMENT === 'staging';
