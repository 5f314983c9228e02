/** POST /ai through HTTP: the four helpers with the deterministic rules (no AI binding in tests), validation, security. */
import { beforeAll, describe, it, expect } from 'vitest';
import { createOperator, expectError, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { addDays } from '../../../src/lib/time';

let op: Operator;
beforeAll(async () => {
  op = await createOperator({ timezone: 'America/New_York' });
});
const ai = (body: Record<string, unknown>, key = op.adminKey) => post('/ai', body, { key });

describe('POST /ai', () => {
  it('emailEnhancement tidies the e-mail, keeps its facts, adds a greeting and a sign-off, and lists the changes', async () => {
    const message = 'your boat is READY for pickup at 9am!!!   the balance of $120.50 is due at the dock.\n\n\n\ni will meet you there';
    const r = await ai({ what: 'emailEnhancement', message, businessName: 'Demo Marina' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ what: 'emailEnhancement', status: 'answered', source: 'rules', model: null, reason: null });
    expect(r.body.result).toBe(
      'Hello,\n\nYour boat is ready for pickup at 9am! The balance of $120.50 is due at the dock.\n\nI will meet you there\n\nBest regards,\nDemo Marina',
    );
    expect(r.body.details.changes).toEqual([
      'tidied spacing',
      'reduced repeated punctuation',
      'lowered shouting',
      'capitalized "I"',
      'capitalized sentences',
      'added a greeting',
      'added a sign-off',
    ]);
    // An e-mail that needs nothing comes back as it was.
    const clean = 'Hi Sam,\n\nSee you on Saturday.\n\nThanks,\nDemo Marina';
    expect((await ai({ what: 'emailEnhancement', message: clean })).body).toMatchObject({ result: clean, details: { changes: [] } });
    expectError(await ai({ what: 'emailEnhancement' }), 400, 'validation_failed');
  });

  it('socialMediaPost writes a post with hashtags made only from what was given', async () => {
    const r = await ai({
      what: 'socialMediaPost',
      prompt: 'sunset cruises are back this weekend',
      businessName: 'Demo Marina',
      businessType: 'boat rental',
      businessLocation: 'Miami, FL',
    });
    expect(r.body.result).toBe('Sunset cruises are back this weekend! Book with Demo Marina in Miami, FL today.\n\n#BoatRental #Miami #DemoMarina');
    expect(r.body.details).toMatchObject({ hashtags: ['#BoatRental', '#Miami', '#DemoMarina'] });
    expectError(await ai({ what: 'socialMediaPost' }), 400, 'validation_failed');
  });

  it('bookingSidekick answers from the bookings given, and honestly refuses the rest', async () => {
    // The operator's clock is pinned: Thu 14 Jan 2027, 10:00 EST.
    const pinned = await createOperator({ timezone: 'America/New_York', clockAt: '2027-01-14T15:00:00Z' });
    const today = '2027-01-14';
    const tomorrow = addDays(today, 1);
    const bookings = [
      { rentalId: 'bk_1', customerName: 'Ana Lopez', itemName: 'Pontoon 22', startTime: `${tomorrow}T14:00:00.000Z`, status: 'confirmed', total: 250 },
      {
        rentalId: 'bk_2',
        customerInfo: { firstName: 'Bo', lastName: 'Kim' },
        rentalDetails: { itemName: 'Kayak' },
        startTime: `${tomorrow}T16:00:00.000Z`,
        status: 'pending',
        rentalPricing: { total: 40.5 },
      },
      { rentalId: 'bk_3', customerName: 'Cy Park', itemName: 'Jet Ski', startTime: `${addDays(today, 3)}T15:00:00.000Z`, status: 'cancelled', total: 95 },
    ];
    const ask = (message: string, list: unknown[] = bookings) => ai({ what: 'bookingSidekick', message, bookings: list }, pinned.adminKey);
    expect((await ask('How many bookings do I have tomorrow?')).body).toMatchObject({
      status: 'answered',
      result: `2 of the 3 booking(s) given (on ${tomorrow}).`,
    });
    expect((await ask('What is the total value of my bookings tomorrow?')).body.result).toBe(`The 2 booking(s) given (on ${tomorrow}) total $290.50.`);
    // Said in the location's time, never as an ISO timestamp.
    expect((await ask('Which is the next booking?')).body.result).toBe('The next booking is Pontoon 22 at Fri 15 Jan 2027, 09:00 EST for Ana Lopez (bk_1).');
    // A start late in the evening is on the local day, not on its UTC date.
    const late = [{ rentalId: 'bk_4', customerName: 'Di Ng', startTime: `${tomorrow}T03:00:00.000Z`, status: 'confirmed' }];
    expect((await ask('How many bookings today?', late)).body.result).toBe(`1 of the 1 booking(s) given (on ${today}).`);
    expect((await ask('Which is the next booking?', late)).body.result).toBe('The next booking is at Thu 14 Jan 2027, 22:00 EST for Di Ng (bk_4).');
    expect((await ask('How many cancelled?')).body.result).toBe('1 of the 3 booking(s) given (cancelled).');
    expect((await ask('Who booked tomorrow?')).body.result).toBe(`Bookings (on ${tomorrow}): Ana Lopez, Bo Kim.`);
    const weather = await ask('What will the weather be like?');
    expect(weather.body).toMatchObject({ status: 'cannot_answer', reason: 'out_of_scope' });
    expect((await ask('How many bookings?', [])).body).toMatchObject({ status: 'cannot_answer', reason: 'no_bookings' });
    expect((await ask('How many bookings?')).body.details).toMatchObject({ bookingsGiven: 3, today, timezone: 'America/New_York' });
  });

  it('businessAudit reviews the data given, says what was not given, and points to the full audit', async () => {
    const r = await ai({
      what: 'businessAudit',
      businessName: 'Demo Marina',
      websiteUrl: 'http://demo-marina.example',
      businessData: { rating: 4.2, reviewCount: 31, hasOnlineBooking: false, socialLinks: ['https://instagram.com/demo'] },
    });
    expect(r.status, r.text).toBe(200);
    const byCheck = Object.fromEntries(r.body.details.findings.map((f: any) => [f.check, f.status]));
    expect(byCheck).toEqual({ rating: 'warn', reviews: 'warn', online_booking: 'fail', social_profiles: 'warn', photos: 'not_given', website: 'warn' });
    expect(r.body.details.score).toBe(40); // (0.5 + 0.5 + 0 + 0.5 + 0.5) / 5
    expect(r.body.result).toMatch(/^Quick score from the data given: 40\/100\./);
    expect(r.body.result).toContain('POST /ai/business-audit');
    const nothing = await ai({ what: 'businessAudit' });
    expect(nothing.body.details.score).toBeNull();
    expect(nothing.body.result).toMatch(/^Not enough business data/);
  });

  it('refuses other request types with the allowed list, and checks credentials', async () => {
    const r = await ai({ what: 'writePoem', message: 'x' });
    expectError(r, 400, 'validation_failed');
    expect(r.body.details[0].field).toBe('what');
    expect(JSON.stringify(r.body.details[0])).toContain('emailEnhancement');
    expectError(await post('/ai', {}, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'POST', path: '/ai', body: { what: 'socialMediaPost', prompt: 'hello' } });
  });
});
