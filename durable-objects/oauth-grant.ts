import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import type { OAuthGrantRpc } from './oauth-grant-protocol';
import { base64Encode, sha256Hex } from '../src/lib/crypto';
import { randomString } from '../src/lib/ids';
import { wallClock } from '../src/lib/clock';
import {
  ACCESS_TOKEN_TTL_MS,
  REFRESH_GRACE_MS,
  REFRESH_GRACE_RETRIES,
  REFRESH_TOKEN_TTL_MS,
  type GrantFailure,
  type GrantInfo,
  type GrantInit,
  type Issued,
} from '../src/modules/oauth/types';

interface AccessEntry {
  hash: string;
  expiresAt: number;
  scopes: string[];
}

interface State extends GrantInit {
  createdAt: number;
  revokedAt: number | null;
  revokedReason: string | null;
  codeUsed: boolean;
  /** The code's redemption issued tokens (false when its one attempt failed: nothing to revoke). */
  codeIssued?: boolean;
  access: AccessEntry[];
  refresh: { hash: string; expiresAt: number; accessHash: string } | null;
  /** The refresh token rotated out last: usable again within the grace period (a client that lost the answer retries). */
  previous: { hash: string; rotatedAt: number; expiresAt: number; retries: number } | null;
  /** Hashes of refresh tokens rotated out before: presenting one is reuse, and revokes the grant. */
  spent: string[];
}

/**
 * OAuth code and token lifetimes (and the cleanup alarm) run on real time, never an operator's
 * sandbox clock: clients check them against their own clocks (lib/clock.ts).
 */
const tokenNow = (): number => wallClock.now();

const KEY = 'grant';
const MAX_SPENT = 5000;
const MAX_ACCESS = 20;

interface Minted {
  access: string;
  accessHash: string;
  refresh: string;
  refreshHash: string;
}

