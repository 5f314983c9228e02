/** The contract state of a reservation: recorded by staff (a contract signed on paper) or set by the contracts module in its own batch. */
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { requirePermission } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { reservationChange } from './changes';
import { getReservationRow, reservationView } from './queries';
import type { ReservationRow } from './views';
import { save } from './lifecycle';

/** POST /slip-reservations/{id}/contract-signed: staff record a contract signed outside Berth (on paper). */
export async function markContractSigned(ctx: Ctx, id: string, input: { contractId?: string; signedAt?: string; note?: string }) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled') throw new ApiError('invalid_state', 'The reservation is cancelled');
  const signedAt = input.signedAt ? new Date(input.signedAt).toISOString() : nowIso(ctx);
  const { row, stmts } = reservationChange(
    ctx,
    r,
    { contractStatus: 'signed', contractSignedAt: signedAt, contractId: input.contractId ?? r.contractId },
    'contract_signed',
    { contractId: input.contractId ?? null, note: input.note ?? null },
  );
  await save(ctx, stmts, { audit: { action: 'slip_reservation.contract_signed', targetType: 'slip_reservation', targetId: r.id, details: { signedAt } } });
  return reservationView(ctx, row);
}

/**
 * For the contracts module: the statements that set the reservation's contract state (in the
 * contract's own batch, with the reservation's compare-and-swap).
 */
export function contractStateStmts(
  ctx: Ctx,
  r: ReservationRow,
  state: { status: ReservationRow['contractStatus']; contractId: string | null; signedAt?: string | null },
) {
  return reservationChange(
    ctx,
    r,
    { contractStatus: state.status, contractId: state.contractId, contractSignedAt: state.signedAt ?? null },
    `contract_${state.status}`,
    {
      contractId: state.contractId,
    },
  ).stmts;
}
