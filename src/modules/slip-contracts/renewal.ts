/**
 * A contract follows its reservation's terms. When a change of the reservation's dates, rate type,
 * unit, rate, billable length or total took its contract back to unsigned, the slip reservations
 * module sends the queue message `CONTRACT_TERMS_CHANGED` after its commit; here the contract of the
 * old terms is voided ("the terms changed", its text, PDF and any signature record kept) and a new
 * one is generated from the same template (the location's default if that one is gone) with the new
 * terms, keeping the values given when the old one was generated. When the old contract had been
 * sent or signed, the new one is sent at once to the same address, the e-mail saying the terms
 * changed; otherwise it waits, generated, for staff to send it. Idempotent: a reservation whose
 * contract already states its terms is left alone, so a message delivered twice renews once.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { systemCtxFor } from '../../lib/context';
import type { QueueMessage } from '../../lib/module';
import { formatCalendarRange } from '../../lib/local-time';
import { slipContracts } from '../../db/schema/slip-contracts';
import { contractStateStmts, reservationRowsByIds, type ReservationRow } from '../slip-reservations/service';
import { commitContract, draftContract, liveContractsOf, supersedeStmt, valuesFor } from './contracts';
import { sendingOf } from './signing';
import { templateFor } from './templates';
import type { ContractRow } from './views';
import { publicOrigin } from '../../lib/public-origin';

/** The variables that state the terms: a contract whose values of these differ from the reservation's is out of date. */
const TERM_VARIABLES = [
  'slip.unitNumber',
  'reservation.rateType',
  'reservation.arrivalDate',
  'reservation.departureDate',
  'reservation.ratePerFoot',
  'reservation.billableLengthFt',
  'reservation.total',
];

/** Where the signing link of a contract sent from the queue points (no request to take the origin from). */
const apiBase = (ctx: Ctx) => publicOrigin(ctx);

/** Queue consumer of `CONTRACT_TERMS_CHANGED` (`{ customerId, reservationId }`). */
export async function onTermsChanged(ctx: Ctx, msg: QueueMessage): Promise<void> {
  const customerId = typeof msg.customerId === 'string' ? msg.customerId : null;
  const reservationId = typeof msg.reservationId === 'string' ? msg.reservationId : null;
  if (!customerId || !reservationId) return;
  const octx = systemCtxFor(ctx, customerId);
  const [r] = await reservationRowsByIds(octx, [reservationId]);
  if (!r || r.contractStatus !== 'pending' || !r.contractId || r.status === 'cancelled' || r.status === 'expired') return;
  const c = await octx.db
    .select()
    .from(slipContracts)
    .where(and(eq(slipContracts.id, r.contractId), eq(slipContracts.customerId, customerId)))
    .get();
  if (!c || c.status === 'voided') return;
  const fresh = await valuesFor(octx, r);
  const outdated = TERM_VARIABLES.some((k) => (c.variables ?? {})[k] !== fresh[k]);
  // A generated contract that states the terms is current; a sent or signed one under a reservation taken back to unsigned is not.
  if (c.status === 'generated' && !outdated) return;
  await renewContract(octx, r, c, fresh);
}

/** The template to renew with: the old contract's, else the location's default; null when neither exists. */
async function renewalTemplate(ctx: Ctx, r: ReservationRow, templateId: string | null) {
  for (const id of [templateId ?? undefined, undefined]) {
    try {
      return await templateFor(ctx, r.locationId, id);
    } catch {
      // The template was deleted (or belongs elsewhere now): the location's default, if any.
    }
  }
  return null;
}

async function renewContract(ctx: Ctx, r: ReservationRow, old: ContractRow, fresh: Record<string, string>) {
  const t = await renewalTemplate(ctx, r, old.templateId);
  if (!t) {
    ctx.log.warn('contract not renewed: no template', { reservationId: r.id, contractId: old.id });
    return;
  }
  // Values given by hand when the old contract was generated (not reservation values) are kept.
  const kept = Object.fromEntries(Object.entries(old.variables ?? {}).filter(([k]) => !(k in fresh)));
  const { row } = await draftContract(ctx, r, t, { ...(t.defaults ?? {}), ...kept, ...fresh });
  const resend = old.status === 'sent' || old.status === 'signed';
  const message = `The terms of your reservation changed (now ${r.rateType}, ${formatCalendarRange(r.arrivalDate, r.departureDate)}, total ${fresh['reservation.total']}). This contract replaces the one ${old.status === 'signed' ? 'you signed' : 'sent to you before'}; please sign it.`;
  const sending = resend ? await sendingOf(ctx, row, r, { to: old.sentTo ?? r.renter.email, expiresInDays: 14, message, baseUrl: apiBase(ctx) }) : null;
  const stale = await liveContractsOf(ctx, r);
  await commitContract(
    ctx,
    [
      ...stale.map((c) => supersedeStmt(ctx, c, `The reservation's terms changed: superseded by ${row.id}`)),
      ctx.db.insert(slipContracts).values({ ...row, ...(sending?.patch ?? {}) }),
      ...(sending ? [sending.mail] : []),
      ...contractStateStmts(ctx, r, { status: resend ? 'sent' : 'pending', contractId: row.id }),
    ],
    {
      audit: {
        action: 'slip_contract.renew',
        targetType: 'slip_contract',
        targetId: row.id,
        details: { reservationId: r.id, replaces: old.id, replacedStatus: old.status, resent: resend, sha256: row.documentSha256 },
      },
    },
  );
}
