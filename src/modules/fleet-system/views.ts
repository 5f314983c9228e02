/** Row → response mappers of the fleet-software link, typed against the response schemas. */
import type { z } from '@hono/zod-openapi';
import type { fleetsysLinks } from '../../db/schema/fleet-system';
import type * as s from './schemas';

export type LinkRow = typeof fleetsysLinks.$inferSelect;

/** The link's state (credentials never shown); \`provider\` names the fleet system when connected. */
export const statusOut = (customerId: string, l: LinkRow | undefined, provider: string): z.output<typeof s.Status> => ({
  customerId,
  connected: !!l,
  status: l?.status ?? 'not_connected',
  provider: l ? provider : null,
  clientId: l?.clientId ?? null,
  tokenUrl: l?.tokenUrl ?? null,
  apiBaseUrl: l?.apiBaseUrl ?? null,
  productMappings: l?.productMappings.length ?? 0,
  lastTestedAt: l?.lastTestedAt ?? null,
  lastError: l?.lastError ?? null,
});

export const mappingsOut = (customerId: string, l: LinkRow | undefined): z.output<typeof s.Mappings> => ({
  customerId,
  data: (l?.productMappings ?? []).map((m) => ({ inventoryId: m.inventoryId, assetId: m.assetId ?? null, productId: m.productId })),
});
