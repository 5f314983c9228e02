/**
 * Accounting port (`acct`): OAuth 2.0 authorization code flow, businesses, chart of accounts and
 * journal transactions. The real implementation is Wave's public GraphQL API over fetch
 * (`ACCOUNTING_CLIENT_ID`, `ACCOUNTING_CLIENT_SECRET`); the simulator plays it offline (consent
 * approves at once, codes are single-use, a fixed chart of accounts, journals stored in R2,
 * refusal of unbalanced journals, deduplication on `externalId`, and its own request limit that
 * answers 429 like the provider when a client goes faster).
 *
 * `limits` is the pace Berth keeps per business (the AccountingQueue Durable Object spends one
 * unit per request it makes).
 */
import type { Env } from '../env';
import { sha256Hex } from '../lib/crypto';
import { signToken, verifyToken } from '../lib/sealed';
import { outbound } from './http';
import { liveIntegrations, ProviderError, providerError, providerNow, providerNowIso, simStore } from './simulators';

export interface AcctTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
}

export interface AcctBusiness {
  id: string;
  name: string;
  currency: string;
}

export interface AcctAccount {
  id: string;
  name: string;
  type: string;
  subtype: string | null;
  normalBalance: 'DEBIT' | 'CREDIT';
  /** A bank or cash account (where money lands). */
  isBank: boolean;
}

export interface JournalPost {
  /** Idempotency key at the provider: one transaction per key. */
  externalId: string;
  date: string;
  description: string;
  currency: string;
  /** The bank account money moves through (the anchor of the transaction). */
  bankAccountId: string;
  /** Cents. */
  lines: { accountId: string; debit: number; credit: number; description: string }[];
}

export interface AccountingProvider {
  readonly name: 'wave' | 'simulator';
  readonly limits: { requests: number; windowMs: number; perJournal: number };
  authorizationUrl(p: { state: string; redirectUri: string }): Promise<string>;
  exchangeCode(code: string, redirectUri: string): Promise<AcctTokens>;
  refresh(refreshToken: string): Promise<AcctTokens>;
  revoke(token: string): Promise<void>;
  businesses(accessToken: string): Promise<AcctBusiness[]>;
  accounts(accessToken: string, businessId: string): Promise<AcctAccount[]>;
  postJournal(accessToken: string, businessId: string, journal: JournalPost): Promise<{ id: string }>;
}

export function accountingProvider(env: Env): AccountingProvider | null {
  if (!liveIntegrations(env)) return new SimulatedAccounting(env);
  if (!env.ACCOUNTING_CLIENT_ID || !env.ACCOUNTING_CLIENT_SECRET) return null;
  return new WaveAccounting(env.ACCOUNTING_CLIENT_ID, env.ACCOUNTING_CLIENT_SECRET);
}

/** The journal is balanced: debits equal credits, every line one-sided and non-negative. */
export function isBalanced(lines: { debit: number; credit: number }[]): boolean {
  let d = 0;
  let c = 0;
  for (const l of lines) {
    if (l.debit < 0 || l.credit < 0 || (l.debit > 0 && l.credit > 0) || !Number.isInteger(l.debit) || !Number.isInteger(l.credit)) return false;
    d += l.debit;
    c += l.credit;
  }
  return d === c;
}

// ------------------------------------------------------------------------------------------------
// Wave

const WAVE_AUTH = 'https://api.waveapps.com/oauth2/authorize/';
const WAVE_TOKEN = 'https://api.waveapps.com/oauth2/token/';
const WAVE_REVOKE = 'https://api.waveapps.com/oauth2/token-revoke/';
const WAVE_GQL = 'https://gql.waveapps.com/graphql/public';
const WAVE_SCOPES = 'account:read business:read transaction:write';

const dollars = (cents: number) => (cents / 100).toFixed(2);

export class WaveAccounting implements AccountingProvider {
  readonly name = 'wave' as const;
  readonly limits = { requests: 30, windowMs: 60_000, perJournal: 2 };
  constructor(
    private clientId: string,
    private clientSecret: string,
  ) {}

