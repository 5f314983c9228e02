import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { appInstallations, oauthGrants } from '../../db/schema/oauth';
import { customers, users } from '../../db/schema/accounts';
import { partnerApps } from '../../db/schema/partners';

/**
 * Everything the gateway's principal needs, by the grant id an access token carries: the grant's
 * installation, its user with the user's operator, and its app (null when deleted). One read,
 * made in parallel with the grant object's token check (the token's validity stays with the
 * object: this read only says who the grant acts for). Every row belongs to the grant's operator
 * or to the global app catalogue: no join crosses operators.
 */
export async function grantPrincipalRow(ctx: Ctx, grantId: string) {
  return ctx.db
    .select({ installation: appInstallations, user: users, customer: customers, app: partnerApps })
    .from(oauthGrants)
    .innerJoin(appInstallations, and(eq(appInstallations.id, oauthGrants.installationId), eq(appInstallations.customerId, oauthGrants.customerId)))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .innerJoin(customers, eq(customers.id, users.customerId))
    .leftJoin(partnerApps, and(eq(partnerApps.id, oauthGrants.appId), isNull(partnerApps.deletedAt)))
    .where(eq(oauthGrants.id, grantId))
    .get();
}

export type GrantPrincipalRow = NonNullable<Awaited<ReturnType<typeof grantPrincipalRow>>>;
