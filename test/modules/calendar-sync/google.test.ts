/** The real Google Calendar adapter over fetch, against a stubbed network: requests as Google expects them, errors classified (410 = full resync). */
import { describe, it, expect, afterEach } from 'vitest';
import { GoogleCalendar } from '../../../src/adapters/calendar';
import { fakeHosts } from '../../outbound';
import { ProviderError } from '../../../src/adapters/simulators';

let restore = () => {};
afterEach(() => restore());

function stub(handler: (req: Request, body: string) => Response | Promise<Response>) {
  const seen: { req: Request; body: string }[] = [];
  restore();
  restore = fakeHosts(['oauth2.googleapis.com', 'www.googleapis.com'], async (input, init) => {
    const req = new Request(input, init);
    const body = await req.clone().text();
    seen.push({ req, body });
    return handler(req, body);
  });
  return seen;
}

const g = new GoogleCalendar('client-id.apps.googleusercontent.com', 'client-secret');

describe('Google Calendar adapter', () => {
  it('authorization URL: offline access, consent, the state and redirect URI', async () => {
    const url = new URL(await g.authorizationUrl({ state: 'st', redirectUri: 'https://api.example/integrations/calendar/callback', loginHint: 'a@b.c' }));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-id.apps.googleusercontent.com',
      redirect_uri: 'https://api.example/integrations/calendar/callback',
      response_type: 'code',
      access_type: 'offline',
      prompt: 'consent',
      state: 'st',
      login_hint: 'a@b.c',
    });
    expect(url.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/calendar.events');
  });

  it('code exchange: form post to the token endpoint; the account e-mail from the ID token; invalid_grant is an auth error', async () => {
    const idToken = `x.${btoa(JSON.stringify({ email: 'captain@example.com' })).replace(/=+$/, '')}.y`;
    const seen = stub(() => Response.json({ access_token: 'ya29.a', expires_in: 3599, refresh_token: '1//r', id_token: idToken }));
    const t = await g.exchangeCode('4/code', 'https://api.example/cb');
    expect(t).toMatchObject({ accessToken: 'ya29.a', refreshToken: '1//r', accountEmail: 'captain@example.com' });
    expect(seen[0].req.url).toBe('https://oauth2.googleapis.com/token');
    expect(Object.fromEntries(new URLSearchParams(seen[0].body))).toMatchObject({
      grant_type: 'authorization_code',
      code: '4/code',
      client_secret: 'client-secret',
    });
    stub(() => Response.json({ error: 'invalid_grant' }, { status: 400 }));
    await expect(g.refresh('1//r')).rejects.toMatchObject({ kind: 'auth' });
  });

  it('events: bearer calls with the iCalendar UID, SEQUENCE and the booking id; a 410 on listing is "gone" (full resync)', async () => {
    const seen = stub((req) => {
      if (req.method === 'POST') return Response.json({ id: 'ev1' });
      if (req.url.includes('syncToken=old')) return Response.json({ error: { code: 410, message: 'Sync token is no longer valid' } }, { status: 410 });
      return Response.json({
        items: [{ id: 'ev1', status: 'confirmed', sequence: 2, extendedProperties: { private: { berthRentalId: 'bk_1' } } }],
        nextSyncToken: 'new',
      });
    });
    await g.insertEvent('tok', 'primary', {
      uid: 'bk_1@berth',
      summary: 'Pontoon',
      description: 'd',
      location: 'Dock',
      start: '2027-01-01T10:00:00.000Z',
      end: '2027-01-01T12:00:00.000Z',
      status: 'confirmed',
      sequence: 2,
      rentalId: 'bk_1',
    });
    expect(seen[0].req.url).toBe('https://www.googleapis.com/calendar/v3/calendars/primary/events');
    expect(seen[0].req.headers.get('authorization')).toBe('Bearer tok');
    expect(JSON.parse(seen[0].body)).toMatchObject({ iCalUID: 'bk_1@berth', sequence: 2, extendedProperties: { private: { berthRentalId: 'bk_1' } } });
    const err = await g.listEvents('tok', 'primary', { syncToken: 'old' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ kind: 'gone', status: 410 });
    const page = await g.listEvents('tok', 'primary', {});
    expect(page).toEqual({ items: [{ id: 'ev1', status: 'confirmed', rentalId: 'bk_1', sequence: 2 }], nextSyncToken: 'new', nextPageToken: undefined });
    expect(seen.at(-1)!.req.url).toContain('showDeleted=true');
  });
});