  async authorizationUrl(p: { state: string; redirectUri: string }) {
    const q = new URLSearchParams({ client_id: this.clientId, response_type: 'code', scope: WAVE_SCOPES, redirect_uri: p.redirectUri, state: p.state });
    return `${WAVE_AUTH}?${q}`;
  }

  private async token(params: Record<string, string>): Promise<AcctTokens> {
    const res = await outbound.fetch(WAVE_TOKEN, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: this.clientId, client_secret: this.clientSecret, ...params }),
    });
    const text = await res.text();
    if (res.status === 400 || res.status === 401) throw new ProviderError('The accounting provider refused the grant', 'auth', res.status);
    if (!res.ok) throw providerError('The accounting provider', res, text);
    const t = JSON.parse(text) as { access_token: string; refresh_token?: string; expires_in?: number };
    return { accessToken: t.access_token, refreshToken: t.refresh_token ?? null, expiresAt: providerNow() + (t.expires_in ?? 7200) * 1000 };
  }

  exchangeCode(code: string, redirectUri: string) {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }
  refresh(refreshToken: string) {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  async revoke(token: string) {
    const res = await outbound.fetch(WAVE_REVOKE, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: this.clientId, client_secret: this.clientSecret, token }),
    });
    if (!res.ok && res.status !== 400) throw providerError('The accounting provider', res);
  }

  private async gql<T>(accessToken: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await outbound.fetch(WAVE_GQL, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    if (!res.ok) throw providerError('Wave', res, text);
    const body = JSON.parse(text) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) {
      const code = body.errors[0].extensions?.code;
      throw new ProviderError(`Wave: ${body.errors.map((e) => e.message).join('; ')}`, code === 'UNAUTHENTICATED' ? 'auth' : 'invalid', 400);
    }
    return body.data as T;
  }

  async businesses(accessToken: string) {
    const d = await this.gql<{ businesses: { edges: { node: { id: string; name: string; currency: { code: string } } }[] } }>(
      accessToken,
      'query { businesses(page: 1, pageSize: 100) { edges { node { id name currency { code } } } } }',
    );
    return d.businesses.edges.map((e) => ({ id: e.node.id, name: e.node.name, currency: e.node.currency.code }));
  }

  async accounts(accessToken: string, businessId: string) {
    const d = await this.gql<{
      business: {
        accounts: { edges: { node: { id: string; name: string; type: { value: string; normalBalanceType: string }; subtype: { value: string } } }[] };
      };
    }>(
      accessToken,
      `query ($id: ID!) { business(id: $id) { accounts(page: 1, pageSize: 500) {
        edges { node { id name type { value normalBalanceType } subtype { value } } } } } }`,
      { id: businessId },
    );
    return d.business.accounts.edges.map(({ node: n }) => ({
      id: n.id,
      name: n.name,
      type: n.type.value,
      subtype: n.subtype?.value ?? null,
      normalBalance: n.type.normalBalanceType === 'CREDIT' ? ('CREDIT' as const) : ('DEBIT' as const),
      isBank: /CASH_AND_BANK|MONEY_IN_TRANSIT/.test(n.subtype?.value ?? ''),
    }));
  }

  /**
   * Wave records money transactions anchored on a bank account: the net movement of the bank
   * lines is the anchor (deposit or withdrawal), every other line a line item that increases or
   * decreases its account according to the account's normal balance.
   */
  async postJournal(accessToken: string, businessId: string, j: JournalPost) {
    const accounts = new Map((await this.accounts(accessToken, businessId)).map((a) => [a.id, a]));
    const bankNet = j.lines.filter((l) => l.accountId === j.bankAccountId).reduce((s, l) => s + l.debit - l.credit, 0);
    const lineItems = j.lines
      .filter((l) => l.accountId !== j.bankAccountId)
      .map((l) => {
        const normal = accounts.get(l.accountId)?.normalBalance ?? 'DEBIT';
        const debitSide = l.debit > 0;
        return {
          accountId: l.accountId,
          amount: dollars(debitSide ? l.debit : l.credit),
          balance: (normal === 'DEBIT') === debitSide ? 'INCREASE' : 'DECREASE',
          description: l.description,
        };
      });
    const d = await this.gql<{ moneyTransactionCreate: { didSucceed: boolean; inputErrors?: { message: string }[]; transaction?: { id: string } } }>(
      accessToken,
      'mutation ($input: MoneyTransactionCreateInput!) { moneyTransactionCreate(input: $input) { didSucceed inputErrors { message } transaction { id } } }',
      {
        input: {
          businessId,
          externalId: j.externalId,
          date: j.date,
          description: j.description,
          anchor: { accountId: j.bankAccountId, amount: dollars(Math.abs(bankNet)), direction: bankNet >= 0 ? 'DEPOSIT' : 'WITHDRAWAL' },
          lineItems,
        },
      },
    );
    const r = d.moneyTransactionCreate;
    if (!r.didSucceed || !r.transaction)
      throw new ProviderError(`Wave refused the journal: ${(r.inputErrors ?? []).map((e) => e.message).join('; ')}`, 'invalid', 400);
    return { id: r.transaction.id };
  }
}

