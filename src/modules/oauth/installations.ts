import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Ctx, Principal } from '../../lib/context';
import { requireAdmin, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import type { Stmt } from '../../db/client';
import { appInstallations, oauthGrants } from '../../db/schema/oauth';
import { effectiveManifest, expandEvents, findApp, getPartner, requirePartner, type AppRow } from '../partners/service';
import { findUserWithCustomer } from '../users/service';
import { syncOwnedEndpoint } from '../webhooks/service';
import { getLocationInTenant } from '../locations/service';
import { grantIdOf, SESSION_TOKEN_TTL_S, type GrantInfo, type GrantInit } from './types';
import { signSessionToken } from './keys';
import { grantPrincipalRow, type GrantPrincipalRow } from './queries';

export type InstallationRow = typeof appInstallations.$inferSelect;
type GrantRow = typeof oauthGrants.$inferSelect;

export const grantStub = (ctx: Ctx, grantId: string) => ctx.env.OAUTH_GRANT.get(ctx.env.OAUTH_GRANT.idFromName(grantId));

function installationOut(i: InstallationRow, app: AppRow | undefined, extra: { activeGrants?: number; partnerName?: string } = {}) {
  const manifest = app ? effectiveManifest(app, i.sandbox) : null;
  return {
    installationId: i.id,
    customerId: i.customerId,
    appId: i.appId,
    appName: manifest?.name ?? app?.name ?? null,
    partnerName: extra.partnerName ?? null,
    status: i.status,
    sandbox: i.sandbox,
    scopes: i.scopes,
    embedUrl: i.status === 'active' ? (manifest?.urls.embed ?? null) : null,
    embedLocations: manifest?.embedLocations ?? [],
    installedBy: i.installedBy,
    installedAt: i.installedAt,
    uninstalledAt: i.uninstalledAt,
    activeGrants: extra.activeGrants ?? 0,
  };
}

/** The booking-event endpoint of an installation: the app's webhook URL, if it subscribes and the installation may read bookings. */
async function syncEndpoint(ctx: Ctx, inst: InstallationRow, app: AppRow | undefined): Promise<void> {
  const manifest = app && !app.deletedAt && inst.status === 'active' ? effectiveManifest(app, inst.sandbox) : null;
  const wanted =
    app && manifest?.webhooks.url && manifest.webhooks.events.length && inst.scopes.includes('read:bookings')
      ? {
          customerId: inst.customerId,
          url: manifest.webhooks.url,
          events: expandEvents(manifest.webhooks.events),
          secret: app.webhookSecret,
          description: `App ${manifest.name}`,
        }
      : null;
  await syncOwnedEndpoint(ctx, { type: 'app', id: inst.id }, wanted);
}

/**
 * Records the consent: the installation (created, reactivated, or its scopes widened), a new
 * grant row, and the grant's Durable Object holding the authorization code's hash.
 */
export async function recordConsent(
  ctx: Ctx,
  p: {
    app: AppRow;
    customerId: string;
    userId: string;
    sandbox: boolean;
    scopes: string[];
    redirectUri: string;
    challenge: string | null;
    code: { hash: string; expiresAt: number; grantId: string };
  },
): Promise<InstallationRow> {
  // The operator is known from the consent: its clock stamps the installation.
  ctx = await onOperatorClock(ctx, p.customerId);
  const now = nowIso(ctx);
  const existing = await ctx.db
    .select()
    .from(appInstallations)
    .where(and(eq(appInstallations.customerId, p.customerId), eq(appInstallations.appId, p.app.id)))
    .get();
  const scopes = [...new Set([...(existing?.status === 'active' ? existing.scopes : []), ...p.scopes])].sort();
  const inst: InstallationRow = existing
    ? {
        ...existing,
        status: 'active',
        sandbox: p.sandbox,
        scopes,
        ...(existing.status === 'active' ? {} : { installedBy: p.userId, installedAt: now, uninstalledAt: null, uninstalledBy: null }),
        updatedAt: now,
      }
    : {
        id: newId('ins'),
        customerId: p.customerId,
        appId: p.app.id,
        status: 'active',
        sandbox: p.sandbox,
        scopes,
        installedBy: p.userId,
        installedAt: now,
        uninstalledAt: null,
        uninstalledBy: null,
        createdAt: now,
        updatedAt: now,
      };
  const stmts: Stmt[] = [
    existing
      ? ctx.db
          .update(appInstallations)
          .set({
            status: inst.status,
            sandbox: inst.sandbox,
            scopes: inst.scopes,
            installedBy: inst.installedBy,
            installedAt: inst.installedAt,
            uninstalledAt: inst.uninstalledAt,
            uninstalledBy: inst.uninstalledBy,
          })
          .where(and(eq(appInstallations.id, inst.id), eq(appInstallations.customerId, p.customerId)))
      : ctx.db.insert(appInstallations).values(inst),
    ctx.db.insert(oauthGrants).values({
      id: p.code.grantId,
      customerId: p.customerId,
      installationId: inst.id,
      appId: p.app.id,
      userId: p.userId,
      kind: 'authorization_code',
      scopes: p.scopes,
    }),
  ];
  await ctx.db.batch(stmts as [Stmt, ...Stmt[]]);
  const init: GrantInit = {
    grantId: p.code.grantId,
    kind: 'authorization_code',
    installationId: inst.id,
    appId: p.app.id,
    customerId: p.customerId,
    userId: p.userId,
    scopes: p.scopes,
    sandbox: p.sandbox,
    code: { hash: p.code.hash, expiresAt: p.code.expiresAt, redirectUri: p.redirectUri, challenge: p.challenge },
  };
  await grantStub(ctx, p.code.grantId).init(init);
  await syncEndpoint(ctx, inst, p.app);
  return inst;
}

/** Marks grants revoked in D1 (their objects already are, or are revoked by the caller). */
export async function markGrantsRevoked(ctx: Ctx, grantIds: string[], reason: string) {
  if (!grantIds.length) return;
  await ctx.db
    .update(oauthGrants)
    .set({ status: 'revoked', revokedAt: nowIso(ctx), revokedReason: reason })
    .where(and(inArray(oauthGrants.id, grantIds), eq(oauthGrants.status, 'active')));
}

/**
 * Uninstalls: the installation and every grant are marked in one batch (the gateway checks the
 * installation on every call, so tokens stop at once), then each grant object drops its tokens.
 */
async function uninstallRow(ctx: Ctx, inst: InstallationRow, reason: string, by: string | null): Promise<number> {
  const grants = await ctx.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.installationId, inst.id), eq(oauthGrants.status, 'active')))
    .all();
  const now = nowIso(ctx);
  await ctx.db.batch([
    ctx.db
      .update(appInstallations)
      .set({ status: 'uninstalled', uninstalledAt: now, uninstalledBy: by })
      .where(and(eq(appInstallations.id, inst.id), eq(appInstallations.customerId, inst.customerId))),
    ctx.db
      .update(oauthGrants)
      .set({ status: 'revoked', revokedAt: now, revokedReason: reason })
      .where(and(eq(oauthGrants.installationId, inst.id), eq(oauthGrants.status, 'active'))),
  ]);
  await Promise.all(grants.map((g) => grantStub(ctx, g.id).revoke(reason)));
  await syncOwnedEndpoint(ctx, { type: 'app', id: inst.id }, null);
  return grants.length;
}

