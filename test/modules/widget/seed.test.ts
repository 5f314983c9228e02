/** The booking widget's seed step: idempotent, and the sandbox's widget shows it through the public API. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { get } from '../../harness';
import { SEED, SEED_STEPS } from '../../../src/seed/index';

describe('booking widget seed', () => {
  it('seeds the integrations, the Miami policy, rental agreement and staff shifts once', async () => {
    const steps = SEED_STEPS.filter((s) => ['accounts', 'inventory', 'widget'].includes(s.name));
    expect(steps).toHaveLength(3);
    for (const s of steps) await s.run(env);
    expect(await steps[2].run(env)).toBe(false);
    const D = SEED.demo;
    const settings = await get(`/public/customer/${D.customerId}/public`);
    expect(settings.body.integrations).toEqual({ customCode: false, tagManager: true, socialConversion: true, videoPixel: false, chatMessaging: true });
    expect(settings.body.widget.primaryColor).toBe('#0b5cab');
    const miami = settings.body.locations.find((l: any) => l.locationId === D.miamiId);
    expect(miami).toMatchObject({ reviewPlatforms: ['google'], cancellationPolicy: { source: 'location', cutoffHours: 2 } });
    expect((await get(`/public/getTagManager?customerId=${D.customerId}`)).body.containerId).toBe('GTM-DEMO123');
    const templates = await get(`/inHouseWaiver/waiver/templates/location/${D.miamiId}`);
    expect(templates.status, templates.text).toBe(200);
    expect(JSON.stringify(templates.body)).toContain('Rental agreement');
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const staff = await get(
      `/public/available-staff?${new URLSearchParams({ locationId: D.miamiId, skill: 'captain', startTime: `${day}T15:00:00Z`, endTime: `${day}T17:00:00Z` })}`,
    );
    expect(staff.body.staff.map((m: any) => m.staffId)).toEqual([D.captainId]);
    const hamburg = await get(
      `/public/available-staff?${new URLSearchParams({ locationId: D.hamburgId, skill: 'coach', startTime: `${day}T09:00:00Z`, endTime: `${day}T11:00:00Z` })}`,
    );
    expect(hamburg.body.staff.map((m: any) => m.staffId)).toEqual([D.coachId]);
  });
});
