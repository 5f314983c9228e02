/** The context webhooks of the telephony provider run in: the provider, acting for the operator whose number was called. */
import type { Ctx, Principal } from '../../lib/context';

/** Calls to other modules (e-mail, renters) are made under this principal. */
export function providerCtx(ctx: Ctx, customerId: string): Ctx {
  const principal: Principal = { kind: 'system', credentialId: 'telephony', userId: null, customerId, role: null, permissions: [], plan: 'enterprise' };
  return { ...ctx, principal };
}
