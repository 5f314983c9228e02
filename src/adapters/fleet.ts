/**
 * Fleet-software port (`fleetsys`): OAuth 2.0 client credentials at the operator's `tokenUrl`,
 * then a REST API (inventory types, products, reservations, invoices) under `apiBaseUrl`
 * (default: the token URL's origin + `/api/v1`). Both URLs are the operator's, so every call goes
 * through the outbound URL policy (adapters/http.ts; a local fleet system only while developing). The simulator
 * plays a fleet system offline: a client secret starting with `invalid` is refused like a wrong
 * one, products and types are a fixed catalog, reservations and invoices live in R2.
 */
import type { Env } from '../env';
import { signToken, verifyToken } from '../lib/sealed';
import { safeFetch, type UrlPolicy } from './http';
import { liveIntegrations, ProviderError, providerError, providerNow, simStore } from './simulators';

export interface FleetCredentials {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  apiBaseUrl: string;
}

export interface FleetInventoryType {
  id: string;
  name: string;
}

export interface FleetProduct {
  id: string;
  name: string;
  inventoryTypeId: string | null;
}

export interface FleetReservationInput {
  externalBookingId: string;
  startDate: string;
  endDate: string;
  productId: string;
  customerName: string;
  customerEmail?: string | null;
  customerPhone?: string | null;
  /** Dollars. */
  totalAmount?: number | null;
  notes?: string | null;
}

export interface FleetReservation extends FleetReservationInput {
  id: string;
  status: string;
}

export interface FleetInvoice {
  id: string;
  reservationId: string;
  /** Dollars. */
  amount: number;
  description: string | null;
  status: string;
}

export interface FleetProvider {
  readonly name: 'fleet-api' | 'simulator';
  token(c: FleetCredentials): Promise<{ accessToken: string; expiresAt: number }>;
  inventoryTypes(c: FleetCredentials, token: string): Promise<FleetInventoryType[]>;
  products(c: FleetCredentials, token: string): Promise<FleetProduct[]>;
  findReservations(c: FleetCredentials, token: string, externalBookingId: string): Promise<FleetReservation[]>;
  createReservation(c: FleetCredentials, token: string, input: FleetReservationInput): Promise<FleetReservation>;
  updateReservation(c: FleetCredentials, token: string, id: string, patch: Partial<FleetReservationInput> & { status?: string }): Promise<FleetReservation>;
  cancelReservation(c: FleetCredentials, token: string, id: string): Promise<FleetReservation>;
  createInvoice(c: FleetCredentials, token: string, reservationId: string, input: { amount: number; description?: string | null }): Promise<FleetInvoice>;
}

export function fleetProvider(env: Env): FleetProvider {
  return liveIntegrations(env) ? new FleetApi(env) : new SimulatedFleet(env);
}

/** Default API base of a fleet system: the token URL's origin + `/api/v1`. */
export const defaultApiBase = (tokenUrl: string) => `${new URL(tokenUrl).origin}/api/v1`;

// ------------------------------------------------------------------------------------------------
// Real API over fetch

const list = <T>(body: unknown): T[] => (Array.isArray(body) ? body : ((body as { data?: T[] })?.data ?? [])) as T[];
const one = <T>(body: unknown): T => ((body as { data?: T })?.data ?? body) as T;

/** The operator's own fleet system (its URLs are checked when connected, and at every call): a local one is allowed while developing. */
const FLEET_URL: UrlPolicy = { localInDevelopment: true };

export class FleetApi implements FleetProvider {
  readonly name = 'fleet-api' as const;
  constructor(private env: Env) {}

