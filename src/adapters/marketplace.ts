/**
 * Tour-marketplace port, outbound side: Berth tells the marketplace that availability changed
 * (a sale elsewhere was cancelled, capacity came back) so it refreshes its cache, sending the
 * operator's `outboundApiKey` in the marketplace's `exp-api-key` header. The inbound side (the
 * marketplace calling Berth's supplier API) lives in the marketplace module. Real implementation:
 * POST `{MARKETPLACE_API_URL}/availability/notifications`; the simulator keeps the notifications
 * it received in R2 and refuses an empty key like the marketplace would.
 */
import type { Env } from '../env';
import { outbound } from './http';
import { liveIntegrations, ProviderError, providerError, providerNowIso, simStore } from './simulators';

export interface AvailabilityNotice {
  supplierId: string;
  outboundApiKey: string;
  currency: string;
  productOptionIds: string[];
  dates: string[];
}

export interface MarketplaceOutbound {
  readonly name: 'marketplace-api' | 'simulator';
  notifyAvailability(n: AvailabilityNotice): Promise<void>;
}

export function marketplaceOutbound(env: Env): MarketplaceOutbound | null {
  if (!liveIntegrations(env)) return new SimulatedMarketplace(env);
  return env.MARKETPLACE_API_URL ? new MarketplaceApi(env.MARKETPLACE_API_URL) : null;
}

const body = (n: AvailabilityNotice) =>
  JSON.stringify({ supplierId: n.supplierId, currency: n.currency.toUpperCase(), productOptionIds: n.productOptionIds, dates: n.dates });

export class MarketplaceApi implements MarketplaceOutbound {
  readonly name = 'marketplace-api' as const;
  constructor(private base: string) {}
  async notifyAvailability(n: AvailabilityNotice) {
    const res = await outbound.fetch(`${this.base.replace(/\/$/, '')}/availability/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'exp-api-key': n.outboundApiKey },
      body: body(n),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw providerError('The marketplace', res, await res.text());
  }
}

export class SimulatedMarketplace implements MarketplaceOutbound {
  readonly name = 'simulator' as const;
  constructor(private env: Env) {}
  async notifyAvailability(n: AvailabilityNotice) {
    if (!n.outboundApiKey) throw new ProviderError('Missing exp-api-key', 'auth', 401);
    await simStore.update<{ received: unknown[] }>(this.env, `marketplace/${encodeURIComponent(n.supplierId)}/notifications.json`, { received: [] }, (d) => {
      d.received.push({ ...JSON.parse(body(n)), receivedAt: providerNowIso() });
      d.received = d.received.slice(-200);
    });
  }
  /** Test helper: what the simulated marketplace received for a supplier. */
  async received(supplierId: string) {
    return (
      (await simStore.get<{ received: Record<string, unknown>[] }>(this.env, `marketplace/${encodeURIComponent(supplierId)}/notifications.json`))?.received ??
      []
    );
  }
}
