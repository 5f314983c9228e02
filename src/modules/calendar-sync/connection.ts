/**
 * Connecting a user's calendar: the authorization URL with a signed, expiring `state`, the
 * callback (code exchange, tokens sealed), status, calendars, the choice of calendar, and
 * disconnecting (tokens revoked at the provider, credentials and links deleted).
 */
import { and, count, eq } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { seal, signToken, unseal, verifyToken } from '../../lib/sealed';
import { calendarProvider, type CalendarProvider } from '../../adapters/calendar';
import { ProviderError } from '../../adapters/simulators';
import { calendarConnections, calendarEventLinks } from '../../db/schema/calendar-sync';
import { calendarFail } from './errors';
import { calendarUser, connectionOf, eventLinkCount, type ConnectionRow } from './queries';
import { statusOut } from './views';
import { popupPage } from './page';

const STATE_TTL_MS = 10 * 60_000;
const STATE_PURPOSE = 'calendar.state';

interface StateData {
  customerId: string;
  userId: string;
  redirectUri: string;
}

export function providerOf(ctx: Ctx): CalendarProvider {
  const p = calendarProvider(ctx.env);
  if (!p) throw new ApiError('service_unavailable', 'Calendar sync is not configured on this service (GOOGLE_CALENDAR_CLIENT_ID and _SECRET)');
  return p;
}

export const frontendUrl = (ctx: Ctx) => (ctx.env.FRONTEND_URL ?? 'http://localhost:5173').replace(/\/$/, '');
const callbackUrl = (ctx: Ctx, origin: string) => `${(ctx.env.PUBLIC_BASE_URL ?? origin).replace(/\/$/, '')}/integrations/calendar/callback`;

