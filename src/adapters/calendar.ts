/**
 * Calendar provider port (calendar sync): OAuth 2.0 authorization code flow, calendars, events and
 * incremental listing with a sync token (a 410 from the provider means the token expired: list
 * everything again). The real implementation is Google Calendar over fetch
 * (`GOOGLE_CALENDAR_CLIENT_ID`, `GOOGLE_CALENDAR_CLIENT_SECRET`); the simulator plays Google's
 * side offline: the consent screen approves at once (the authorization URL leads straight back to
 * the callback with a code), codes are single-use and expire after 10 minutes, tokens expire and
 * can be revoked, events live in R2 and sync tokens expire when told to.
 */
import type { Env } from '../env';
import { sha256Hex } from '../lib/crypto';
import { signToken, verifyToken } from '../lib/sealed';
import { outbound } from './http';
import { liveIntegrations, ProviderError, providerError, providerNow, providerNowIso, simStore } from './simulators';

export interface CalendarTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds. */
  expiresAt: number;
  accountEmail: string | null;
}

export interface CalendarInfo {
  id: string;
  name: string;
  primary: boolean;
  timeZone: string | null;
  /** Berth writes events only to calendars the account may write. */
  writable: boolean;
}

export interface CalendarEventInput {
  /** iCalendar UID: stable per booking, the same in the private feeds. */
  uid: string;
  summary: string;
  description: string;
  location: string | null;
  start: string;
  end: string;
  status: 'confirmed' | 'cancelled';
  sequence: number;
  rentalId: string;
}

export interface RemoteEvent {
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  rentalId: string | null;
  sequence: number;
}

export interface EventPage {
  items: RemoteEvent[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

export interface CalendarProvider {
  readonly name: 'google' | 'simulator';
  authorizationUrl(p: { state: string; redirectUri: string; loginHint?: string }): Promise<string>;
  exchangeCode(code: string, redirectUri: string): Promise<CalendarTokens>;
  refresh(refreshToken: string): Promise<Pick<CalendarTokens, 'accessToken' | 'expiresAt'>>;
  revoke(token: string): Promise<void>;
  listCalendars(accessToken: string): Promise<CalendarInfo[]>;
  insertEvent(accessToken: string, calendarId: string, ev: CalendarEventInput): Promise<{ id: string }>;
  /** Throws ProviderError `not_found`/`gone` when the event no longer exists there. */
  updateEvent(accessToken: string, calendarId: string, eventId: string, ev: CalendarEventInput): Promise<{ id: string }>;
  deleteEvent(accessToken: string, calendarId: string, eventId: string): Promise<void>;
  /** One page of changes since `syncToken` (everything without one). Throws ProviderError `gone` (410) when the token expired. */
  listEvents(accessToken: string, calendarId: string, opts: { syncToken?: string | null; pageToken?: string }): Promise<EventPage>;
}

/** The provider to use, or null when the real one is required but not configured (the routes answer 503). */
export function calendarProvider(env: Env): CalendarProvider | null {
  if (!liveIntegrations(env)) return new SimulatedCalendar(env);
  if (!env.GOOGLE_CALENDAR_CLIENT_ID || !env.GOOGLE_CALENDAR_CLIENT_SECRET) return null;
  return new GoogleCalendar(env.GOOGLE_CALENDAR_CLIENT_ID, env.GOOGLE_CALENDAR_CLIENT_SECRET);
}

// ------------------------------------------------------------------------------------------------
// Google Calendar

const GOOGLE_AUTH = 'https://accounts.google.com/o/oauth2/v2/auth';
const GOOGLE_TOKEN = 'https://oauth2.googleapis.com/token';
const GOOGLE_REVOKE = 'https://oauth2.googleapis.com/revoke';
const GOOGLE_API = 'https://www.googleapis.com/calendar/v3';
const SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/calendar.calendarlist.readonly', 'https://www.googleapis.com/auth/calendar.events'];

interface GoogleEvent {
  id: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  sequence?: number;
  extendedProperties?: { private?: Record<string, string> };
}

/** The email claim of an ID token received directly from the token endpoint over TLS (no signature check needed there). */
function emailOfIdToken(idToken: string | undefined): string | null {
  if (!idToken) return null;
  try {
    const part = idToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(part + '==='.slice((part.length + 3) % 4))) as { email?: string };
    return claims.email ?? null;
  } catch {
    return null;
  }
}

export class GoogleCalendar implements CalendarProvider {
  readonly name = 'google' as const;
  constructor(
    private clientId: string,
    private clientSecret: string,
  ) {}

