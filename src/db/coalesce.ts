/**
 * Group commit inside ONE Durable Object: every call of an object runs in the object's own context,
 * so its concurrent D1 batches (the inventory lock's reads, and the sales' writes it runs for them)
 * can share a D1 call without any request waiting on another request's I/O (the Worker never does
 * this: there, each request makes its own calls).
 *
 * The first batch goes out at once, exactly as without coalescing. Batches that arrive while one is
 * in flight wait for it and then go out together, in arrival order, as the next D1 call (each is
 * answered its own slice of the results). Under contention on one item (the hot boat of a busy
 * morning) the lock makes one D1 call per wave of sales instead of two per sale; alone, a batch
 * costs what it did. A batch is sent no earlier than it was asked for, so a read's snapshot is never
 * older than its caller's view of the object (what the lock's read sequence relies on), and a read
 * queued after a write sees it.
 *
 * Each D1 call is one transaction. When a coalesced call fails on a statement (SQLite refused it: a
 * write's constraint, a guard's RAISE), the transaction was rolled back and wrote nothing, so each
 * batch is retried alone and one caller's failure never becomes another's. Any other failure (the
 * connection lost, D1 overloaded or failing) leaves the call in doubt: it may have committed, and a
 * retry could write a sale twice or answer a conflict for rows that stand, so every batch of the call
 * gets the error as it is, as a batch sent alone would.
 */

/** Sends one batch (`env.DB.batch`). */
type Send = (statements: D1PreparedStatement[]) => Promise<D1Result[]>;

interface Waiting {
  statements: D1PreparedStatement[];
  resolve(results: D1Result[]): void;
  reject(err: unknown): void;
}

/**
 * D1 names a statement SQLite refused with its result code ("...: SQLITE_CONSTRAINT"): the batch's
 * transaction was rolled back. Other errors say nothing of whether the call committed.
 */
export function isStatementError(err: unknown): boolean {
  const e = err as { message?: unknown; cause?: unknown };
  return /\bSQLITE_[A-Z]+\b/.test(`${String(e?.message ?? err)} ${String(e?.cause ?? '')}`);
}

/** Statements per coalesced call at most (further waiting batches go in the call after). */
const MAX_STATEMENTS = 200;

export class BatchCoalescer {
  private queue: Waiting[] = [];
  private flushing = false;

  constructor(private readonly send: Send) {}

  /** Runs `statements` as one batch, alone or with the batches waiting beside it. */
  batch(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ statements, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush() {
    this.flushing = true;
    try {
      while (this.queue.length) await this.sendGroup(this.takeGroup());
    } finally {
      this.flushing = false;
    }
  }

  /** The waiting batches that fit in one call, in arrival order (at least one). */
  private takeGroup(): Waiting[] {
    let n = 0;
    let k = 0;
    while (k < this.queue.length && (k === 0 || n + this.queue[k].statements.length <= MAX_STATEMENTS)) n += this.queue[k++].statements.length;
    return this.queue.splice(0, k);
  }

  private async sendGroup(group: Waiting[]) {
    let results: D1Result[];
    try {
      results = await this.send(group.flatMap((w) => w.statements));
    } catch (err) {
      if (group.length === 1 || !isStatementError(err)) {
        // Alone, or in doubt (it may have committed): each caller gets the error as it is, nothing is sent again.
        for (const w of group) w.reject(err);
        return;
      }
      // A statement failed the transaction for all and it wrote nothing: each batch alone, so only the one at fault fails.
      // In order, as they would have run together: a read queued after a write still runs after it.
      for (const w of group) await this.send(w.statements).then(w.resolve, w.reject);
      return;
    }
    let i = 0;
    for (const w of group) {
      w.resolve(results.slice(i, i + w.statements.length));
      i += w.statements.length;
    }
  }
}