/** GET /integrations/calendar/connect */
export async function connect(ctx: Ctx, input: { userId: string; customerId: string; origin: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  const user = await calendarUser(ctx, input.userId);
  const provider = providerOf(ctx);
  const redirectUri = callbackUrl(ctx, input.origin);
  const state = await signToken<StateData>(ctx.env, STATE_PURPOSE, { customerId, userId: user.id, redirectUri }, STATE_TTL_MS);
  const authorizationUrl = await provider.authorizationUrl({ state, redirectUri, loginHint: provider.name === 'simulator' ? user.id : user.email });
  // The signed state's lifetime runs on real time (lib/sealed checks it so).
  return { authorizationUrl, state, expiresAt: new Date(wallClock.now() + STATE_TTL_MS).toISOString(), provider: provider.name };
}

export type CallbackResult =
  { kind: 'redirect'; url: string } | { kind: 'page'; html: string; headers: Record<string, string>; connectionId: string; userId: string };

/**
 * GET /integrations/calendar/callback. The state is checked first (400 when missing, forged or
 * expired, whatever else the request carries); a denial redirects to the dashboard; a code is
 * exchanged and the tokens stored sealed.
 */
export async function callback(ctx: Ctx, q: { code?: string; state?: string; error?: string }): Promise<CallbackResult> {
  const checked = await verifyToken<StateData>(ctx.env, STATE_PURPOSE, q.state);
  if (!q.state) throw calendarFail('invalid_oauth_state', 'state is required', { details: [{ field: 'state', message: 'state is required' }] });
  if (!checked.ok)
    throw calendarFail('invalid_oauth_state', `The state is ${checked.reason === 'expired' ? 'expired' : 'invalid'}; start the connection again`);
  const { customerId, userId, redirectUri } = checked.data;
  const front = frontendUrl(ctx);
  if (q.error) {
    return {
      kind: 'redirect',
      url: `${front}/settings/integrations?${new URLSearchParams({ integration: 'calendar', status: 'denied', reason: q.error.slice(0, 100) })}`,
    };
  }
  if (!q.code)
    throw new ApiError('validation_failed', 'code is required', {
      details: [{ field: 'code', location: 'query', code: 'required', message: 'code is required' }],
    });
  const provider = providerOf(ctx);
  let tokens;
  try {
    tokens = await provider.exchangeCode(q.code, redirectUri);
  } catch (err) {
    if (err instanceof ProviderError && (err.kind === 'auth' || err.kind === 'invalid'))
      throw new ApiError('bad_request', 'The calendar provider refused the authorization code (used or expired)');
    throw err;
  }
  // The operator is known from the state: its clock stamps the connection.
  const tctx: Ctx = await onOperatorClock({ ...ctx, principal: { ...ctx.principal, customerId, userId } }, customerId);
  const existing = await connectionOf(tctx, customerId, userId);
  const id = existing?.id ?? newId('cal');
  const now = nowIso(tctx);
  const values = {
    provider: provider.name,
    status: 'connected' as const,
    accountEmail: tokens.accountEmail,
    accessToken: await seal(ctx.env, tokens.accessToken),
    refreshToken: tokens.refreshToken ? await seal(ctx.env, tokens.refreshToken) : (existing?.refreshToken ?? null),
    tokenExpiresAt: tokens.expiresAt,
    syncToken: null,
    lastError: null,
    updatedAt: now,
  };
  await commit(
    tctx,
    [
      existing
        ? ctx.db
            .update(calendarConnections)
            .set(values)
            .where(and(eq(calendarConnections.id, existing.id), eq(calendarConnections.customerId, customerId)))
        : ctx.db.insert(calendarConnections).values({ id, customerId, userId, calendarId: 'primary', calendarName: null, ...values }),
    ],
    {
      audit: {
        action: 'calendar.connect',
        targetType: 'user',
        targetId: userId,
        customerId,
        details: { provider: provider.name, accountEmail: tokens.accountEmail },
      },
    },
  );
  const page = await popupPage({
    title: 'Calendar connected',
    text: `Your calendar${tokens.accountEmail ? ` (${tokens.accountEmail})` : ''} is connected to Berth.`,
    message: { type: 'berth:integration', integration: 'calendar', status: 'connected', userId },
    targetOrigin: new URL(front).origin,
  });
  return { kind: 'page', ...page, connectionId: id, userId };
}

/** A usable access token: refreshed when it expires within a minute. A refused refresh marks the connection as needing a new consent. */
export async function accessTokenOf(ctx: Ctx, conn: ConnectionRow, provider: CalendarProvider): Promise<string> {
  // The provider's access token expires on the provider's clock: real time.
  if (conn.tokenExpiresAt > wallClock.now() + 60_000) return unseal(ctx.env, conn.accessToken);
  if (!conn.refreshToken) throw calendarFail('calendar_reauthorization_required', 'The calendar access expired and no refresh token is stored; connect again');
  try {
    const t = await provider.refresh(await unseal(ctx.env, conn.refreshToken));
    const sealed = await seal(ctx.env, t.accessToken);
    await ctx.db
      .update(calendarConnections)
      .set({ accessToken: sealed, tokenExpiresAt: t.expiresAt })
      .where(and(eq(calendarConnections.id, conn.id), eq(calendarConnections.customerId, conn.customerId)));
    conn.accessToken = sealed;
    conn.tokenExpiresAt = t.expiresAt;
    return t.accessToken;
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'auth') {
      await ctx.db
        .update(calendarConnections)
        .set({ status: 'error', lastError: 'The calendar provider refused the stored credentials; connect again' })
        .where(and(eq(calendarConnections.id, conn.id), eq(calendarConnections.customerId, conn.customerId)));
      throw calendarFail('calendar_reauthorization_required', 'The calendar provider refused the stored credentials; connect again');
    }
    throw err;
  }
}

async function requireConnection(ctx: Ctx, userId: string) {
  const user = await calendarUser(ctx, userId);
  const conn = await connectionOf(ctx, user.customerId, user.id);
  if (!conn) throw calendarFail('calendar_not_connected', 'This user has not connected a calendar');
  return conn;
}

/** GET /integrations/calendar/status */
export async function status(ctx: Ctx, userId: string) {
  const user = await calendarUser(ctx, userId);
  const conn = await connectionOf(ctx, user.customerId, user.id);
  return statusOut(user.id, conn, conn ? await eventLinkCount(ctx, conn) : 0);
}

