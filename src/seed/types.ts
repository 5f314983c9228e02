import type { Env } from '../env';
import type { Ctx } from '../lib/context';

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

export const MIAMI_TZ = 'America/New_York';
export const HAMBURG_TZ = 'Europe/Berlin';

/**
 * One operator seeded with the demo data: Demo Marina itself (tag `demo`, the fixed ids above) or a
 * private sandbox operator. Every id of its records is Demo Marina's fixed id with `demo` replaced by
 * the operator's tag (`inv_demo_pontoon` -> `inv_<tag>_pontoon`), so two operators never collide.
 */
export interface DemoOperator {
  /** Replaces `demo` in Demo Marina's fixed ids: `demo`, or a short tag of the customer id. */
  tag: string;
  customerId: string;
  name: string;
  email: string;
  adminId: string;
  captainId: string;
  coachId: string;
  miamiId: string;
  hamburgId: string;
}

/** An id of an operator's demo record: `<prefix>_<tag>_<rest>` (`inv_demo_pontoon` for Demo Marina). */
export const demoId = (op: { tag: string }, prefix: string, rest: string) => `${prefix}_${op.tag}_${rest}`;

/** An e-mail address of an operator's demo staff (unique across the platform, as user e-mails must be). */
export const demoEmail = (op: { tag: string }, local: string) => (op.tag === 'demo' ? `${local}@demo-marina.test` : `${local}+${op.tag}@demo-marina.test`);

/**
 * The short tag of a customer id: its last ten letters and digits, lower-cased. A generated id ends
 * in the random part of a ULID, so two operators' tags differ.
 */
export function tagOf(customerId: string): string {
  const tag = customerId
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(-10);
  if (!tag) throw new Error(`seed: no tag in customer id ${JSON.stringify(customerId)}`);
  return tag;
}

/** The ids of an operator's demo accounts. */
export function demoOperator(customerId: string, opts: { tag?: string; name?: string; email?: string } = {}): DemoOperator {
  const op = { tag: opts.tag ?? tagOf(customerId) };
  return {
    ...op,
    customerId,
    name: opts.name ?? 'Demo Marina',
    email: opts.email ?? demoEmail(op, 'owner'),
    adminId: demoId(op, 'usr', 'admin'),
    captainId: demoId(op, 'usr', 'captain'),
    coachId: demoId(op, 'usr', 'coach'),
    miamiId: demoId(op, 'loc', 'miami'),
    hamburgId: demoId(op, 'loc', 'hamburg'),
  };
}

/** Demo Marina: the fixed ids of SEED.demo. */
export const DEMO_OPERATOR: DemoOperator = demoOperator(SEED.demo.customerId, { tag: 'demo' });

/** One idempotent seed step of Demo Marina (`seedSandbox`); answers whether it wrote anything. */
export type SeedStep = { name: string; run: (env: Env) => Promise<boolean> };

/**
 * One idempotent seed step of an operator's own demo data, for Demo Marina or a private operator:
 * `ctx` acts for `op.customerId` on the operator's clock (every time it writes is relative to
 * `ctx.clock`). Answers whether it wrote anything.
 */
export type OperatorSeedStep = { name: string; run: (ctx: Ctx, op: DemoOperator) => Promise<boolean> };
