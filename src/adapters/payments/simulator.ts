/**
 * The offline payment provider, the entry other code imports. Its parts are one class each, in a
 * chain: simulator-customers.ts (customers, payment methods, the test tokens; the base with the D1
 * handle) <- simulator-accounts.ts (connected accounts, transfers) <- simulator-intents.ts
 * (payment intents, refunds) <- simulator-billing.ts (subscriptions, checkouts, billing portal).
 */
import type { PaymentsPort } from './types';
import { SimulatorBilling } from './simulator-billing';

export { TEST_TOKENS } from './simulator-customers';

/** Offline payment provider: keeps its objects in D1 and honours the test tokens (simulator-customers.ts). */
export class PaymentSimulator extends SimulatorBilling implements PaymentsPort {
  readonly mode = 'simulator' as const;
}
