import { describe, expect, it } from 'vitest';
import { devVars } from './env';
import { api, berth, tempDir } from './helpers';

const KEY = devVars().DEMO_API_KEY;

describe('berth clock', () => {
  it('needs a sandbox admin key in BERTH_API_KEY (usage, exit 2)', async () => {
    const home = tempDir('home');
    const r = await berth(['clock', 'list'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('BERTH_API_KEY');
    const live = await berth(['clock', 'list', '--json'], { home, env: { BERTH_API_KEY: 'brk_not_a_real_key_000000000000000000000' } });
    expect(live.code).toBe(3);
  });

  it('create, list, advance (waits until ready) and delete a test clock', async () => {
    const home = tempDir('home');
    const env = { BERTH_API_KEY: KEY };
    const created = await berth(['clock', 'create', '--time', '+30d', '--name', 'cli clock', '--json'], { home, env });
    expect(created.code, created.stderr).toBe(0);
    const clock = JSON.parse(created.stdout);
    expect(clock).toMatchObject({ object: 'test_clock', status: 'ready', name: 'cli clock' });
    expect(clock.apiKey).toMatch(/^brk_/);
    // The clock's operator answers at the clock's time.
    const me = await api<any>('GET', '/customer', { headers: { 'x-api-key': clock.apiKey } });
    expect(me.body.createdAt).toBe(clock.frozenTime);

    const listed = await berth(['clock', 'list'], { home, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(clock.id);

    const past = await berth(['clock', 'advance', clock.id, '--to', '2020-01-01T00:00:00Z'], { home, env });
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("after the clock's current time");
    const bad = await berth(['clock', 'advance', clock.id, '--to', 'tomorrow'], { home, env });
    expect(bad.code).toBe(2);

    const adv = await berth(['clock', 'advance', clock.id, '--to', '+2d', '--json'], { home, env });
    expect(adv.code, adv.stderr).toBe(0);
    const after = JSON.parse(adv.stdout);
    expect(after.status).toBe('ready');
    expect(Date.parse(after.frozenTime) - Date.parse(clock.frozenTime)).toBe(2 * 86_400_000);

    const del = await berth(['clock', 'delete', clock.id, '--yes'], { home, env });
    expect(del.code, del.stderr).toBe(0);
    expect((await api('GET', '/customer', { headers: { 'x-api-key': clock.apiKey } })).status).toBe(401);
    const gone = await berth(['clock', 'advance', clock.id, '--to', '+1d'], { home, env });
    expect(gone.code).toBe(5);
  });
});
