import type { Env } from '../../env';
import { getDb } from '../../db/client';
import { PaymentSimulator } from './simulator';
import { StripePayments } from './stripe';
import type { PaymentsPort } from './types';

export * from './types';
export { TEST_TOKENS } from './simulator';
export { verifyWebhookSignature, signWebhookPayload } from './webhook';

/** Platform accounts of the provider: `US` (default) or `CA` (`stripeRegion`). */
export type PaymentRegion = 'US' | 'CA';

/** The payment provider for this deployment: Stripe when a secret key is configured, else the simulator. */
export function payments(env: Env, region: PaymentRegion = 'US'): PaymentsPort {
  const key = region === 'CA' ? (env.STRIPE_SECRET_KEY_CA ?? env.STRIPE_SECRET_KEY) : env.STRIPE_SECRET_KEY;
  return key ? new StripePayments(key) : new PaymentSimulator(getDb(env.DB), region);
}
