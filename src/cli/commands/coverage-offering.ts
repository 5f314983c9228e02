// The offering file (berth.coverage.json), the offering it is linked to and its signing secret on this machine: shared by the `berth coverage` commands.
import type { Api } from '../lib/api';
import { apiUrl, COVERAGE_FILE, envVar } from '../lib/config';
import { accountOf, updateAccount } from '../lib/credentials';
import { notFound } from '../lib/errors';
import { requireProjectFile } from '../lib/project';

/** The content of `berth.coverage.json`: the offering as code (no secret, ever). */
export interface OfferingFile {
  offeringId?: string;
  name: string;
  supportEmail: string;
  baseUrl: string;
  supportedCountries: string[];
  currencies: string[];
  quoteTimeoutMs: number;
  enabled?: boolean;
}

export interface Offering extends OfferingFile {
  offeringId: string;
  status: 'draft' | 'in_review' | 'approved';
  enabled: boolean;
  version: number;
  secret: { present: boolean; prefix: string | null };
  review: { reasons: string[] | null; note: string | null };
}

export const EDITABLE = ['name', 'supportEmail', 'baseUrl', 'supportedCountries', 'currencies', 'quoteTimeoutMs', 'enabled'] as const;
/** Changes that send an approved offering back to review. */
export const REVIEWED = ['baseUrl', 'supportedCountries', 'currencies'];

const sortUniq = (l: unknown, up = false) =>
  Array.isArray(l) ? [...new Set(l.map((v) => (up ? String(v).toUpperCase() : String(v).toLowerCase())))].sort() : [];

/** The offering file as the server stores it: countries upper case, currencies lower case, lists sorted. */
export function normalize(f: Partial<OfferingFile>): OfferingFile {
  return {
    name: typeof f.name === 'string' ? f.name.trim() : '',
    supportEmail: typeof f.supportEmail === 'string' ? f.supportEmail.trim() : '',
    baseUrl: typeof f.baseUrl === 'string' ? f.baseUrl.trim() : '',
    supportedCountries: sortUniq(f.supportedCountries, true),
    currencies: sortUniq(f.currencies),
    quoteTimeoutMs: typeof f.quoteTimeoutMs === 'number' ? f.quoteTimeoutMs : 2000,
    enabled: f.enabled ?? true,
  };
}

export const fileOf = (o: Offering): OfferingFile => ({ offeringId: o.offeringId, ...normalize(o) });

const NOT_LINKED = 'Run `berth coverage create` (new offering) or `berth coverage link` (existing one).';
export const devKey = (id: string) => `coverage:${id}`;

export function linkedOffering(): { offeringId: string; file: Partial<OfferingFile> } {
  const file = requireProjectFile<Partial<OfferingFile>>(COVERAGE_FILE, `Create one with \`berth init --coverage\`. ${NOT_LINKED}`);
  if (typeof file.offeringId !== 'string' || !file.offeringId) throw notFound(`${COVERAGE_FILE} is not linked to an offering (no offeringId)`, NOT_LINKED);
  return { offeringId: file.offeringId, file };
}

export const path = (id: string, rest = '') => `/partners/coverage/offerings/${encodeURIComponent(id)}${rest}`;
export const getOffering = (api: Api, id: string) => api.get<Offering>(path(id));

/** The secret for calls: the environment first, then the one stored for the offering. */
export function secretFor(offeringId: string | undefined): string | undefined {
  return envVar('SIGNING_SECRET') ?? (offeringId ? accountOf(apiUrl()).coverageSecrets?.[offeringId] : undefined);
}

export function storeSecret(offeringId: string, secret: string) {
  updateAccount(apiUrl(), (e) => ({ ...e, coverageSecrets: { ...(e.coverageSecrets ?? {}), [offeringId]: secret } }));
}