async function installationInTenant(ctx: Ctx, installationId: string): Promise<InstallationRow> {
  const row = await ctx.db
    .select()
    .from(appInstallations)
    .where(and(eq(appInstallations.id, installationId), eq(appInstallations.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Installation');
  return row;
}

async function activeGrantCounts(ctx: Ctx, ids: string[]) {
  if (!ids.length) return new Map<string, number>();
  const rows = await ctx.db
    .select({ id: oauthGrants.installationId, n: count() })
    .from(oauthGrants)
    .where(and(inArray(oauthGrants.installationId, ids), eq(oauthGrants.status, 'active')))
    .groupBy(oauthGrants.installationId)
    .all();
  return new Map(rows.map((r) => [r.id, r.n]));
}

async function appsById(ctx: Ctx, ids: string[]) {
  const out = new Map<string, AppRow>();
  for (const id of [...new Set(ids)]) {
    const app = await findApp(ctx, id);
    if (app) out.set(id, app);
  }
  return out;
}

export async function listInstallations(ctx: Ctx, q: { status?: 'active' | 'uninstalled'; limit: number; offset: number }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const where = and(eq(appInstallations.customerId, customerId), q.status ? eq(appInstallations.status, q.status) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(appInstallations).where(where).orderBy(desc(appInstallations.installedAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(appInstallations).where(where).get(),
  ]);
  const [apps, counts] = await Promise.all([
    appsById(
      ctx,
      rows.map((r) => r.appId),
    ),
    activeGrantCounts(
      ctx,
      rows.map((r) => r.id),
    ),
  ]);
  const partners = new Map<string, string>();
  for (const a of apps.values()) if (!partners.has(a.partnerId)) partners.set(a.partnerId, (await getPartner(ctx, a.partnerId))?.name ?? '');
  return {
    data: rows.map((r) => {
      const app = apps.get(r.appId);
      return installationOut(r, app, { activeGrants: counts.get(r.id) ?? 0, partnerName: app ? partners.get(app.partnerId) : undefined });
    }),
    total: total?.n ?? 0,
    limit: q.limit,
    offset: q.offset,
  };
}

export async function getInstallation(ctx: Ctx, installationId: string) {
  requireAdmin(ctx);
  const row = await installationInTenant(ctx, installationId);
  const app = await findApp(ctx, row.appId);
  const counts = await activeGrantCounts(ctx, [row.id]);
  const partnerName = app ? ((await getPartner(ctx, app.partnerId))?.name ?? undefined) : undefined;
  return installationOut(row, app, { activeGrants: counts.get(row.id) ?? 0, partnerName });
}

/** Operator uninstall: every access and refresh token of the app on this operator stops at once. */
export async function uninstall(ctx: Ctx, installationId: string) {
  requireAdmin(ctx);
  const row = await installationInTenant(ctx, installationId);
  if (row.status !== 'active') return { success: true, installationId: row.id, alreadyUninstalled: true, revokedGrants: 0 };
  const revokedGrants = await uninstallRow(ctx, row, 'uninstalled by the operator', ctx.principal.userId ?? ctx.principal.credentialId);
  return { success: true, installationId: row.id, alreadyUninstalled: false, revokedGrants };
}

/** The app.changed hook: a deleted app is uninstalled everywhere; otherwise installations follow its webhook settings. */
export async function onAppChanged(ctx: Ctx, e: { appId: string; deleted: boolean }) {
  const rows = await ctx.db
    .select()
    .from(appInstallations)
    .where(and(eq(appInstallations.appId, e.appId), eq(appInstallations.status, 'active')))
    .all();
  if (e.deleted) {
    for (const r of rows) await uninstallRow(ctx, r, 'app deleted by its partner', null);
    return;
  }
  const app = await findApp(ctx, e.appId);
  for (const r of rows) await syncEndpoint(ctx, r, app);
}

/** The partner's view: where its app is installed. */
export async function listAppInstallations(ctx: Ctx, appId: string, q: { limit: number; offset: number }) {
  const partnerId = requirePartner(ctx);
  const app = await findApp(ctx, appId);
  if (!app || app.partnerId !== partnerId) throw notFound('App');
  const where = eq(appInstallations.appId, app.id);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(appInstallations).where(where).orderBy(desc(appInstallations.installedAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(appInstallations).where(where).get(),
  ]);
  const operators = new Map<string, string>();
  for (const r of rows) {
    if (operators.has(r.customerId)) continue;
    const u = await findUserWithCustomer(ctx, { id: r.installedBy });
    operators.set(r.customerId, u?.customer.name ?? r.customerId);
  }
  return {
    data: rows.map((r) => ({
      installationId: r.id,
      customerId: r.customerId,
      operatorName: operators.get(r.customerId) ?? null,
      status: r.status,
      sandbox: r.sandbox,
      scopes: r.scopes,
      installedAt: r.installedAt,
      uninstalledAt: r.uninstalledAt,
    })),
    total: total?.n ?? 0,
    limit: q.limit,
    offset: q.offset,
  };
}

/** Installed apps that render in a place of the dashboard (for the host). */
export async function listEmbeds(ctx: Ctx, q: { embedLocation?: string }) {
  const customerId = tenantOf(ctx);
  const rows = await ctx.db
    .select()
    .from(appInstallations)
    .where(and(eq(appInstallations.customerId, customerId), eq(appInstallations.status, 'active')))
    .all();
  const apps = await appsById(
    ctx,
    rows.map((r) => r.appId),
  );
  const data = [];
  for (const r of rows) {
    const app = apps.get(r.appId);
    const m = app ? effectiveManifest(app, r.sandbox) : null;
    if (!m?.urls.embed) continue;
    if (q.embedLocation && !m.embedLocations.includes(q.embedLocation)) continue;
    data.push({ installationId: r.id, appId: r.appId, name: m.name, embedUrl: m.urls.embed, embedLocations: m.embedLocations, sandbox: r.sandbox });
  }
  return { data };
}

/**
 * The host issues a session token for an installed app (5 minutes): audience = the app's client
 * id, subject = the calling operator user, the operator, location and place in claims.
 */
export async function issueSessionToken(
  ctx: Ctx,
  issuer: string,
  installationId: string,
  input: { locationId?: string; embedLocation?: string; rentalId?: string },
) {
  const userId = ctx.principal.userId;
  if (!userId) throw new ApiError('forbidden', 'Session tokens are issued to operator users');
  const row = await installationInTenant(ctx, installationId);
  if (row.status !== 'active') throw new ApiError('invalid_state', 'The app is uninstalled');
  const app = await findApp(ctx, row.appId);
  const manifest = app ? effectiveManifest(app, row.sandbox) : null;
  if (!app || !manifest) throw new ApiError('invalid_state', 'The app is not available to this operator');
  if (!manifest.urls.embed) throw new ApiError('invalid_state', 'The app has no embed URL');
  if (input.embedLocation && !manifest.embedLocations.includes(input.embedLocation)) {
    throw new ApiError('validation_failed', `The app does not render in ${input.embedLocation}`, {
      details: [{ field: 'embedLocation', message: `one of: ${manifest.embedLocations.join(', ') || '(none)'}` }],
    });
  }
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  const { token, expiresAt } = await signSessionToken(ctx, {
    issuer,
    clientId: app.id,
    userId,
    ttlSeconds: SESSION_TOKEN_TTL_S,
    claims: {
      customerId: row.customerId,
      installationId: row.id,
      locationId: input.locationId ?? null,
      embedLocation: input.embedLocation ?? null,
      ...(input.rentalId ? { rentalId: input.rentalId } : {}),
    },
  });
  return {
    sessionToken: token,
    tokenType: 'urn:ietf:params:oauth:token-type:jwt',
    expiresAt: new Date(expiresAt * 1000).toISOString(),
    expiresIn: SESSION_TOKEN_TTL_S,
    installationId: row.id,
    appId: app.id,
    clientId: app.id,
    embedUrl: manifest.urls.embed,
  };
}

/** The installation row of a token-exchange or refresh (any operator); undefined when unknown. */
export async function findInstallation(ctx: Ctx, installationId: string): Promise<InstallationRow | undefined> {
  return ctx.db.select().from(appInstallations).where(eq(appInstallations.id, installationId)).get();
}

/** The token-exchange grant of (installation, user), created on first use. */
export async function exchangeGrant(ctx: Ctx, inst: InstallationRow, userId: string): Promise<string> {
  const found = await ctx.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(
      and(eq(oauthGrants.installationId, inst.id), eq(oauthGrants.userId, userId), eq(oauthGrants.kind, 'token_exchange'), eq(oauthGrants.status, 'active')),
    )
    .get();
  if (found) return found.id;
  const grantId = newId('grt');
  await ctx.db.insert(oauthGrants).values({
    id: grantId,
    customerId: inst.customerId,
    installationId: inst.id,
    appId: inst.appId,
    userId,
    kind: 'token_exchange',
    scopes: inst.scopes,
  });
  await grantStub(ctx, grantId).init({
    grantId,
    kind: 'token_exchange',
    installationId: inst.id,
    appId: inst.appId,
    customerId: inst.customerId,
    userId,
    scopes: inst.scopes,
    sandbox: inst.sandbox,
  });
  return grantId;
}

/**
 * The principal of a live access token: its grant object must know the token (unknown, expired
 * and revoked tokens are refused there, so an uninstall or a revocation stops every token at
 * once), its installation must be active, its app not deleted, and its user still a user of that
 * operator. It acts as that user, within the token's scopes (the gateway checks them per route).
 * One round trip: the token check in the grant object and the read of who the grant acts for
 * (keyed by the grant id the token carries) run in parallel; nothing is cached.
 */
export async function authenticateAccessToken(ctx: Ctx, token: string): Promise<Principal | null> {
  const parsed = grantIdOf(token);
  if (!parsed || parsed.kind !== 'bat') return null;
  const hash = await sha256Hex(token);
  const [info, row] = await Promise.all([grantStub(ctx, parsed.grantId).check(hash), grantPrincipalRow(ctx, parsed.grantId)]);
  return info && row ? principalOfGrant(info, row) : null;
}

/** The principal of a checked grant and the rows it acts for; null when the installation, the user or the app no longer allows it. */
export function principalOfGrant(info: GrantInfo, row: GrantPrincipalRow): Principal | null {
  const { installation: inst, user, customer, app } = row;
  if (inst.id !== info.installationId || user.id !== info.userId || inst.status !== 'active' || user.customerId !== inst.customerId) return null;
  // A deleted app (or a live install of an app never approved) stops even if its uninstall hook did not run.
  if (!app || app.id !== info.appId || !effectiveManifest(app, inst.sandbox)) return null;
  return {
    kind: 'app',
    credentialId: `inst:${inst.id}`,
    userId: user.id,
    customerId: inst.customerId,
    role: user.role,
    permissions: user.permissions ?? [],
    plan: customer.plan,
    subject: info.grantId,
    email: user.email,
    name: user.name,
    app: { appId: inst.appId, installationId: inst.id, scopes: info.scopes, sandbox: inst.sandbox },
  };
}

export type { GrantRow };
