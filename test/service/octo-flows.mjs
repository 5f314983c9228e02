// OCTO's validator (github octotravel/validator; scripts/octo-validate.mjs runs all of it where GitHub is
// reachable) against a started service: its flows that depend on the sandbox's seeded state, as it runs
// them, on a reseller's fresh private sandbox, then again after a reset. CI reaches only the npm registry,
// where the validator is not published, so these flows are rewritten here from its source:
//   - products: the START_TIME products whose default option has more than one available departure in
//     the next 30 days (UTC dates, as the validator computes them) are its "available products", in the
//     order of GET /products; the first with any SOLD_OUT departure is its "sold-out product";
//   - "Booking Reservation SOLD_OUT": a reservation on that sold-out departure is refused (400 UNPROCESSABLE_ENTITY);
//   - "Booking Update - Change Product": a reservation of product 1 is moved to product 2 with its option's
//     `maxUnits` (its pseudo-random pick: a number from the option id, a departure from the list's length),
//     and succeeds; and every available departure of product 2 has room for that many units (whatever the
//     validator picks on another day);
//   - the reset brings the private sandbox back to its seeded state: the same flows pass again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';

/** The validator's PseudoRandomGenerator (a linear congruential generator seeded by a string's hash or a number). */
function pseudoRandom(seed) {
  let s = typeof seed === 'string' ? hashOf(seed) : seed;
  return {
    nextInt(min, max) {
      s = (1664525 * s + 1013904223) % 2 ** 32;
      return Math.floor((s / 2 ** 32) * (max - min + 1)) + min;
    },
  };
}
function hashOf(text) {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return Math.abs(hash);
}

const defaultOption = (p) => p.options.find((o) => o.default) ?? p.options[0];
const ymd = (ms) => new Date(ms).toISOString().slice(0, 10);

/** A reseller channel of its own (its test key sells its private sandbox). */
export async function registerReseller(call) {
  const slug = `octo-val-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
  const r = await call('POST', '/channel/v1/portal/register', { name: 'OCTO validator run', slug, contactEmail: `${slug}@reseller.test` }, {});
  assert.equal(r.status, 201, r.text);
  return r.body.keys.test;
}

async function octoProducts(call, auth) {
  const products = await call('GET', '/octo/v1/products', undefined, auth);
  assert.equal(products.status, 200, products.text);
  const out = [];
  for (const product of products.body.filter((p) => p.availabilityType === 'START_TIME')) {
    const option = defaultOption(product);
    const from = Date.now();
    const body = { productId: product.id, optionId: option.id, localDateStart: ymd(from), localDateEnd: ymd(from + 30 * 86_400_000) };
    const a = await call('POST', '/octo/v1/availability', body, auth);
    assert.equal(a.status, 200, a.text);
    out.push({ product, option, availabilities: a.body });
  }
  return out;
}

const unitItemsOf = (option, quantity) => {
  const unit = option.units.find((u) => u.type === 'ADULT') ?? option.units[0];
  return Array(quantity).fill({ unitId: unit.id });
};

/** One pass of the flows on the key's sandbox as it is now (see the file's comment). */
export async function validatorFlows(call, key) {
  const auth = { authorization: `Bearer ${key}` };
  const all = await octoProducts(call, auth);
  const available = all.map((p) => ({ ...p, ids: p.availabilities.filter((a) => a.available).map((a) => a.id) })).filter((p) => p.ids.length > 1);
  assert.ok(available.length >= 2, `the validator needs two bookable START_TIME products, got ${available.map((p) => p.product.id)}`);
  const [first, second] = available;

  // Booking Reservation SOLD_OUT.
  const soldOut = all.find((p) => p.availabilities.some((a) => a.status === 'SOLD_OUT'));
  assert.ok(soldOut, 'the seeded sandbox has no SOLD_OUT departure: the validator skips its SOLD_OUT scenario');
  const full = soldOut.availabilities.find((a) => a.status === 'SOLD_OUT');
  const refused = await call(
    'POST',
    '/octo/v1/bookings',
    { uuid: randomUUID(), productId: soldOut.product.id, optionId: soldOut.option.id, availabilityId: full.id, unitItems: unitItemsOf(soldOut.option, 1) },
    auth,
  );
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error, 'UNPROCESSABLE_ENTITY', refused.text);

  // Every available departure of product 2 holds its option's maxUnits (what Change Product may ask for).
  const most = second.option.restrictions.maxUnits ?? 5;
  const from = Date.now();
  const check = await call(
    'POST',
    '/octo/v1/availability',
    {
      productId: second.product.id,
      optionId: second.option.id,
      localDateStart: ymd(from),
      localDateEnd: ymd(from + 30 * 86_400_000),
      units: [{ id: unitItemsOf(second.option, 1)[0].unitId, quantity: most }],
    },
    auth,
  );
  assert.equal(check.status, 200, check.text);
  const short = check.body.filter((a) => second.ids.includes(a.id) && !a.available).map((a) => a.id);
  assert.deepEqual(short, [], `departures of ${second.product.id} without room for ${most} units`);

  // Booking Update - Change Product, with the validator's own picks.
  const pick = (ids) => ids[pseudoRandom(ids.length).nextInt(0, ids.length - 1)];
  const quantity = (option) => pseudoRandom(option.id).nextInt(option.restrictions.minUnits || 1, option.restrictions.maxUnits ?? 5);
  const uuid = randomUUID();
  const held = await call(
    'POST',
    '/octo/v1/bookings',
    {
      uuid,
      productId: first.product.id,
      optionId: first.option.id,
      availabilityId: pick(first.ids),
      unitItems: unitItemsOf(first.option, quantity(first.option)),
    },
    auth,
  );
  assert.equal(held.status, 200, held.text);
  const moved = await call(
    'PATCH',
    `/octo/v1/bookings/${uuid}`,
    {
      productId: second.product.id,
      optionId: second.option.id,
      availabilityId: pick(second.ids),
      unitItems: unitItemsOf(second.option, quantity(second.option)),
    },
    auth,
  );
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.productId, second.product.id);
  assert.equal(moved.body.status, 'ON_HOLD');
  assert.equal(moved.body.unitItems.length, quantity(second.option));
  return uuid;
}

/** The flows on a fresh private sandbox, then after a reset (back to the seeded state: they pass again). */
export async function validatorFlowsTwice(call) {
  const key = await registerReseller(call);
  const auth = { authorization: `Bearer ${key}` };
  const uuid = await validatorFlows(call, key);
  const reset = await call('POST', '/channel/v1/sandbox/reset', undefined, auth);
  assert.equal(reset.status, 200, reset.text);
  assert.equal(reset.body.reseeded, true, reset.text);
  const gone = await call('GET', `/octo/v1/bookings/${uuid}`, undefined, auth);
  assert.equal(gone.status, 400, `the first pass's reservation outlived the reset: ${gone.text}`);
  await validatorFlows(call, key);
}
