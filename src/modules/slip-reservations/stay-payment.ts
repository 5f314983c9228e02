/**
 * The payment of a new stay in two steps, for the charge and write phases of its sale: the money is
 * taken through `takeSlipPayment` (payments.ts, the payments service) whose record step waits until
 * the sale's one batch is ready (`record`) or the sale failed before writing (`abandon`). Either way
 * the payments service does what it does for every slip payment: it commits the batch with
 * `payment.completed`, and refunds a charge whose batch was not written.
 */
import type { AuditEntry, DomainEvent } from '../../lib/commit';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { takeSlipPayment, type SlipCharge, type SlipPaymentWrite } from './payments';
import type { ReservationRow } from './views';

type Batch = { stmts: Stmt[]; meta: { audit?: AuditEntry; events?: DomainEvent[] } };

/** A payment taken and not yet recorded. */
export interface HeldSlipPayment {
  /** The payment row and the statements that record it on the reservation, for the sale's batch. */
  paid: SlipPaymentWrite;
  /** Commits the sale's batch with the payment (once); a charge whose batch fails is refunded before this throws. */
  record(stmts: Batch['stmts'], meta: Batch['meta']): Promise<void>;
  /** The sale failed before its write: the charge is refunded. */
  abandon(): Promise<void>;
}

/** Takes the payment (a refusal answers 402 `payment_failed`) and answers it held until the sale records or abandons it. */
export function takeStayPayment(ctx: Ctx, r: ReservationRow, c: SlipCharge): Promise<HeldSlipPayment> {
  return new Promise((resolve, reject) => {
    let settle!: (batch: Batch | null) => void;
    const batch = new Promise<Batch | null>((s) => (settle = s));
    const done: Promise<void> = takeSlipPayment(ctx, r, c, async (paid, commitMoney) => {
      resolve({
        paid,
        record: (stmts, meta) => {
          settle({ stmts, meta });
          return done;
        },
        abandon: () => {
          settle(null);
          return done.catch(() => undefined);
        },
      });
      const b = await batch;
      if (!b) throw new Error(`slip reservation ${r.id} was not written`);
      await commitMoney(b.stmts, b.meta);
    });
    // Before the record step (a declined card): the sale's charge phase fails with it.
    done.catch(reject);
  });
}
