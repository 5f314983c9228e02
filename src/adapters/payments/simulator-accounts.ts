/** The payment simulator's connected accounts (onboarded at once) and transfers to them. */
import { and, eq, sql } from 'drizzle-orm';
import { simAccounts, simTransfers } from '../../db/schema/payments';
import { wallClock } from '../../lib/clock';
import { newId, randomString } from '../../lib/ids';
import { PaymentError, type ConnectedAccount, type Transfer } from './types';
import { SimulatorCustomers } from './simulator-customers';

type AccountRow = typeof simAccounts.$inferSelect;
type TransferRow = typeof simTransfers.$inferSelect;

const transferOut = (r: TransferRow): Transfer => ({
  id: r.id,
  amount: r.amount,
  currency: r.currency,
  destination: r.destination,
  amountReversed: r.amountReversed,
  reversed: r.amountReversed >= r.amount,
  transferGroup: r.transferGroup,
  createdAt: r.createdAt,
});

const accountOut = (r: AccountRow): ConnectedAccount => ({
  id: r.id,
  type: r.type as ConnectedAccount['type'],
  country: r.country,
  email: r.email,
  chargesEnabled: r.detailsSubmitted,
  payoutsEnabled: r.detailsSubmitted,
  detailsSubmitted: r.detailsSubmitted,
  createdAt: r.createdAt,
});

const SIM_BASE = 'https://connect.simulator.berth.invalid';

/** Connected accounts and transfers of the simulator. */
export class SimulatorAccounts extends SimulatorCustomers {
  async createAccount(input: { country?: string; email?: string | null; type?: 'express' | 'standard'; metadata?: Record<string, string> }) {
    const now = this.nowIso();
    const row: AccountRow = {
      id: newId('acct_sim'),
      type: input.type ?? 'express',
      country: (input.country ?? this.region).toUpperCase(),
      email: input.email ?? null,
      region: this.region,
      detailsSubmitted: false,
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(simAccounts).values(row);
    return accountOut(row);
  }

  async getAccount(id: string) {
    const row = await this.db.select().from(simAccounts).where(eq(simAccounts.id, id)).get();
    return row ? accountOut(row) : null;
  }

  private async mustAccount(id: string) {
    const a = await this.getAccount(id);
    if (!a) throw new PaymentError('invalid_payment_method', `No such connected account: ${id}`);
    return a;
  }

  /**
   * The simulator completes the hosted onboarding at once, as if the account holder had filled it
   * in (like its checkout sessions): the account can take charges and payouts from now on.
   */
  async createAccountLink(accountId: string, urls: { refreshUrl: string; returnUrl: string }) {
    await this.mustAccount(accountId);
    await this.db.update(simAccounts).set({ detailsSubmitted: true }).where(eq(simAccounts.id, accountId));
    // A hosted link's lifetime is the provider's, on real time.
    const expires = new Date(wallClock.now() + 300_000).toISOString();
    const q = new URLSearchParams({ refresh_url: urls.refreshUrl, return_url: urls.returnUrl });
    return { url: `${SIM_BASE}/setup/${accountId}/${randomString(24)}?${q.toString()}`, expiresAt: expires };
  }

  async createAccountSession(accountId: string) {
    await this.mustAccount(accountId);
    // An embedded session's lifetime is the provider's, on real time.
    return { clientSecret: `accs_sim_${randomString(16)}_secret_${randomString(24)}`, expiresAt: new Date(wallClock.now() + 3600_000).toISOString() };
  }

  async createLoginLink(accountId: string) {
    const a = await this.mustAccount(accountId);
    if (a.type !== 'express') throw new PaymentError('provider_error', 'Login links are for express accounts');
    return { url: `${SIM_BASE}/express/${accountId}/${randomString(24)}`, expiresAt: null };
  }

  async createTransfer(input: {
    amount: number;
    currency: string;
    destination: string;
    transferGroup?: string;
    metadata?: Record<string, string>;
    idempotencyKey?: string;
  }): Promise<Transfer> {
    const id = input.idempotencyKey ? `tr_sim_${input.idempotencyKey.replace(/[^A-Za-z0-9_]/g, '_')}` : newId('tr_sim');
    const existing = await this.db.select().from(simTransfers).where(eq(simTransfers.id, id)).get();
    if (existing) return transferOut(existing);
    if (!Number.isInteger(input.amount) || input.amount <= 0) throw new PaymentError('provider_error', 'A transfer amount must be a positive number of cents');
    const acct = await this.getAccount(input.destination);
    if (!acct) throw new PaymentError('provider_error', `No such connected account: ${input.destination}`);
    if (!acct.payoutsEnabled) throw new PaymentError('provider_error', `The account ${input.destination} has not completed onboarding`);
    const now = this.nowIso();
    const row: TransferRow = {
      id,
      amount: input.amount,
      currency: input.currency,
      destination: input.destination,
      amountReversed: 0,
      transferGroup: input.transferGroup ?? null,
      metadata: input.metadata ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(simTransfers).values(row).onConflictDoNothing();
    return transferOut((await this.db.select().from(simTransfers).where(eq(simTransfers.id, id)).get())!);
  }

  /** Reverses what is left of a transfer (one conditional UPDATE: a second reversal changes nothing). */
  async reverseTransfer(transferId: string): Promise<Transfer> {
    const row = await this.db.select().from(simTransfers).where(eq(simTransfers.id, transferId)).get();
    if (!row) throw new PaymentError('provider_error', `No such transfer: ${transferId}`);
    await this.db
      .update(simTransfers)
      .set({ amountReversed: sql`${simTransfers.amount}`, updatedAt: this.nowIso() })
      .where(and(eq(simTransfers.id, transferId), sql`${simTransfers.amountReversed} < ${simTransfers.amount}`));
    return transferOut((await this.db.select().from(simTransfers).where(eq(simTransfers.id, transferId)).get())!);
  }
}