const base64Url = (bytes: Uint8Array) => base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** PKCE S256: BASE64URL(SHA-256(verifier)) (RFC 7636 4.6). */
async function s256(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/**
 * One object per OAuth grant (`idFromName(grantId)`): the authorization code, the refresh-token
 * family and the live access tokens of one authorization, as SHA-256 hashes only.
 *
 * Every operation computes what it needs asynchronously first (new tokens and their hashes, the
 * PKCE digest), then reads the state, decides and writes it back synchronously (SQLite-backed
 * key-value storage), with no await in between. Two refreshes racing with the same token are
 * therefore serialized: the first rotates, the second sees a spent token. Rotation is atomic,
 * which key-value providers with eventual consistency cannot promise.
 */
export class OAuthGrant extends DurableObject<Env> implements OAuthGrantRpc {
  private load(): State | undefined {
    return this.ctx.storage.kv.get<State>(KEY);
  }

  private save(s: State): void {
    this.ctx.storage.kv.put(KEY, s);
  }

  private info(s: State, scopes: string[], expiresAt: number): GrantInfo {
    return {
      grantId: s.grantId,
      kind: s.kind,
      installationId: s.installationId,
      appId: s.appId,
      customerId: s.customerId,
      userId: s.userId,
      scopes,
      sandbox: s.sandbox,
      expiresAt,
    };
  }

  private async mint(prefix: string): Promise<Minted> {
    const id = this.grantUlid(prefix);
    const access = `bat_${id}_${randomString(40)}`;
    const refresh = `brt_${id}_${randomString(40)}`;
    return { access, refresh, accessHash: await sha256Hex(access), refreshHash: await sha256Hex(refresh) };
  }

  private grantUlid(grantId: string): string {
    return grantId.replace(/^grt_/, '');
  }

  private scheduleCleanup(s: State) {
    const last = Math.max(s.refresh?.expiresAt ?? 0, ...s.access.map((a) => a.expiresAt), s.code?.expiresAt ?? 0, s.createdAt);
    void this.ctx.storage.setAlarm(last + 24 * 3600_000);
  }

  private revokeState(s: State, reason: string, now: number): void {
    if (s.revokedAt) return;
    s.revokedAt = now;
    s.revokedReason = reason;
    s.access = [];
    s.refresh = null;
    s.previous = null;
  }

  /** Creates the grant (once). */
  async init(init: GrantInit): Promise<void> {
    if (this.load()) throw new Error(`grant ${init.grantId} already exists`);
    const s: State = {
      ...init,
      createdAt: tokenNow(),
      revokedAt: null,
      revokedReason: null,
      codeUsed: false,
      access: [],
      refresh: null,
      previous: null,
      spent: [],
    };
    this.save(s);
    this.scheduleCleanup(s);
  }

  /**
   * Redeems the authorization code (single use). A second redemption revokes the grant and every
   * token the first one issued (RFC 9700 4.2.1 / RFC 6749 4.1.2).
   */
  async redeemCode(p: { codeHash: string; clientId: string; redirectUri: string | undefined; verifier: string | undefined }): Promise<Issued | GrantFailure> {
    const grantId = this.load()?.grantId;
    if (!grantId) return { ok: false, reason: 'Unknown authorization code' };
    const minted = await this.mint(grantId);
    const digest = p.verifier ? await s256(p.verifier) : undefined;
    // ---- no await below: decide and write atomically ----
    const s = this.load()!;
    const now = tokenNow();
    if (!s.code || s.code.hash !== p.codeHash) return { ok: false, reason: 'Unknown authorization code' };
    if (s.codeUsed) {
      const wasLive = !s.revokedAt;
      this.revokeState(s, 'authorization code reused', now);
      this.save(s);
      const reason = s.codeIssued
        ? 'The authorization code was already used; every token it issued is revoked'
        : 'The authorization code was already used (its one attempt failed and issued no token); start a new authorization';
      return { ok: false, reason, revoked: wasLive };
    }
    if (s.revokedAt) return { ok: false, reason: 'The grant was revoked' };
    s.codeUsed = true;
    this.save(s);
    if (now > s.code.expiresAt) return { ok: false, reason: 'The authorization code expired' };
    if (p.clientId !== s.appId) return { ok: false, reason: 'The authorization code was issued to another client' };
    if (p.redirectUri !== s.code.redirectUri) return { ok: false, reason: 'redirect_uri does not match the one of the authorization request' };
    if (s.code.challenge) {
      if (!p.verifier) return { ok: false, reason: 'code_verifier is required (PKCE)' };
      if (digest !== s.code.challenge) return { ok: false, reason: 'code_verifier does not match the code_challenge (PKCE S256)' };
    } else if (p.verifier) return { ok: false, reason: 'code_verifier sent, but the authorization request had no code_challenge' };
    const accessExp = now + ACCESS_TOKEN_TTL_MS;
    s.access = [{ hash: minted.accessHash, expiresAt: accessExp, scopes: s.scopes }];
    s.refresh = { hash: minted.refreshHash, expiresAt: now + REFRESH_TOKEN_TTL_MS, accessHash: minted.accessHash };
    s.codeIssued = true;
    this.save(s);
    this.scheduleCleanup(s);
    return { ok: true, accessToken: minted.access, refreshToken: minted.refresh, grant: this.info(s, s.scopes, accessExp) };
  }

  /**
   * Refresh-token rotation: the presented token must be the current one (it becomes spent) or,
   * within REFRESH_GRACE_MS, the one rotated out last (the client lost the answer: the pair issued
   * then is replaced). Any other token of this family is reuse: the grant and all its tokens are revoked.
   */
  async refresh(p: { tokenHash: string; clientId: string; scopes?: string[] }): Promise<Issued | GrantFailure> {
    const grantId = this.load()?.grantId;
    if (!grantId) return { ok: false, reason: 'Unknown refresh token' };
    const minted = await this.mint(grantId);
    // ---- no await below ----
    const s = this.load()!;
    const now = tokenNow();
    if (s.revokedAt) return { ok: false, reason: 'The grant was revoked' };
    const isCurrent = s.refresh?.hash === p.tokenHash;
    const isPrevious = s.previous?.hash === p.tokenHash;
    const isSpent = s.spent.includes(p.tokenHash);
    if (!isCurrent && !isPrevious && !isSpent) return { ok: false, reason: 'Unknown refresh token' };
    if (p.clientId !== s.appId) return { ok: false, reason: 'The refresh token was issued to another client' };
    if (p.scopes && p.scopes.some((x) => !s.scopes.includes(x))) return { ok: false, reason: 'scope exceeds what the grant allows', error: 'invalid_scope' };
    const scopes = p.scopes?.length ? p.scopes : s.scopes;
    const inGrace = isPrevious && s.previous && now - s.previous.rotatedAt <= REFRESH_GRACE_MS && s.previous.retries < REFRESH_GRACE_RETRIES;
    if (isCurrent) {
      if (now > s.refresh!.expiresAt) return { ok: false, reason: 'The refresh token expired' };
      if (s.previous) s.spent.push(s.previous.hash);
      s.previous = { hash: s.refresh!.hash, rotatedAt: now, expiresAt: s.refresh!.expiresAt, retries: 0 };
    } else if (inGrace) {
      // The pair issued by the lost answer is never used: its refresh token becomes spent, its access token stops.
      s.spent.push(s.refresh!.hash);
      s.access = s.access.filter((a) => a.hash !== s.refresh!.accessHash);
      s.previous!.retries++;
    } else {
      this.revokeState(s, 'refresh token reuse', now);
      this.save(s);
      return { ok: false, reason: 'The refresh token was already used; the grant and all its tokens are revoked', revoked: true };
    }
    if (s.spent.length > MAX_SPENT) s.spent = s.spent.slice(-MAX_SPENT);
    const accessExp = now + ACCESS_TOKEN_TTL_MS;
    s.access = [...s.access.filter((a) => a.expiresAt > now), { hash: minted.accessHash, expiresAt: accessExp, scopes }].slice(-MAX_ACCESS);
    s.refresh = { hash: minted.refreshHash, expiresAt: now + REFRESH_TOKEN_TTL_MS, accessHash: minted.accessHash };
    this.save(s);
    this.scheduleCleanup(s);
    return { ok: true, accessToken: minted.access, refreshToken: minted.refresh, grant: this.info(s, scopes, accessExp) };
  }

  /** Token exchange grants: one more access token for the installation's scopes (no refresh token). */
  async issueAccess(p: { clientId: string; scopes: string[] }): Promise<Issued | GrantFailure> {
    const grantId = this.load()?.grantId;
    if (!grantId) return { ok: false, reason: 'Unknown grant' };
    const minted = await this.mint(grantId);
    const s = this.load()!;
    const now = tokenNow();
    if (s.revokedAt) return { ok: false, reason: 'The grant was revoked' };
    if (p.clientId !== s.appId) return { ok: false, reason: 'The grant belongs to another client' };
    s.scopes = p.scopes;
    const accessExp = now + ACCESS_TOKEN_TTL_MS;
    s.access = [...s.access.filter((a) => a.expiresAt > now), { hash: minted.accessHash, expiresAt: accessExp, scopes: p.scopes }].slice(-MAX_ACCESS);
    this.save(s);
    this.scheduleCleanup(s);
    return { ok: true, accessToken: minted.access, grant: this.info(s, p.scopes, accessExp) };
  }

  /** The grant behind a live access token, or null (unknown, expired or revoked). */
  async check(accessHash: string): Promise<GrantInfo | null> {
    const s = this.load();
    if (!s || s.revokedAt) return null;
    const a = s.access.find((x) => x.hash === accessHash);
    if (!a || a.expiresAt <= tokenNow()) return null;
    return this.info(s, a.scopes, a.expiresAt);
  }

  /**
   * RFC 7009: a refresh token (current, previous or spent) revokes the whole grant; an access
   * token stops alone. `found` is false for a token this grant does not know.
   */
  async revokeToken(p: { tokenHash: string; clientId: string }): Promise<{ found: boolean; grantRevoked: boolean; wrongClient?: boolean }> {
    const s = this.load();
    if (!s) return { found: false, grantRevoked: false };
    const isRefresh = s.refresh?.hash === p.tokenHash || s.previous?.hash === p.tokenHash || s.spent.includes(p.tokenHash);
    const isAccess = s.access.some((a) => a.hash === p.tokenHash);
    if (!isRefresh && !isAccess) return { found: false, grantRevoked: false };
    if (p.clientId !== s.appId) return { found: true, grantRevoked: false, wrongClient: true };
    if (isRefresh) {
      const was = !s.revokedAt;
      this.revokeState(s, 'revoked by the client', tokenNow());
      this.save(s);
      return { found: true, grantRevoked: was };
    }
    s.access = s.access.filter((a) => a.hash !== p.tokenHash);
    this.save(s);
    return { found: true, grantRevoked: false };
  }

  /** Revokes the grant and every token at once (uninstall, app deleted, operator revocation). */
  async revoke(reason: string): Promise<boolean> {
    const s = this.load();
    if (!s || s.revokedAt) return false;
    this.revokeState(s, reason, tokenNow());
    this.save(s);
    return true;
  }

  async alarm(): Promise<void> {
    const s = this.load();
    if (!s) return;
    const last = Math.max(s.refresh?.expiresAt ?? 0, ...s.access.map((a) => a.expiresAt), s.code?.expiresAt ?? 0);
    if (tokenNow() >= last) await this.ctx.storage.deleteAll();
    else this.scheduleCleanup(s);
  }
}
