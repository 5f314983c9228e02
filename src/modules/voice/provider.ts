/** The context webhooks of the telephony provider run in: the provider, acting for the operator whose number was called. */
import type { Ctx, Principal } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';

/**
 * Calls to other modules (e-mail, renters) are made under this principal, on the operator's clock
 * (the provider's request learns its operator from the number called, after it began).
 */
export async function providerCtx(ctx: Ctx, customerId: string): Promise<Ctx> {
  const principal: Principal = { kind: 'system', credentialId: 'telephony', userId: null, customerId, role: null, permissions: [], plan: 'enterprise' };
  return onOperatorClock({ ...ctx, principal }, customerId);
}
