/**
 * The RPC interface of the per-operator AccountingQueue Durable Object
 * (durable-objects/accounting-queue.ts). This file imports nothing: `src/env.ts` types the
 * `ACCOUNTING_QUEUE` binding with it and the accounting module calls it, without importing the
 * object's class.
 */

export interface AccountingJob {
  exportId: string;
  customerId: string;
}

export interface AccountingQueueStatus {
  pending: { exportId: string; attempts: number; notBefore: string | null }[];
  sentInWindow: number;
  windowStartedAt: string | null;
  limit: { requests: number; windowMs: number };
  nextAttemptAt: string | null;
}

export interface AccountingQueueRpc extends Rpc.DurableObjectBranded {
  /** Queues an export (once, however often it is enqueued) and answers how many wait. */
  enqueue(job: AccountingJob): Promise<{ queued: number }>;
  /** The waiting exports and the provider request window. */
  status(): Promise<AccountingQueueStatus>;
}
