import type { Env } from '../../env';
import { getDb } from '../../db/client';
import { PaymentSimulator } from './simulator';
import { StripePayments } from './stripe';
import type { PaymentsPort } from './types';

export * from './types';
export { TEST_TOKENS } from './simulator';

/** The payment provider for this deployment: Stripe when a secret key is configured, else the simulator. */
export function payments(env: Env): PaymentsPort {
  return env.STRIPE_SECRET_KEY ? new StripePayments(env.STRIPE_SECRET_KEY) : new PaymentSimulator(getDb(env.DB));
}
