/**
 * The widget's state in its address, so that every step is a history entry and Back, Forward and a reload keep what the
 * renter chose: the step, the item, the date, the length, the time, the party (boats and people, or tickets per fare tier),
 * the add-ons, the protection plan and the promo or gift code. The renter's name and e-mail never go in the address.
 * The embed's own parameters (customer, location, ref, source, ...) are kept as they are.
 */
export const STEP_IDS = ['items', 'date', 'time', 'extras', 'coverage', 'details', 'waiver', 'payment', 'done'] as const;
export type StepId = (typeof STEP_IDS)[number];

export interface UrlState {
  step: StepId | null;
  item: string | null;
  date: string | null;
  hours: number | null;
  time: string | null;
  qty: number | null;
  people: number | null;
  tickets: Record<string, number>;
  addons: Record<string, number>;
  plan: string | null;
  promo: string;
}

/** The parameters this file owns (the others of the address are left alone). */
const OWN = ['step', 'item', 'date', 'len', 'time', 'qty', 'people', 'ticket', 'addon', 'plan', 'promo'];

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function count(v: string | null, max = 999): number | null {
  if (v === null || !/^\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n <= max ? n : null;
}

/** `name:count` pairs of a repeated parameter (the name may itself hold a colon: the count is after the last one). */
function pairs(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) {
    const at = v.lastIndexOf(':');
    const n = at > 0 ? count(v.slice(at + 1)) : null;
    if (n !== null && at <= 100) out[v.slice(0, at)] = n;
  }
  return out;
}

export function readUrlState(search: string): UrlState {
  const q = new URLSearchParams(search);
  const step = q.get('step');
  const hours = Number(q.get('len'));
  return {
    step: (STEP_IDS as readonly string[]).includes(step ?? '') ? (step as StepId) : null,
    item: q.get('item') || null,
    date: DATE.test(q.get('date') ?? '') ? q.get('date') : null,
    hours: q.get('len') && Number.isFinite(hours) && hours > 0 && hours <= 24 * 31 ? hours : null,
    time: INSTANT.test(q.get('time') ?? '') ? q.get('time') : null,
    qty: count(q.get('qty')),
    people: count(q.get('people')),
    tickets: pairs(q.getAll('ticket')),
    addons: pairs(q.getAll('addon')),
    plan: q.get('plan') || null,
    promo: (q.get('promo') ?? '').trim().slice(0, 64),
  };
}

/** The address's query string for `s`, keeping the parameters the widget does not own (in their order). */
export function writeUrlState(search: string, s: UrlState): string {
  const q = new URLSearchParams(search);
  for (const k of OWN) q.delete(k);
  const set = (k: string, v: string | number | null | undefined) => {
    if (v !== null && v !== undefined && v !== '') q.append(k, String(v));
  };
  set('step', s.step);
  set('item', s.item);
  set('date', s.date);
  set('len', s.hours);
  set('time', s.time);
  set('qty', s.qty);
  set('people', s.people);
  for (const [name, n] of Object.entries(s.tickets)) if (n > 0) set('ticket', `${name}:${n}`);
  for (const [id, n] of Object.entries(s.addons)) if (n > 0) set('addon', `${id}:${n}`);
  set('plan', s.plan);
  set('promo', s.promo);
  const text = q.toString();
  return text ? `?${text}` : '';
}