  async authorizationUrl(p: { state: string; redirectUri: string; loginHint?: string }) {
    const q = new URLSearchParams({
      client_id: this.clientId,
      redirect_uri: p.redirectUri,
      response_type: 'code',
      scope: SCOPES.join(' '),
      access_type: 'offline',
      include_granted_scopes: 'true',
      prompt: 'consent',
      state: p.state,
      ...(p.loginHint ? { login_hint: p.loginHint } : {}),
    });
    return `${GOOGLE_AUTH}?${q}`;
  }

  private async token(params: Record<string, string>) {
    const res = await outbound.fetch(GOOGLE_TOKEN, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: this.clientId, client_secret: this.clientSecret, ...params }),
    });
    const text = await res.text();
    // invalid_grant (a reused or expired code, a revoked refresh token) is a 400 at Google.
    if (res.status === 400 && /invalid_grant/.test(text)) throw new ProviderError('The calendar provider refused the grant', 'auth', 400);
    if (!res.ok) throw providerError('The calendar provider', res, text);
    return JSON.parse(text) as { access_token: string; expires_in: number; refresh_token?: string; id_token?: string };
  }

  async exchangeCode(code: string, redirectUri: string): Promise<CalendarTokens> {
    const t = await this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token ?? null,
      expiresAt: providerNow() + t.expires_in * 1000,
      accountEmail: emailOfIdToken(t.id_token),
    };
  }

  async refresh(refreshToken: string) {
    const t = await this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return { accessToken: t.access_token, expiresAt: providerNow() + t.expires_in * 1000 };
  }

  async revoke(token: string) {
    const res = await outbound.fetch(`${GOOGLE_REVOKE}?token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // 400 invalid_token: already revoked or expired, which is what we wanted.
    if (!res.ok && res.status !== 400) throw providerError('The calendar provider', res);
  }

  private async api<T>(accessToken: string, path: string, init: RequestInit = {}): Promise<T> {
    const res = await outbound.fetch(`${GOOGLE_API}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${accessToken}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
    });
    const text = await res.text();
    if (!res.ok) throw providerError('Google Calendar', res, text);
    return (text ? JSON.parse(text) : {}) as T;
  }

  async listCalendars(accessToken: string): Promise<CalendarInfo[]> {
    const out: CalendarInfo[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.api<{
        items: { id: string; summary: string; summaryOverride?: string; primary?: boolean; timeZone?: string; accessRole: string }[];
        nextPageToken?: string;
      }>(accessToken, `/users/me/calendarList?maxResults=250${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`);
      for (const c of page.items ?? [])
        out.push({
          id: c.id,
          name: c.summaryOverride ?? c.summary,
          primary: !!c.primary,
          timeZone: c.timeZone ?? null,
          writable: c.accessRole === 'owner' || c.accessRole === 'writer',
        });
      pageToken = page.nextPageToken;
    } while (pageToken);
    return out;
  }

  private body(ev: CalendarEventInput) {
    return JSON.stringify({
      iCalUID: ev.uid,
      summary: ev.summary,
      description: ev.description,
      location: ev.location ?? undefined,
      start: { dateTime: ev.start },
      end: { dateTime: ev.end },
      status: ev.status,
      sequence: ev.sequence,
      extendedProperties: { private: { berthRentalId: ev.rentalId } },
    });
  }

  async insertEvent(accessToken: string, calendarId: string, ev: CalendarEventInput) {
    const r = await this.api<GoogleEvent>(accessToken, `/calendars/${encodeURIComponent(calendarId)}/events`, { method: 'POST', body: this.body(ev) });
    return { id: r.id };
  }

  async updateEvent(accessToken: string, calendarId: string, eventId: string, ev: CalendarEventInput) {
    const r = await this.api<GoogleEvent>(accessToken, `/calendars/${encodeURIComponent(calendarId)}/events/${encodeURIComponent(eventId)}`, {
      method: 'PUT',
      body: this.body(ev),
    });
    return { id: r.id };
  }

  async deleteEvent(accessToken: string, calendarId: string, eventId: string) {
    try {
      await this.api(accessToken, `/calendars/${encodeURIComponent(calendarId)}/events/${encodeURIComponent(eventId)}`, { method: 'DELETE' });
    } catch (err) {
      if (err instanceof ProviderError && (err.kind === 'not_found' || err.kind === 'gone')) return;
      throw err;
    }
  }

  async listEvents(accessToken: string, calendarId: string, opts: { syncToken?: string | null; pageToken?: string }): Promise<EventPage> {
    const q = new URLSearchParams({ maxResults: '250', showDeleted: 'true', singleEvents: 'true' });
    if (opts.syncToken) q.set('syncToken', opts.syncToken);
    if (opts.pageToken) q.set('pageToken', opts.pageToken);
    const page = await this.api<{ items?: GoogleEvent[]; nextPageToken?: string; nextSyncToken?: string }>(
      accessToken,
      `/calendars/${encodeURIComponent(calendarId)}/events?${q}`,
    );
    return {
      items: (page.items ?? []).map((e) => ({
        id: e.id,
        status: e.status ?? 'confirmed',
        rentalId: e.extendedProperties?.private?.berthRentalId ?? null,
        sequence: e.sequence ?? 0,
      })),
      nextPageToken: page.nextPageToken,
      nextSyncToken: page.nextSyncToken,
    };
  }
}

