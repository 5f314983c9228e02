import type { Env } from '../env';

/** Fixed ids of the sandbox tenants, so links in the README and docs stay valid. */
export const SEED = {
  demo: {
    customerId: 'cus_demo_marina',
    adminId: 'usr_demo_admin',
    captainId: 'usr_demo_captain',
    coachId: 'usr_demo_coach',
    miamiId: 'loc_demo_miami',
    hamburgId: 'loc_demo_hamburg',
  },
  other: { customerId: 'cus_other_rentals', adminId: 'usr_other_admin', locationId: 'loc_other_tahoe' },
} as const;

/** One idempotent seed step; answers whether it wrote anything. */
export type SeedStep = { name: string; run: (env: Env) => Promise<boolean> };
