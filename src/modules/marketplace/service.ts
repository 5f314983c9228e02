// Tour marketplace: the entry point other code imports. config.ts (configuration), catalog.ts
// (tour list and availability), reserve.ts, confirm.ts, cancel.ts, amend.ts, sweep.ts (expired
// holds), dispatcher.ts (/ota/api), notify.ts (outbound availability notifications), engine.ts
// (the one place that uses the availability and booking services), queries.ts, views.ts.
import type { Ctx } from '../../lib/context';
import { configOf } from './queries';
import type { ConfigRow } from './types';
import { marketplaceFail } from './errors';

export { configure, getConfiguration } from './config';
export { HOLD_MS } from './types';
export { tourList, availabilityCalendar, availabilityCheck } from './catalog';
export { reserveHold } from './reserve';
export { confirmReservation } from './confirm';
export { cancelReservation } from './cancel';
export { amendReservation } from './amend';
export { nextDueReservations, sweepReservations } from './sweep';
export { dispatch } from './dispatcher';
export { onCapacityReleased } from './notify';

/** The configuration of the marketplace calling (set up by its key); 403 when it went inactive meanwhile. */
export async function supplierConfig(ctx: Ctx): Promise<ConfigRow> {
  const cfg = await configOf(ctx);
  if (!cfg || !cfg.isActive) throw marketplaceFail('marketplace_inactive', "The operator's marketplace configuration is inactive");
  return cfg;
}
