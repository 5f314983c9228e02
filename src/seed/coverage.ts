import type { Env } from '../env';
import { systemCtx } from '../lib/context';
import { SEED, type SeedStep } from './types';
import { DEMO_PARTNER } from './partners';
import { ensureSandboxCoverage } from '../modules/coverage/service';

/** Fixed ids of the sandbox's coverage (README and docs refer to them). */
export const DEMO_COVERAGE = {
  offeringId: 'cov_demo_reference_cover',
  miamiEnablementId: 'cen_demo_miami_reference',
  hamburgEnablementId: 'cen_demo_hamburg_reference',
};

/**
 * Embedded coverage in the sandbox: the demo partner's offering "Reference Boat Cover", served by
 * the in-process reference underwriter, enabled at Demo Marina Miami and Hamburg. A quote for a
 * Miami or Hamburg rental shows its card at once.
 */
async function seedCoverage(env: Env): Promise<boolean> {
  return ensureSandboxCoverage(systemCtx(env, { customerId: SEED.demo.customerId }), {
    offeringId: DEMO_COVERAGE.offeringId,
    partnerId: DEMO_PARTNER.partnerId,
    customerId: SEED.demo.customerId,
    enablements: { [SEED.demo.miamiId]: DEMO_COVERAGE.miamiEnablementId, [SEED.demo.hamburgId]: DEMO_COVERAGE.hamburgEnablementId },
    secret: env.DEMO_COVERAGE_SIGNING_SECRET,
  });
}

export const coverageSeed: SeedStep = { name: 'coverage', run: seedCoverage };
