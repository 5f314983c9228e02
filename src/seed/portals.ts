import type { Ctx } from '../lib/context';
import { publicOrigin } from '../lib/public-origin';
import { type DemoOperator, type OperatorSeedStep } from './types';
import { contractsOfReservation, sendContract } from '../modules/slip-contracts/service';
import { listReservations } from '../modules/slip-reservations/service';

/**
 * The tenant portal's demo tenant (after the marina step): Søren Ødegård's winter season at C-02 gets its contract sent for
 * signature, so he has a contract to sign and a balance to pay in /slip-portal (the member portal's demo member is the
 * memberships step's Alice Jones). Idempotent: a contract already sent or signed is left alone.
 */
async function seedPortals(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const season = (await listReservations(ctx, { locationId: op.miamiId, limit: 50, offset: 0 })).data.find((r) => r.boat.vesselName === 'Havfrue');
  if (!season) return false;
  const draft = (await contractsOfReservation(ctx, season.id)).data.find((c) => c.status === 'generated');
  if (!draft) return false;
  await sendContract(ctx, { contractId: draft.id, expiresInDays: 90 }, publicOrigin(ctx));
  return true;
}

export const portalsSeed: OperatorSeedStep = { name: 'portals', run: seedPortals };
