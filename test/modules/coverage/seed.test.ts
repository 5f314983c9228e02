import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { eventually, get, post, runCron } from '../../harness';
import { seedSandbox } from '../../../src/seed';
import { referenceStats } from '../../../src/adapters/underwriter';
import { at } from '../bookings/factories';

const key = () => ({ key: env.DEMO_API_KEY! });

describe('Sandbox coverage', () => {
  it('seeds an offering served by the in-process reference underwriter, usable at once: quote, answers, checkout and bind without a network', async () => {
    await seedSandbox(env);
    await seedSandbox(env);
    const offerings = await get('/coverage/offerings', key());
    expect(offerings.body.data.find((o: any) => o.offeringId === 'cov_demo_reference_cover')).toMatchObject({
      status: 'draft',
      enabledLocationIds: expect.arrayContaining(['loc_demo_miami', 'loc_demo_hamburg']),
    });
    const win = { startTime: at('America/New_York', 5, '10:00'), endTime: at('America/New_York', 5, '12:00') };
    const q = await post('/coverage/quotes', { inventoryId: 'inv_demo_pontoon', ...win }, key());
    expect(q.status, q.text).toBe(200);
    expect(q.body.data[0]).toMatchObject({ offering: { name: 'Reference Boat Cover' }, premium: 12.5, deposit: { withoutCoverage: 300 } });
    const a = await post(`/coverage/quotes/${q.body.data[0].quoteId}/answers`, { answers: { skipper_dob: '1985-03-02', experience: 'some' } }, key());
    expect(a.body.status).toBe('ready');
    const b = await post(
      '/coverage/checkout',
      {
        rentalDetails: { inventoryId: 'inv_demo_pontoon', ...win, quantity: 1 },
        rentalPricing: {},
        customerInfo: { firstName: 'Sandy', lastName: 'Box', email: 'sandy@renter.test' },
        paymentMethodId: 'pm_card_visa',
        extendedData: {},
        coverage: { quoteId: q.body.data[0].quoteId },
      },
      key(),
    );
    expect(b.status, b.text).toBe(201);
    expect(b.body.coverage.status).toBe('purchased');
    const policy = await eventually(async () => {
      const p = await get(`/coverage/policies/${b.body.coverage.policyId}`, key());
      return p.body.status === 'bound' ? p.body : undefined;
    });
    expect(policy).toMatchObject({ transferStatus: 'not_needed', documentUrl: expect.stringMatching(/^https:\/\/reference-underwriter\.berth\.invalid\//) });
    expect(referenceStats().calls.bind).toBeGreaterThanOrEqual(1);
    expect(referenceStats().refused).toBe(0);
    await runCron('*/5 * * * *');
  });
});