  async token(c: FleetCredentials) {
    const res = await safeFetch(this.env, c.tokenUrl, {
      policy: FLEET_URL,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa(`${c.clientId}:${c.clientSecret}`)}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret }),
    });
    const text = await res.text();
    if (res.status === 400 || res.status === 401) throw new ProviderError('The fleet system refused the client credentials', 'auth', res.status);
    if (!res.ok) throw providerError('The fleet system', res, text);
    const t = JSON.parse(text) as { access_token?: string; expires_in?: number };
    if (!t.access_token) throw new ProviderError('The fleet system answered no access_token', 'invalid', 502);
    return { accessToken: t.access_token, expiresAt: providerNow() + (t.expires_in ?? 3600) * 1000 };
  }

  private async call<T>(c: FleetCredentials, token: string, path: string, init: RequestInit = {}): Promise<T> {
    const res = await safeFetch(this.env, `${c.apiBaseUrl.replace(/\/$/, '')}${path}`, {
      ...init,
      policy: FLEET_URL,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}) },
    });
    const text = await res.text();
    if (!res.ok) throw providerError('The fleet system', res, text);
    return (text ? JSON.parse(text) : {}) as T;
  }

  async inventoryTypes(c: FleetCredentials, token: string) {
    return list<FleetInventoryType>(await this.call(c, token, '/inventory-types'));
  }
  async products(c: FleetCredentials, token: string) {
    return list<FleetProduct>(await this.call(c, token, '/products'));
  }
  async findReservations(c: FleetCredentials, token: string, externalBookingId: string) {
    return list<FleetReservation>(await this.call(c, token, `/reservations?externalBookingId=${encodeURIComponent(externalBookingId)}`));
  }
  async createReservation(c: FleetCredentials, token: string, input: FleetReservationInput) {
    return one<FleetReservation>(await this.call(c, token, '/reservations', { method: 'POST', body: JSON.stringify(input) }));
  }
  async updateReservation(c: FleetCredentials, token: string, id: string, patch: Partial<FleetReservationInput> & { status?: string }) {
    return one<FleetReservation>(await this.call(c, token, `/reservations/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(patch) }));
  }
  async cancelReservation(c: FleetCredentials, token: string, id: string) {
    return one<FleetReservation>(await this.call(c, token, `/reservations/${encodeURIComponent(id)}/cancel`, { method: 'PUT', body: '{}' }));
  }
  async createInvoice(c: FleetCredentials, token: string, reservationId: string, input: { amount: number; description?: string | null }) {
    return one<FleetInvoice>(
      await this.call(c, token, `/reservations/${encodeURIComponent(reservationId)}/invoices`, { method: 'POST', body: JSON.stringify(input) }),
    );
  }
}

// ------------------------------------------------------------------------------------------------
// Simulator

interface SimFleetDoc {
  seq: number;
  reservations: Record<string, FleetReservation>;
  invoices: Record<string, FleetInvoice>;
}

const SIM_TYPES: FleetInventoryType[] = [
  { id: 'fst_boats', name: 'Boats' },
  { id: 'fst_pwc', name: 'Personal watercraft' },
  { id: 'fst_paddle', name: 'Paddle craft' },
];
const SIM_PRODUCTS: FleetProduct[] = [
  { id: 'fsp_pontoon', name: 'Pontoon boat', inventoryTypeId: 'fst_boats' },
  { id: 'fsp_center_console', name: 'Center console', inventoryTypeId: 'fst_boats' },
  { id: 'fsp_jetski', name: 'Jet ski', inventoryTypeId: 'fst_pwc' },
  { id: 'fsp_kayak', name: 'Kayak', inventoryTypeId: 'fst_paddle' },
];

export class SimulatedFleet implements FleetProvider {
  readonly name = 'simulator' as const;
  constructor(private env: Env) {}

  async token(c: FleetCredentials) {
    let url: URL;
    try {
      url = new URL(c.tokenUrl);
    } catch {
      throw new ProviderError('The token URL is not a URL', 'invalid', 400);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProviderError('The token URL must use https', 'invalid', 400);
    if (/^invalid/i.test(c.clientSecret) || c.clientId.length < 3) throw new ProviderError('invalid_client', 'auth', 401);
    return { accessToken: await signToken(this.env, 'sim.fleet.token', { clientId: c.clientId }, 3_600_000), expiresAt: providerNow() + 3_600_000 };
  }

  private async doc(c: FleetCredentials, token: string) {
    const t = await verifyToken<{ clientId: string }>(this.env, 'sim.fleet.token', token);
    if (!t.ok || t.data.clientId !== c.clientId) throw new ProviderError('Invalid or expired access token', 'auth', 401);
    const key = `fleet/${encodeURIComponent(c.clientId)}.json`;
    const doc = (await simStore.get<SimFleetDoc>(this.env, key)) ?? { seq: 0, reservations: {}, invoices: {} };
    return { key, doc };
  }

  async inventoryTypes(c: FleetCredentials, token: string) {
    await this.doc(c, token);
    return SIM_TYPES;
  }
  async products(c: FleetCredentials, token: string) {
    await this.doc(c, token);
    return SIM_PRODUCTS;
  }
  async findReservations(c: FleetCredentials, token: string, externalBookingId: string) {
    const { doc } = await this.doc(c, token);
    return Object.values(doc.reservations).filter((r) => r.externalBookingId === externalBookingId);
  }

  private check(r: Pick<FleetReservationInput, 'startDate' | 'endDate' | 'productId'>) {
    if (!SIM_PRODUCTS.some((p) => p.id === r.productId)) throw new ProviderError(`Unknown product ${r.productId}`, 'invalid', 422);
    if (!(Date.parse(r.endDate) > Date.parse(r.startDate))) throw new ProviderError('endDate must be after startDate', 'invalid', 422);
  }

  async createReservation(c: FleetCredentials, token: string, input: FleetReservationInput) {
    const { key, doc } = await this.doc(c, token);
    this.check(input);
    doc.seq++;
    const r: FleetReservation = { ...input, id: `fsr_${String(doc.seq).padStart(6, '0')}`, status: 'confirmed' };
    doc.reservations[r.id] = r;
    await simStore.put(this.env, key, doc);
    return r;
  }

  async updateReservation(c: FleetCredentials, token: string, id: string, patch: Partial<FleetReservationInput> & { status?: string }) {
    const { key, doc } = await this.doc(c, token);
    const cur = doc.reservations[id];
    if (!cur) throw new ProviderError('Reservation not found', 'not_found', 404);
    const next = { ...cur, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as FleetReservation;
    this.check(next);
    doc.reservations[id] = next;
    await simStore.put(this.env, key, doc);
    return next;
  }

  async cancelReservation(c: FleetCredentials, token: string, id: string) {
    const { key, doc } = await this.doc(c, token);
    const cur = doc.reservations[id];
    if (!cur) throw new ProviderError('Reservation not found', 'not_found', 404);
    cur.status = 'cancelled';
    await simStore.put(this.env, key, doc);
    return cur;
  }

  async createInvoice(c: FleetCredentials, token: string, reservationId: string, input: { amount: number; description?: string | null }) {
    const { key, doc } = await this.doc(c, token);
    const r = doc.reservations[reservationId];
    if (!r) throw new ProviderError('Reservation not found', 'not_found', 404);
    if (r.status === 'cancelled') throw new ProviderError('A cancelled reservation cannot be invoiced', 'invalid', 422);
    if (!(input.amount > 0)) throw new ProviderError('amount must be positive', 'invalid', 422);
    doc.seq++;
    const inv: FleetInvoice = {
      id: `fsi_${String(doc.seq).padStart(6, '0')}`,
      reservationId,
      amount: input.amount,
      description: input.description ?? null,
      status: 'open',
    };
    doc.invoices[inv.id] = inv;
    await simStore.put(this.env, key, doc);
    return inv;
  }

  /** Test helper: the reservations and invoices the simulated fleet system holds for a client. */
  async dump(clientId: string): Promise<SimFleetDoc> {
    return (await simStore.get<SimFleetDoc>(this.env, `fleet/${encodeURIComponent(clientId)}.json`)) ?? { seq: 0, reservations: {}, invoices: {} };
  }
}
