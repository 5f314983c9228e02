// Tour marketplace's face: what other modules may call, and today nothing outside calls it: the
// module plugs in through module.ts (its router, the expired-hold sweep and the capacity.released
// hook). It defines supplierConfig, which the router's handlers call first. The logic lives beside
// it: config.ts (configuration), catalog.ts (tour list and availability), reserve.ts, confirm.ts,
// cancel.ts, amend.ts, sweep.ts (expired holds), dispatcher.ts (/ota/api), notify.ts (outbound
// availability notifications), engine.ts (the one place that uses the availability and booking
// services), queries.ts, views.ts.
import type { Ctx } from '../../lib/context';
import { configOf } from './queries';
import type { ConfigRow } from './types';
import { marketplaceFail } from './errors';

/** The configuration of the marketplace calling (set up by its key); 403 when it went inactive meanwhile. */
export async function supplierConfig(ctx: Ctx): Promise<ConfigRow> {
  const cfg = await configOf(ctx);
  if (!cfg || !cfg.isActive) throw marketplaceFail('marketplace_inactive', "The operator's marketplace configuration is inactive");
  return cfg;
}
