/**
 * The sandbox's coverage: an offering of the demo partner served by the in-process reference
 * underwriter (`https://reference-underwriter.berth.invalid`), a draft usable in the sandbox at
 * once, enabled at the demo operator's locations. Idempotent (fixed ids).
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { coverageEnablements, coverageOfferings } from '../../db/schema/coverage';
import { REFERENCE_HOST } from '../../adapters/underwriter';
import { newSigningSecret, secretInsert } from './secrets';

export interface SandboxCoverage {
  offeringId: string;
  partnerId: string;
  customerId: string;
  /** Location id -> enablement id. */
  enablements: Record<string, string>;
  /** The signing secret (DEMO_COVERAGE_SIGNING_SECRET in development; otherwise a random one nobody needs: the underwriter is in-process). */
  secret?: string;
}

export async function ensureSandboxCoverage(ctx: Ctx, s: SandboxCoverage): Promise<boolean> {
  let wrote = false;
  const existing = await ctx.db.select({ id: coverageOfferings.id }).from(coverageOfferings).where(eq(coverageOfferings.id, s.offeringId)).get();
  if (!existing) {
    await ctx.db.batch([
      ctx.db.insert(coverageOfferings).values({
        id: s.offeringId,
        partnerId: s.partnerId,
        name: 'Reference Boat Cover',
        supportEmail: 'claims@reference-underwriter.example',
        baseUrl: `https://${REFERENCE_HOST}`,
        supportedCountries: ['US', 'DE'],
        currencies: ['usd', 'eur'],
        quoteTimeoutMs: 2000,
        enabled: true,
        status: 'draft',
      }),
      (await secretInsert(ctx, s.offeringId, s.secret ?? newSigningSecret())).stmt,
    ]);
    wrote = true;
  }
  for (const [locationId, id] of Object.entries(s.enablements)) {
    const row = await ctx.db.select({ id: coverageEnablements.id }).from(coverageEnablements).where(eq(coverageEnablements.id, id)).get();
    if (row) continue;
    await ctx.db.insert(coverageEnablements).values({ id, customerId: s.customerId, locationId, offeringId: s.offeringId }).onConflictDoNothing();
    wrote = true;
  }
  return wrote;
}
