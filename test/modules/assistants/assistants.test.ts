/**
 * The AI helpers: the booking sidekick (questions about one booking) and the fleet concierge
 * (questions about an operator's boats, tours, prices and availability). Without the AI binding the
 * deterministic rules answer from the operator's own data; with Workers AI, a model answer that
 * states an amount the data does not is replaced by the rules' answer (never an invented price).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, post, type Operator } from '../../harness';
import { systemCtx } from '../../../src/lib/context';
import type { Env } from '../../../src/env';
import { answered, moneyAmounts, pricesGrounded, workersAiFor } from '../../../src/adapters/ai';
import { fleetConcierge } from '../../../src/modules/assistants/service';
import { formatLocalRange, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { addDays, localDate } from '../../../src/lib/time';
import { pinnedClocks } from '../../clocks';
import { at, book, bookBody, dateAhead, email, rentalItem, tourItem } from '../bookings/factories';

let ipSeq = 0;
const ip = () => ({ 'cf-connecting-ip': `10.44.${Math.floor(Math.random() * 250)}.${++ipSeq % 250}` });
const ask = (rentalId: string, message: string) => post('/public/customer-sidekick', { rentalId, message }, { headers: ip() });
const concierge = (body: Record<string, unknown>) => post('/public/boat-concierge', body, { headers: ip() });

async function booking(op: Operator) {
  const item = await rentalItem(op, { data: { name: 'Pontoon 22' } });
  const r = await book(
    op,
    bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00'), quantity: 1, email: email('ask') }),
  );
  expect(r.status, r.text).toBe(201);
  return { item, rentalId: r.body.rentalId as string };
}

describe('POST /public/customer-sidekick', () => {
  it("answers questions about the booking from its own data, in the location's time", async () => {
    const op = await createOperator();
    const { rentalId } = await booking(op);
    const r = await ask(rentalId, 'When does it start and where do we meet?');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ rentalId, status: 'answered', reason: null, source: 'rules', model: null, topics: ['time', 'location'] });
    // In the location's zone, through the one formatter of times a person reads ("Sat 12 Dec 2026, 10:00–12:00 EST").
    const start = at(op.timezone, 3, '10:00');
    expect(r.body.answer).toContain(formatLocalRange(start, at(op.timezone, 3, '12:00'), op.timezone));
    expect(r.body.answer).toMatch(/, 10:00–12:00 E[SD]T\./);
    expect(r.body.answer).not.toMatch(ISO_TIMESTAMP);
    expect(r.body.answer).toContain('Main dock, 1 Harbour Way');
    const money = await ask(rentalId, 'How much do I still owe?');
    expect(money.body.answer).toBe('Your booking total is $200.00; you have paid $200.00.');
    const cancel = await ask(rentalId, 'Can I cancel and get a refund?');
    expect(cancel.body.topics).toEqual(['cancellation']);
    expect(cancel.body.answer).toContain('You can cancel now with a refund of $200.00.');
    // Every amount it states is the booking's own.
    for (const a of moneyAmounts(`${money.body.answer} ${cancel.body.answer}`)) expect([20000]).toContain(a);
  });

  it("says honestly what it cannot answer, with the operator's phone number, and logs the question on the booking", async () => {
    const op = await createOperator();
    const { rentalId } = await booking(op);
    const weather = await ask(rentalId, 'Will it rain on Saturday?');
    expect(weather.body).toMatchObject({ status: 'cannot_answer', reason: 'out_of_scope' });
    expect(weather.body.answer).toContain('+15555550100');
    const joke = await ask(rentalId, 'Tell me a joke');
    expect(joke.body).toMatchObject({ status: 'cannot_answer', reason: 'not_in_facts' });
    const logged = await env.DB.prepare(
      `SELECT content, details FROM booking_events WHERE rental_id = ? AND event_type = 'renter.question' ORDER BY created_at`,
    )
      .bind(rentalId)
      .all<{ content: string; details: string }>();
    expect(logged.results.map((e) => e.content)).toEqual(['Will it rain on Saturday?', 'Tell me a joke']);
    expect(JSON.parse(logged.results[0].details)).toMatchObject({ status: 'cannot_answer', source: 'rules' });
  });

  it('answers 404 for an unknown booking and 400 without a message', async () => {
    expectError(await ask('bk_unknown_0000', 'When?'), 404, 'not_found');
    expectError(await post('/public/customer-sidekick', { rentalId: 'bk_x' }, { headers: ip() }), 400, 'validation_failed');
  });
});

describe('POST /public/boat-concierge', () => {
  async function fleet() {
    const op = await createOperator({ name: 'Harbor Fun' });
    const boat = await rentalItem(op, { assets: 1, data: { name: 'Pontoon 22', capacity: 10 } });
    const tour = await tourItem(op, { capacity: 2, data: { name: 'Dolphin Safari' } });
    return { op, boat, tour };
  }

  it('answers prices from the inventory, capacity, and what is open on a date in the location time zone', async () => {
    const { op, boat, tour } = await fleet();
    const price = await concierge({ customerId: op.customerId, message: 'How much is the pontoon?' });
    expect(price.status, price.text).toBe(200);
    expect(price.body).toMatchObject({ customerId: op.customerId, status: 'answered', topics: ['price'], source: 'rules', selectedDate: null });
    expect(price.body.answer).toBe('Pontoon 22: from $100.00 per hour. The exact total (add-ons, taxes) is shown before you pay.');
    expect(price.body.items.map((i: any) => i.inventoryId)).toEqual([boat.id]);
    const all = await concierge({ customerId: op.customerId, message: 'What are your prices and how many people fit?' });
    expect(all.body.topics).toEqual(['price', 'capacity']);
    expect(all.body.answer).toContain('Dolphin Safari: from $50.00 per person');
    expect(all.body.answer).toContain('Pontoon 22: up to 10 people');
    // Never a price that is not the operator's.
    for (const a of moneyAmounts(all.body.answer)) expect([10000, 5000]).toContain(a);

    // Sell the tour's 10:00 departure out on a date: the answer lists what is still open.
    const date = dateAhead(op.timezone, 4);
    expect((await book(op, bookBody({ inventoryId: tour.id, startTime: at(op.timezone, 4, '10:00'), tickets: { Adult: 2 } }))).status).toBe(201);
    const open = await concierge({ customerId: op.customerId, message: 'Is the dolphin safari available?', selectedDate: date });
    expect(open.body).toMatchObject({ status: 'answered', selectedDate: date, topics: ['availability'] });
    expect(open.body.answer).toBe(`Dolphin Safari: 1 start time open on ${date} (14:00, America/New_York time).`);
    expect(open.body.items[0].availability).toEqual({ date, status: 'available', openTimes: ['14:00'], timezone: 'America/New_York' });
    const noDate = await concierge({ customerId: op.customerId, message: 'When can I book?' });
    expect(noDate.body.answer).toContain('Which date would you like?');
  });

  it('says what it cannot answer, and that an operator with nothing public has nothing to book', async () => {
    const { op } = await fleet();
    const r = await concierge({ customerId: op.customerId, message: 'Do you sell fishing licences?' });
    expect(r.body).toMatchObject({ status: 'cannot_answer', reason: 'not_in_facts' });
    expect(r.body.answer).toContain('+15555550100');
    const empty = await createOperator();
    await rentalItem(empty, { isPublic: false });
    expect((await concierge({ customerId: empty.customerId, message: 'What boats do you have?' })).body).toMatchObject({
      status: 'cannot_answer',
      reason: 'no_items',
      items: [],
    });
  });

  it.each(pinnedClocks())("reads 'today' and 'tomorrow' on the operator's clock, in the location's zone ($label)", async (c) => {
    const op = await createOperator({ clockAt: c.at, timezone: c.timezone });
    const today = localDate(Date.parse(c.at), c.timezone);
    const r = await concierge({ customerId: op.customerId, message: 'What is open today?' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.selectedDate).toBe(today);
    expect((await concierge({ customerId: op.customerId, message: 'And tomorrow?' })).body.selectedDate).toBe(addDays(today, 1));
  });

  it('answers 404 for an unknown operator or location and 400 without a message', async () => {
    const { op } = await fleet();
    expectError(await concierge({ customerId: 'cus_unknown_0000', message: 'Hi' }), 404, 'not_found');
    expectError(await concierge({ customerId: op.customerId, message: 'Hi', locationId: 'loc_unknown_0000' }), 404, 'not_found');
    expectError(await concierge({ customerId: op.customerId }), 400, 'validation_failed');
    expectError(await concierge({ customerId: op.customerId, message: 'Hi', selectedDate: 'next week' }), 400, 'validation_failed');
  });
});

describe('the AI port with Workers AI', () => {
  const facts = [
    { label: 'Pontoon 22', value: 'from $100.00 per hour' },
    { label: 'Deposit', value: '300' },
  ];
  const fallback = () => answered('From $100.00 per hour.', ['price']);
  const binding = (reply: unknown) =>
    ({
      run: async () => {
        if (reply instanceof Error) throw reply;
        return reply;
      },
    }) as unknown as Pick<Ai, 'run'>;

  it("uses the model's answer when every amount in it is in the facts", async () => {
    const r = await workersAiFor(binding({ response: 'The Pontoon 22 costs $100 an hour, with a $300 deposit.' })).answer({
      type: 'fleet_concierge',
      message: 'How much?',
      facts,
      fallback,
    });
    expect(r).toMatchObject({ status: 'answered', source: 'model', model: '@cf/meta/llama-3.1-8b-instruct', topics: ['price'] });
  });

  it('replaces an invented price, a refusal, an empty answer or an error with the rules', async () => {
    for (const reply of [{ response: 'Only $79.99 today!' }, { response: 'CANNOT_ANSWER' }, { response: '' }, new Error('model down')]) {
      const r = await workersAiFor(binding(reply)).answer({ type: 'fleet_concierge', message: 'How much?', facts, fallback });
      expect(r).toMatchObject({ source: 'rules', answer: 'From $100.00 per hour.' });
    }
    expect(pricesGrounded('It is 1,200 USD', [{ label: 'x', value: '$1,200.00' }])).toBe(true);
    expect(pricesGrounded('It is €45', [{ label: 'x', value: '$1,200.00' }])).toBe(false);
  });

  it('is used by the concierge when the AI binding is configured', async () => {
    const { op } = await (async () => {
      const o = await createOperator();
      await rentalItem(o, { data: { name: 'Pontoon 22' } });
      return { op: o };
    })();
    const seen: unknown[] = [];
    const AI = { run: async (_model: string, input: unknown) => (seen.push(input), { response: 'It is $100 per hour, or $5 if you ask nicely.' }) };
    const ctx = systemCtx({ ...(env as unknown as Env), AI: AI as unknown as Ai } as Env);
    const r = await fleetConcierge(ctx, { customerId: op.customerId, message: 'How much is the pontoon?' }, '10.44.0.1');
    // The model's $5 is not in the operator's data: the rules' answer is given.
    expect(r).toMatchObject({
      status: 'answered',
      source: 'rules',
      answer: 'Pontoon 22: from $100.00 per hour. The exact total (add-ons, taxes) is shown before you pay.',
    });
    const system = (seen[0] as { messages: { role: string; content: string }[] }).messages[0].content;
    expect(system).toContain('Pontoon 22 (rental, up to 8 people): Pontoon 22: from $100.00 per hour');
    expect(system).toContain('CANNOT_ANSWER');
  });
});