/** GET /integrations/calendar/calendars */
export async function calendars(ctx: Ctx, userId: string) {
  const conn = await requireConnection(ctx, userId);
  const provider = providerOf(ctx);
  const token = await accessTokenOf(ctx, conn, provider);
  const list = await provider.listCalendars(token);
  return { data: list.map((c) => ({ ...c, selected: c.id === conn.calendarId })) };
}

/** POST /integrations/calendar/update-calendar: the events move to the chosen calendar at the next sync (the old calendar's are removed). */
export async function chooseCalendar(ctx: Ctx, input: { userId: string; calendarId: string }) {
  const conn = await requireConnection(ctx, input.userId);
  const provider = providerOf(ctx);
  const token = await accessTokenOf(ctx, conn, provider);
  const list = await provider.listCalendars(token);
  const chosen = list.find((c) => c.id === input.calendarId);
  if (!chosen)
    throw new ApiError('bad_request', 'Unknown calendar: pick one from GET /integrations/calendar/calendars', {
      details: [{ field: 'calendarId', message: 'not a calendar of this account' }],
    });
  if (!chosen.writable)
    throw new ApiError('bad_request', 'Berth cannot write to this calendar (read-only)', { details: [{ field: 'calendarId', message: 'read-only' }] });
  let removed = 0;
  if (chosen.id !== conn.calendarId) {
    const links = await ctx.db
      .select()
      .from(calendarEventLinks)
      .where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id)))
      .all();
    for (const l of links) {
      await provider.deleteEvent(token, conn.calendarId, l.eventId).catch((err) => ctx.log.warn('calendar event removal failed', { error: String(err) }));
      removed++;
    }
  }
  await commit(
    ctx,
    [
      ctx.db
        .update(calendarConnections)
        .set({ calendarId: chosen.id, calendarName: chosen.name, syncToken: chosen.id === conn.calendarId ? conn.syncToken : null })
        .where(and(eq(calendarConnections.id, conn.id), eq(calendarConnections.customerId, conn.customerId))),
      ...(chosen.id !== conn.calendarId
        ? [ctx.db.delete(calendarEventLinks).where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id)))]
        : []),
    ],
    { audit: { action: 'calendar.choose', targetType: 'user', targetId: conn.userId, details: { calendarId: chosen.id, removedEvents: removed } } },
  );
  return { userId: conn.userId, calendarId: chosen.id, calendarName: chosen.name, movedEvents: removed };
}

/** POST /integrations/calendar/disconnect: revokes the tokens at the provider and deletes the stored credentials and event links (idempotent). */
export async function disconnect(ctx: Ctx, userId: string) {
  const user = await calendarUser(ctx, userId);
  const conn = await connectionOf(ctx, user.customerId, user.id);
  if (!conn) return { success: true, userId: user.id, revoked: false, removedEventLinks: 0 };
  let revoked = false;
  const provider = calendarProvider(ctx.env);
  if (provider) {
    try {
      // Revoking the refresh token revokes the grant (and its access tokens) at Google; the simulator revokes each token given.
      if (conn.refreshToken) await provider.revoke(await unseal(ctx.env, conn.refreshToken));
      await provider.revoke(await unseal(ctx.env, conn.accessToken));
      revoked = true;
    } catch (err) {
      ctx.log.warn('calendar token revocation failed', { error: String(err) });
    }
  }
  const links = await ctx.db
    .select({ n: count() })
    .from(calendarEventLinks)
    .where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id)))
    .get();
  await commit(
    ctx,
    [
      ctx.db.delete(calendarEventLinks).where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id))),
      ctx.db.delete(calendarConnections).where(and(eq(calendarConnections.id, conn.id), eq(calendarConnections.customerId, tenantOf(ctx)))),
    ],
    { audit: { action: 'calendar.disconnect', targetType: 'user', targetId: user.id, details: { revoked } } },
  );
  return { success: true, userId: user.id, revoked, removedEventLinks: links?.n ?? 0 };
}
