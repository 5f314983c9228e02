/**
 * Group commit for reads inside ONE Durable Object: every call of an object runs in the object's
 * own context, so its concurrent reads can share a D1 call without any request waiting on another
 * request's I/O (the Worker never does this: there, each request makes its own calls).
 *
 * The first read goes out at once, exactly as without coalescing. Reads that arrive while a batch
 * is in flight wait for it and then go out together as the next batch, one D1 call for all of them
 * (each is answered its own slice of the results). Under contention on one item (the hot boat of a
 * busy morning) the lock makes one D1 call per wave of sales instead of one per sale; alone, a read
 * costs what it did. A read is sent no earlier than it was asked for, so its snapshot is never older
 * than its caller's view of the object (what the lock's read sequence relies on).
 *
 * Each batch is one transaction: when a coalesced batch fails, each read is retried alone, so one
 * caller's failure never becomes another's.
 */

/** Sends one batch (`env.DB.batch`). */
type Send = (statements: D1PreparedStatement[]) => Promise<D1Result[]>;

interface Waiting {
  statements: D1PreparedStatement[];
  resolve(results: D1Result[]): void;
  reject(err: unknown): void;
}

/** Statements per coalesced batch at most (further waiting reads go in the batch after). */
const MAX_STATEMENTS = 100;

export class ReadCoalescer {
  private queue: Waiting[] = [];
  private flushing = false;

  constructor(private readonly send: Send) {}

  /** Runs `statements` as one batch, alone or with the reads waiting beside it. */
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

  /** The waiting reads that fit in one batch, in arrival order (at least one). */
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
      if (group.length === 1) return group[0].reject(err);
      // One transaction failed for all: each read alone, so only the one at fault fails.
      await Promise.all(group.map((w) => this.send(w.statements).then(w.resolve, w.reject)));
      return;
    }
    let i = 0;
    for (const w of group) {
      w.resolve(results.slice(i, i + w.statements.length));
      i += w.statements.length;
    }
  }
}
