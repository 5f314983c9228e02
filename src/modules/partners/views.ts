import type { z } from '@hono/zod-openapi';
import type { partnerAccounts, partnerApps, AppManifestData } from '../../db/schema/partners';
import type * as s from './schemas';
import type { AppManifest } from './types';

type PartnerRow = typeof partnerAccounts.$inferSelect;
export type AppRow = typeof partnerApps.$inferSelect;

export const partnerOut = (p: PartnerRow): z.output<typeof s.Partner> => ({
  partnerId: p.id,
  email: p.email,
  name: p.name,
  company: p.company,
  status: p.status,
  hasPassword: Boolean(p.passwordHash),
  createdAt: p.createdAt,
});

const sorted = (a: string[]) => [...new Set(a)].sort();

/** The manifest fields of a row (the current ones), normalised: fixed key order, sorted unique lists. */
export function manifestData(a: AppRow): AppManifestData {
  return {
    name: a.name,
    scopes: sorted(a.scopes),
    urls: { embed: a.embedUrl, redirect: sorted(a.redirectUris) },
    embedLocations: sorted(a.embedLocations),
    webhooks: { url: a.webhookUrl, events: sorted(a.webhookEvents) },
  };
}

/** The app file's content: `appId` first, then the manifest fields in a fixed order (diff-friendly). */
export function manifestOut(appId: string, m: AppManifestData): AppManifest {
  return {
    appId,
    name: m.name,
    scopes: sorted(m.scopes),
    urls: { embed: m.urls.embed, redirect: sorted(m.urls.redirect) },
    embedLocations: sorted(m.embedLocations),
    webhooks: { url: m.webhooks.url, events: sorted(m.webhooks.events) },
  };
}

export const appOut = (a: AppRow): z.output<typeof s.App> => ({
  appId: a.id,
  clientId: a.id,
  clientType: a.clientType,
  clientSecretPrefix: a.clientSecretPrefix,
  partnerId: a.partnerId,
  status: a.status,
  reviewReason: a.reviewReason,
  submittedAt: a.submittedAt,
  reviewedAt: a.reviewedAt,
  version: a.version,
  manifest: manifestOut(a.id, manifestData(a)),
  live: a.live ? manifestOut(a.id, a.live) : null,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt,
});