// ------------------------------------------------------------------------------------------------
// Simulator

export const SIM_ACCOUNTS: AcctAccount[] = [
  { id: 'simacct_checking', name: 'Business Checking', type: 'ASSET', subtype: 'CASH_AND_BANK', normalBalance: 'DEBIT', isBank: true },
  { id: 'simacct_cash', name: 'Cash on Hand', type: 'ASSET', subtype: 'CASH_AND_BANK', normalBalance: 'DEBIT', isBank: true },
  { id: 'simacct_ar', name: 'Accounts Receivable', type: 'ASSET', subtype: 'RECEIVABLE', normalBalance: 'DEBIT', isBank: false },
  { id: 'simacct_channel', name: 'Reseller Receivable', type: 'ASSET', subtype: 'RECEIVABLE', normalBalance: 'DEBIT', isBank: false },
  { id: 'simacct_sales', name: 'Rental Sales', type: 'INCOME', subtype: 'INCOME', normalBalance: 'CREDIT', isBank: false },
  { id: 'simacct_discounts', name: 'Discounts Given', type: 'INCOME', subtype: 'DISCOUNT', normalBalance: 'DEBIT', isBank: false },
  { id: 'simacct_tax', name: 'Sales Tax Payable', type: 'LIABILITY', subtype: 'SALES_TAX', normalBalance: 'CREDIT', isBank: false },
  { id: 'simacct_tips', name: 'Tips Payable', type: 'LIABILITY', subtype: 'CURRENT_LIABILITY', normalBalance: 'CREDIT', isBank: false },
  { id: 'simacct_giftcards', name: 'Gift Card Liability', type: 'LIABILITY', subtype: 'CURRENT_LIABILITY', normalBalance: 'CREDIT', isBank: false },
  { id: 'simacct_credits', name: 'Customer Credit Owed', type: 'LIABILITY', subtype: 'CURRENT_LIABILITY', normalBalance: 'CREDIT', isBank: false },
  { id: 'simacct_deposits', name: 'Damage Deposits Retained', type: 'INCOME', subtype: 'OTHER_INCOME', normalBalance: 'CREDIT', isBank: false },
];

interface SimJournalDoc {
  journals: Record<string, JournalPost & { id: string; postedAt: string }>;
}
interface SimRateDoc {
  windowStart: number;
  count: number;
  refused: number;
}

const SIM_LIMITS = { requests: 4, windowMs: 60_000, perJournal: 1 };

export class SimulatedAccounting implements AccountingProvider {
  readonly name = 'simulator' as const;
  readonly limits = SIM_LIMITS;
  constructor(private env: Env) {}

  async authorizationUrl(p: { state: string; redirectUri: string }) {
    const code = await signToken(this.env, 'sim.acct.code', { redirectUri: p.redirectUri }, 10 * 60_000);
    return `${p.redirectUri}?${new URLSearchParams({ code, state: p.state })}`;
  }

