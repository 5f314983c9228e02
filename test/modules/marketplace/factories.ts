import { expect } from 'vitest';
import { post, type Operator } from '../../harness';

export const mk = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'exp-api-key': key, ...extra } });

/** Configures the marketplace for an operator; answers the inbound key. */
export async function configureMarketplace(op: Operator, o: { outboundApiKey?: string; isActive?: boolean; currency?: string } = {}) {
  const apiKey = `mkt_${crypto.randomUUID().replace(/-/g, '')}`;
  const r = await post(
    '/ota/admin/configure',
    {
      customerId: op.customerId,
      supplierId: `SUP-${op.customerId.slice(-6)}`,
      apiKey,
      currency: o.currency ?? 'usd',
      isActive: o.isActive ?? true,
      ...(o.outboundApiKey ? { outboundApiKey: o.outboundApiKey } : {}),
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(200);
  return { apiKey, config: r.body };
}

export const reserve = (apiKey: string, body: Record<string, unknown>) => post('/ota/v2/reserve', body, mk(apiKey));
export const confirm = (apiKey: string, body: Record<string, unknown>) => post('/ota/booking', body, mk(apiKey));
export const travelers = [{ firstName: 'Tara', lastName: 'Traveler', email: 'tara@traveler.test', leadTraveler: true }];