// ------------------------------------------------------------------------------------------------
// Simulator

interface SimEvent extends CalendarEventInput {
  id: string;
  /** Change counter value when last written. */
  rev: number;
}

interface SimCalendarDoc {
  rev: number;
  /** Sync tokens older than this revision answer 410. */
  floor: number;
  events: Record<string, SimEvent>;
}

const SIM_CODE_TTL = 10 * 60_000;
const SIM_TOKEN_TTL = 60 * 60_000;

/** The accounts the simulated provider knows: one per Berth user who consents (its e-mail is made up). */
const simAccount = (userId: string) => `${userId.toLowerCase()}@calendar.simulator.test`;

export class SimulatedCalendar implements CalendarProvider {
  readonly name = 'simulator' as const;
  constructor(private env: Env) {}

  /** The consent screen approves at once: the URL is the callback itself, carrying a fresh code. */
  async authorizationUrl(p: { state: string; redirectUri: string; loginHint?: string }) {
    const code = await signToken(this.env, 'sim.calendar.code', { account: simAccount(p.loginHint ?? 'user'), redirectUri: p.redirectUri }, SIM_CODE_TTL);
    const q = new URLSearchParams({ code, state: p.state, scope: SCOPES.join(' ') });
    return `${p.redirectUri}?${q}`;
  }

  private async account(accessToken: string): Promise<string> {
    const t = await verifyToken<{ account: string }>(this.env, 'sim.calendar.access', accessToken);
    if (!t.ok) throw new ProviderError('Invalid or expired access token', 'auth', 401);
    if (await simStore.get(this.env, `calendar/revoked/${await sha256Hex(accessToken)}`)) throw new ProviderError('Revoked access token', 'auth', 401);
    return t.data.account;
  }

  async exchangeCode(code: string, redirectUri: string): Promise<CalendarTokens> {
    const t = await verifyToken<{ account: string; redirectUri: string }>(this.env, 'sim.calendar.code', code);
    if (!t.ok || t.data.redirectUri !== redirectUri) throw new ProviderError('invalid_grant: unknown, expired or mismatched code', 'auth', 400);
    const usedKey = `calendar/codes/${t.nonce}`;
    if (await simStore.get(this.env, usedKey)) throw new ProviderError('invalid_grant: code already used', 'auth', 400);
    await simStore.put(this.env, usedKey, { usedAt: providerNowIso() });
    const accessToken = await signToken(this.env, 'sim.calendar.access', { account: t.data.account }, SIM_TOKEN_TTL);
    const refreshToken = await signToken(this.env, 'sim.calendar.refresh', { account: t.data.account }, 365 * 86_400_000);
    return { accessToken, refreshToken, expiresAt: providerNow() + SIM_TOKEN_TTL, accountEmail: t.data.account };
  }

  async refresh(refreshToken: string) {
    const t = await verifyToken<{ account: string }>(this.env, 'sim.calendar.refresh', refreshToken);
    if (!t.ok || (await simStore.get(this.env, `calendar/revoked/${await sha256Hex(refreshToken)}`)))
      throw new ProviderError('invalid_grant: refresh token revoked or expired', 'auth', 400);
    return {
      accessToken: await signToken(this.env, 'sim.calendar.access', { account: t.data.account }, SIM_TOKEN_TTL),
      expiresAt: providerNow() + SIM_TOKEN_TTL,
    };
  }