  async exchangeCode(code: string, redirectUri: string): Promise<AcctTokens> {
    const t = await verifyToken<{ redirectUri: string }>(this.env, 'sim.acct.code', code);
    if (!t.ok || t.data.redirectUri !== redirectUri) throw new ProviderError('invalid_grant', 'auth', 400);
    const usedKey = `accounting/codes/${t.nonce}`;
    if (await simStore.get(this.env, usedKey)) throw new ProviderError('invalid_grant: code already used', 'auth', 400);
    await simStore.put(this.env, usedKey, { usedAt: providerNowIso() });
    return this.issue(t.nonce);
  }

  private async issue(account: string): Promise<AcctTokens> {
    return {
      accessToken: await signToken(this.env, 'sim.acct.access', { account }, 2 * 3_600_000),
      refreshToken: await signToken(this.env, 'sim.acct.refresh', { account }, 365 * 86_400_000),
      expiresAt: providerNow() + 2 * 3_600_000,
    };
  }

  async refresh(refreshToken: string) {
    const t = await verifyToken<{ account: string }>(this.env, 'sim.acct.refresh', refreshToken);
    if (!t.ok || (await simStore.get(this.env, `accounting/revoked/${await sha256Hex(refreshToken)}`))) throw new ProviderError('invalid_grant', 'auth', 400);
    return this.issue(t.data.account);
  }

  async revoke(token: string) {
    await simStore.put(this.env, `accounting/revoked/${await sha256Hex(token)}`, { revokedAt: providerNowIso() });
  }

  private async authorize(accessToken: string): Promise<string> {
    const t = await verifyToken<{ account: string }>(this.env, 'sim.acct.access', accessToken);
    if (!t.ok || (await simStore.get(this.env, `accounting/revoked/${await sha256Hex(accessToken)}`))) throw new ProviderError('UNAUTHENTICATED', 'auth', 401);
    return t.data.account;
  }

  async businesses(accessToken: string) {
    await this.authorize(accessToken);
    return [
      { id: 'simbiz_main', name: 'Marina Books', currency: 'USD' },
      { id: 'simbiz_holding', name: 'Marina Holding', currency: 'USD' },
    ];
  }

  async accounts(accessToken: string, businessId: string) {
    await this.authorize(accessToken);
    if (!businessId.startsWith('simbiz_')) throw new ProviderError('Business not found', 'not_found', 404);
    return SIM_ACCOUNTS;
  }

  async postJournal(accessToken: string, businessId: string, j: JournalPost) {
    const account = await this.authorize(accessToken);
    const now = providerNow();
    const rate = await simStore.update<SimRateDoc>(
      this.env,
      `accounting/rate/${account}/${businessId}.json`,
      { windowStart: now, count: 0, refused: 0 },
      (d) => {
        if (now - d.windowStart >= SIM_LIMITS.windowMs) {
          d.windowStart = now;
          d.count = 0;
        }
        d.count++;
        if (d.count > SIM_LIMITS.requests) d.refused++;
      },
    );
    if (rate.count > SIM_LIMITS.requests) throw new ProviderError('rate limited', 'rate_limited', 429, rate.windowStart + SIM_LIMITS.windowMs - now);
    if (!isBalanced(j.lines)) throw new ProviderError('The journal is not balanced', 'invalid', 400);
    const known = new Set(SIM_ACCOUNTS.map((a) => a.id));
    const unknown = [j.bankAccountId, ...j.lines.map((l) => l.accountId)].filter((id) => !known.has(id));
    if (unknown.length) throw new ProviderError(`Unknown accounts: ${[...new Set(unknown)].join(', ')}`, 'invalid', 400);
    const key = `accounting/journals/${businessId}.json`;
    let id = '';
    await simStore.update<SimJournalDoc>(this.env, key, { journals: {} }, (doc) => {
      const existing = doc.journals[j.externalId];
      id = existing?.id ?? `simtxn_${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
      if (!existing) doc.journals[j.externalId] = { ...j, id, postedAt: providerNowIso() };
    });
    return { id };
  }

  /** Test helper: the journal received under an externalId, if any. */
  async journal(businessId: string, externalId: string) {
    const doc = await simStore.get<SimJournalDoc>(this.env, `accounting/journals/${businessId}.json`);
    return doc?.journals[externalId] ?? null;
  }
}
