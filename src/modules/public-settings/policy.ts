/**
 * The operator's renter cancellation policy, read from the location's `details.cancellationPolicy`
 * (PATCH /location), else the account's `settings.cancellationPolicy`, else the default:
 *
 *   { allowRenterCancellation: boolean,          // false: renters must contact the operator
 *     cutoffHours: number,                       // renters cannot cancel online this close to the start
 *     tiers: [{ hoursBefore, refundPercent }],   // the first tier the cancellation is early enough for
 *     description: string }
 *
 * Default: renters may cancel online until the start; full refund 24 hours or more before it, none after.
 */
import { z } from 'zod';

export interface RefundTier {
  hoursBefore: number;
  refundPercent: number;
}

export interface CancellationPolicy {
  allowRenterCancellation: boolean;
  cutoffHours: number;
  tiers: RefundTier[];
  description: string;
  source: 'location' | 'account' | 'default';
}

const Stored = z.object({
  allowRenterCancellation: z.boolean().optional(),
  cutoffHours: z
    .number()
    .min(0)
    .max(24 * 365)
    .optional(),
  tiers: z
    .array(
      z.object({
        hoursBefore: z
          .number()
          .min(0)
          .max(24 * 365),
        refundPercent: z.number().min(0).max(100),
      }),
    )
    .max(10)
    .optional(),
  description: z.string().max(2000).optional(),
});

export const DEFAULT_TIERS: RefundTier[] = [
  { hoursBefore: 24, refundPercent: 100 },
  { hoursBefore: 0, refundPercent: 0 },
];

function describe(tiers: RefundTier[], cutoffHours: number, allowed: boolean): string {
  if (!allowed) return 'Online cancellation is not available; please contact us.';
  const parts = tiers.map((t) =>
    t.hoursBefore > 0 ? `${t.refundPercent}% refund when cancelled at least ${t.hoursBefore} hours before the start` : `${t.refundPercent}% refund after that`,
  );
  const cutoff = cutoffHours > 0 ? ` Online cancellation closes ${cutoffHours} hours before the start.` : '';
  return `${parts.join('; ')}.${cutoff}`;
}

/** The effective policy of a location (its own, else the account's, else the default); malformed settings fall back to the default. */
export function cancellationPolicyOf(locationDetails: Record<string, unknown> | null | undefined, accountSettings: Record<string, unknown> | null | undefined) {
  const candidates: [CancellationPolicy['source'], unknown][] = [
    ['location', locationDetails?.cancellationPolicy],
    ['account', accountSettings?.cancellationPolicy],
  ];
  for (const [source, raw] of candidates) {
    if (raw == null) continue;
    const p = Stored.safeParse(raw);
    if (!p.success) continue;
    const tiers = [...(p.data.tiers?.length ? p.data.tiers : DEFAULT_TIERS)].sort((a, b) => b.hoursBefore - a.hoursBefore);
    const allowed = p.data.allowRenterCancellation ?? true;
    const cutoffHours = p.data.cutoffHours ?? 0;
    return { allowRenterCancellation: allowed, cutoffHours, tiers, description: p.data.description ?? describe(tiers, cutoffHours, allowed), source };
  }
  return { allowRenterCancellation: true, cutoffHours: 0, tiers: DEFAULT_TIERS, description: describe(DEFAULT_TIERS, 0, true), source: 'default' as const };
}

/** The refund percentage for a cancellation `hoursBefore` the start (0 when no tier applies). */
export function refundPercentAt(policy: CancellationPolicy, hoursBefore: number): number {
  const tier = policy.tiers.find((t) => hoursBefore >= t.hoursBefore);
  return tier ? tier.refundPercent : 0;
}
