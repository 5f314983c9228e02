import { HAMBURG_TZ, MIAMI_TZ, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { todayIn } from '../lib/clock';
import { wallTimeToUtc } from '../lib/time';
import { updateCustomer } from '../modules/customers/service';
import { getLocationInTenant, updateLocation } from '../modules/locations/service';
import { createShift } from '../modules/staff-schedule/service';
import { createTemplate } from '../modules/waivers/service';

/**
 * The operator's booking widget: its look and host-page integrations (tag manager, a social pixel,
 * chat, a Google review link), the Miami cancellation policy (full refund 72 hours ahead, half 24
 * hours ahead), the Miami rental agreement the widget asks renters to sign, and the captain (Miami)
 * and the coach (Hamburg) on shift 08:00–18:00 local time every day for a year from today (each
 * location's date, from the clock) (public staff availability). The Miami policy is written last
 * and marks the step as done.
 */
async function seedWidget(ctx: Ctx, D: DemoOperator): Promise<boolean> {
  const miami = await getLocationInTenant(ctx, D.miamiId);
  if ((miami.details as { cancellationPolicy?: unknown } | null)?.cancellationPolicy) return false;
  await createTemplate(ctx, {
    customerId: D.customerId,
    locationId: D.miamiId,
    title: 'Rental agreement',
    sections: [
      { type: 'text', id: 'terms', content: 'Boating has risks. Follow the captain and the safety briefing; the renter answers for damage caused on purpose.' },
      { type: 'checkbox', id: 'lifejacket', label: 'I will wear a life jacket when asked', required: true },
      { type: 'signature', id: 'signature', label: 'Signature' },
    ],
  });
  for (const [staffId, locationId, tz] of [
    [D.captainId, D.miamiId, MIAMI_TZ],
    [D.coachId, D.hamburgId, HAMBURG_TZ],
  ]) {
    const today = todayIn(ctx, tz);
    const at = (time: string) => new Date(wallTimeToUtc(today, time, tz)).toISOString();
    await createShift(ctx, {
      customerId: D.customerId,
      locationId,
      staffId,
      startTime: at('08:00'),
      endTime: at('18:00'),
      recurring: true,
      recurrencePattern: { frequency: 'daily', interval: 1, count: 365 },
    });
  }
  await updateCustomer(ctx, {
    integrations: {
      widget: { primaryColor: '#0b5cab', accentColor: '#f2a900', termsUrl: 'https://demo-marina.example.com/terms' },
      tagManager: { containerId: 'GTM-DEMO123' },
      socialConversion: { metaPixelId: '1234567890123' },
      chatMessaging: { provider: 'crisp', websiteId: 'demo-marina-chat', welcomeMessage: 'Ahoy! Questions about a boat? Ask us here.' },
      reviewConnections: { google: { url: 'https://g.page/r/demo-marina/review' } },
    },
  });
  await updateLocation(ctx, {
    locationId: D.miamiId,
    details: {
      cancellationPolicy: {
        cutoffHours: 2,
        tiers: [
          { hoursBefore: 72, refundPercent: 100 },
          { hoursBefore: 24, refundPercent: 50 },
          { hoursBefore: 0, refundPercent: 0 },
        ],
      },
    },
  });
  return true;
}

export const widgetSeed: OperatorSeedStep = { name: 'widget', run: seedWidget };
