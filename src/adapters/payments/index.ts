import type { Env } from '../../env';
import { getDb } from '../../db/client';
import { wallClock, type Clock } from '../../lib/clock';
import { PaymentSimulator } from './simulator';
import { StripePayments } from './stripe';
import type { PaymentsPort } from './types';

export * from './types';
export { TEST_TOKENS } from './simulator';
export { verifyWebhookSignature, signWebhookPayload } from './webhook';

/** Platform accounts of the provider: `US` (default) or `CA` (`stripeRegion`). */
export type PaymentRegion = 'US' | 'CA';

/**
 * The payment provider for this deployment: Stripe when a secret key is configured, else the
 * simulator. Given a context (`payments(ctx)`), the simulator stamps its objects with the caller's
 * clock (a sandbox test clock's operator sees intents, customers and subscriptions at its clock's
 * time, as a provider's test clock would); given only `env`, with the provider's own real time.
 */
export function payments(from: Env | { env: Env; clock: Clock }, region: PaymentRegion = 'US'): PaymentsPort {
  const caller = 'clock' in from && 'env' in from ? from : null;
  const env = caller ? caller.env : (from as Env);
  const key = region === 'CA' ? (env.STRIPE_SECRET_KEY_CA ?? env.STRIPE_SECRET_KEY) : env.STRIPE_SECRET_KEY;
  // Without a caller's clock the simulated provider keeps its own time: real time.
  return key ? new StripePayments(key) : new PaymentSimulator(getDb(env.DB), region, caller?.clock ?? wallClock);
}
