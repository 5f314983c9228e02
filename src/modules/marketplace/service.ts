// Tour marketplace: the entry point other code imports. config.ts (configuration and keys),
// catalog.ts (tour list and availability), reservations.ts (reserve, confirm, cancel, amend),
// dispatcher.ts (/ota/api), notify.ts (outbound availability notifications), engine.ts (the one
// place that uses the availability and booking services).
import type { Ctx } from '../../lib/context';
import { configOf, type ConfigRow } from './config';
import { marketplaceFail } from './errors';

export { configure, getConfiguration, HOLD_MS } from './config';
export { tourList, availabilityCalendar, availabilityCheck } from './catalog';
export { reserveHold, confirmReservation, cancelReservation, amendReservation, sweepReservations } from './reservations';
export { dispatch } from './dispatcher';
export { onCapacityReleased } from './notify';

/** The configuration of the marketplace calling (set up by its key); 403 when it went inactive meanwhile. */
export async function supplierConfig(ctx: Ctx): Promise<ConfigRow> {
  const cfg = await configOf(ctx);
  if (!cfg || !cfg.isActive) throw marketplaceFail('marketplace_inactive', "The operator's marketplace configuration is inactive");
  return cfg;
}