  async revoke(token: string) {
    await simStore.put(this.env, `calendar/revoked/${await sha256Hex(token)}`, { revokedAt: providerNowIso() });
  }

  async listCalendars(accessToken: string): Promise<CalendarInfo[]> {
    const account = await this.account(accessToken);
    return [
      { id: 'primary', name: account, primary: true, timeZone: 'UTC', writable: true },
      { id: 'sim_rentals', name: 'Rentals', primary: false, timeZone: 'UTC', writable: true },
      { id: 'sim_holidays', name: 'Holidays', primary: false, timeZone: 'UTC', writable: false },
    ];
  }

  private key = (account: string, calendarId: string) => `calendar/events/${account}/${calendarId}.json`;

  private async calendar(accessToken: string, calendarId: string) {
    const account = await this.account(accessToken);
    if (!['primary', 'sim_rentals'].includes(calendarId)) throw new ProviderError('Calendar not found or read-only', 'not_found', 404);
    return this.key(account, calendarId);
  }

  async insertEvent(accessToken: string, calendarId: string, ev: CalendarEventInput) {
    const key = await this.calendar(accessToken, calendarId);
    const id = `simev_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
    await simStore.update<SimCalendarDoc>(this.env, key, { rev: 0, floor: 0, events: {} }, (doc) => {
      doc.rev++;
      doc.events[id] = { ...ev, id, rev: doc.rev };
    });
    return { id };
  }

  async updateEvent(accessToken: string, calendarId: string, eventId: string, ev: CalendarEventInput) {
    const key = await this.calendar(accessToken, calendarId);
    const doc = (await simStore.get<SimCalendarDoc>(this.env, key)) ?? { rev: 0, floor: 0, events: {} };
    const cur = doc.events[eventId];
    if (!cur) throw new ProviderError('Event not found', 'not_found', 404);
    doc.rev++;
    doc.events[eventId] = { ...ev, id: eventId, rev: doc.rev };
    await simStore.put(this.env, key, doc);
    return { id: eventId };
  }

  async deleteEvent(accessToken: string, calendarId: string, eventId: string) {
    const key = await this.calendar(accessToken, calendarId);
    await simStore.update<SimCalendarDoc>(this.env, key, { rev: 0, floor: 0, events: {} }, (doc) => {
      const cur = doc.events[eventId];
      if (!cur || cur.status === 'cancelled') return;
      doc.rev++;
      doc.events[eventId] = { ...cur, status: 'cancelled', rev: doc.rev };
    });
  }

  async listEvents(accessToken: string, calendarId: string, opts: { syncToken?: string | null; pageToken?: string }): Promise<EventPage> {
    const key = await this.calendar(accessToken, calendarId);
    const doc = (await simStore.get<SimCalendarDoc>(this.env, key)) ?? { rev: 0, floor: 0, events: {} };
    let since = 0;
    if (opts.syncToken) {
      const m = /^simsync_(\d+)$/.exec(opts.syncToken);
      if (!m || Number(m[1]) < doc.floor) throw new ProviderError('Sync token is no longer valid, a full sync is required', 'gone', 410);
      since = Number(m[1]);
    }
    const items = Object.values(doc.events)
      .filter((e) => e.rev > since && (since > 0 || e.status !== 'cancelled'))
      .map((e) => ({ id: e.id, status: e.status, rentalId: e.rentalId, sequence: e.sequence }));
    return { items, nextSyncToken: `simsync_${doc.rev}` };
  }

  /** Test and sandbox helper: the events the simulated provider holds (cancelled ones included). */
  async events(accessToken: string, calendarId: string): Promise<SimEvent[]> {
    const doc = await simStore.get<SimCalendarDoc>(this.env, await this.calendar(accessToken, calendarId));
    return Object.values(doc?.events ?? {});
  }

  /** Test helper: expires every sync token issued so far (the next incremental list answers 410). */
  async expireSyncTokens(accessToken: string, calendarId: string) {
    await simStore.update<SimCalendarDoc>(this.env, await this.calendar(accessToken, calendarId), { rev: 0, floor: 0, events: {} }, (doc) => {
      doc.rev++;
      doc.floor = doc.rev;
    });
  }

  /** Test helper: a user deletes an event in their calendar app. */
  async deleteAsUser(accessToken: string, calendarId: string, eventId: string) {
    await this.deleteEvent(accessToken, calendarId, eventId);
  }
}
