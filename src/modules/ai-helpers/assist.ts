/**
 * `POST /ai`: the four writing and question helpers, each through the AI port (Workers AI when
 * configured, else the deterministic rules below, which are also the fallback whenever the model's
 * answer is refused: a model answer may state only amounts that its facts state).
 *
 * - `emailEnhancement`: the e-mail in `message`, tidied (spacing, repeated punctuation, shouting,
 *   sentence capitals, a greeting and a sign-off with `businessName` when missing); the changes listed.
 * - `socialMediaPost`: a post about `prompt` (or `message`) for the business, with hashtags made only
 *   from the business type, location and name given.
 * - `bookingSidekick`: answers `message` about the `bookings` given (how many, the next one, their
 *   value, who), filtered by status and day words; anything else is answered `cannot_answer`.
 * - `businessAudit`: a quick review of what `businessData` says (rating, reviews, online booking,
 *   social profiles, photos, website); values not given are reported as not given, never assumed.
 *   The paid audit that reads the website is `POST /ai/business-audit`.
 */
import { ai, answered, cannotAnswer, type AiFact, type AiResult } from '../../adapters/ai';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { nowMs, todayIn } from '../../lib/clock';
import { formatLocalDateTime } from '../../lib/local-time';
import { addDays, localDate } from '../../lib/time';
import { listLocations } from '../locations/service';

export const AI_REQUESTS = ['emailEnhancement', 'socialMediaPost', 'bookingSidekick', 'businessAudit'] as const;
export type AiRequestKind = (typeof AI_REQUESTS)[number];

export interface AssistInput {
  what: AiRequestKind;
  message?: string;
  prompt?: string;
  businessName?: string;
  businessType?: string;
  businessLocation?: string;
  bookings?: Record<string, unknown>[];
  websiteUrl?: string;
  businessData?: Record<string, unknown>;
}

const required = (field: string, why: string) =>
  new ApiError('validation_failed', `Invalid request: ${field} is required ${why}`, {
    details: [{ field, location: 'body', code: 'required', message: `${field} is required ${why}` }],
  });

// ---- emailEnhancement ----

const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon|evening)|greetings|ahoy)\b/i;
const SIGN_OFF = /\b(regards|thanks|thank you|cheers|sincerely|best|warmly|see you)\b/i;

export function enhanceEmail(message: string, businessName?: string): { text: string; changes: string[] } {
  const changes: string[] = [];
  const step = (label: string, f: (s: string) => string, s: string) => {
    const out = f(s);
    if (out !== s) changes.push(label);
    return out;
  };
  let t = message.replace(/\r\n?/g, '\n');
  t = step(
    'tidied spacing',
    (s) =>
      s
        .replace(/[ \t]+/g, ' ')
        .replace(/ +\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    t,
  );
  t = step(
    'reduced repeated punctuation',
    (s) =>
      s
        .replace(/!{2,}/g, '!')
        .replace(/\?{2,}/g, '?')
        .replace(/\.{4,}/g, '...')
        .replace(/ +([,.!?;:])/g, '$1'),
    t,
  );
  t = step('lowered shouting', (s) => s.replace(/\b[A-Z]{4,}\b/g, (w) => w.toLowerCase()), t);
  t = step('capitalized "I"', (s) => s.replace(/\bi\b(?=('m|'ll|'ve|'d)?\b)/g, 'I'), t);
  t = step('capitalized sentences', (s) => s.replace(/(^|[.!?]\s+|\n\s*)(\p{Ll})/gu, (_, pre: string, c: string) => pre + c.toUpperCase()), t);
  if (!GREETING.test(t)) {
    t = `Hello,\n\n${t}`;
    changes.push('added a greeting');
  }
  const tail = t.split('\n').slice(-3).join('\n');
  if (!SIGN_OFF.test(tail)) {
    t = `${t}\n\nBest regards,\n${businessName?.trim() || 'The team'}`;
    changes.push('added a sign-off');
  }
  return { text: t, changes };
}

// ---- socialMediaPost ----

const hashtag = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N} ]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

export function socialPost(input: AssistInput): { text: string; hashtags: string[] } {
  const topic = (input.prompt ?? input.message ?? '').trim().replace(/\s+/g, ' ');
  const name = input.businessName?.trim();
  const place = input.businessLocation?.trim();
  const lines: string[] = [];
  if (topic) lines.push(/[.!?]$/.test(topic) ? topic[0].toUpperCase() + topic.slice(1) : `${topic[0].toUpperCase()}${topic.slice(1)}!`);
  if (name) lines.push(`Book with ${name}${place ? ` in ${place}` : ''} today.`);
  else if (place) lines.push(`Come see us in ${place}.`);
  const tags = [input.businessType, place?.split(',')[0], name]
    .filter((x): x is string => Boolean(x && x.trim()))
    .map(hashtag)
    .filter((h) => h.length >= 2 && h.length <= 40);
  const hashtags = [...new Set(tags)].slice(0, 5).map((h) => `#${h}`);
  return { text: [lines.join(' '), hashtags.join(' ')].filter(Boolean).join('\n\n'), hashtags };
}

// ---- bookingSidekick ----

interface SideBooking {
  id: string | null;
  name: string | null;
  item: string | null;
  start: string | null;
  status: string | null;
  total: number | null;
}

const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const n = (v: unknown) => {
  const x = typeof v === 'string' ? Number(v) : v;
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
};

function normalizeBooking(b: Record<string, unknown>): SideBooking {
  const info = (b.customerInfo ?? b.CustomerInfo ?? {}) as Record<string, unknown>;
  const details = (b.rentalDetails ?? {}) as Record<string, unknown>;
  const pricing = (b.rentalPricing ?? {}) as Record<string, unknown>;
  const person = s(b.customerName) ?? s(b.renterName) ?? ([s(info.firstName), s(info.lastName)].filter(Boolean).join(' ') || null);
  return {
    id: s(b.rentalId) ?? s(b.id) ?? s(b.transactionId),
    name: person,
    item: s(b.itemName) ?? s(b.inventoryName) ?? s(details.itemName) ?? s(b.boatName),
    start: s(b.startTime) ?? s(b.start) ?? s(details.startTime) ?? s(b.date),
    status: (s(b.status) ?? s(b.Status))?.toLowerCase() ?? null,
    total: n(b.total) ?? n(pricing.total) ?? n(b.amount),
  };
}

const money = (x: number) => `$${x.toFixed(2)}`;

/** An instant given with its time and zone (ISO 8601 with `Z` or an offset), as ms; null for a bare date or other text. */
const instantOf = (v: string | null) =>
  v && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}.*(Z|[+-]\d{2}:?\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)) ? Date.parse(v) : null;

/**
 * The rules' answer about the bookings given, for the operator: `today` (YYYY-MM-DD) and `now` (ms) are
 * the operator's, `tz` its location's zone; instants are read and said in that zone.
 */
export function sidekickAnswer(message: string, list: SideBooking[], today: string, now: number, tz: string): AiResult {
  if (!list.length) return cannotAnswer('No bookings were given to answer from: send them in `bookings`.', 'no_bookings');
  const q = message.toLowerCase();
  /** The local date of a booking's start (an instant's date in the zone; a bare date as given). */
  const dayOf = (start: string | null) => {
    const ms = instantOf(start);
    return ms != null ? localDate(ms, tz) : (start?.slice(0, 10) ?? null);
  };
  /** A start as a person reads it: "Fri 15 Jan 2027, 09:00 EST" (text that is not an instant is said as given). */
  const when = (start: string) => {
    const ms = instantOf(start);
    return ms != null ? formatLocalDateTime(ms, tz) : start;
  };
  let rows = list;
  const filters: string[] = [];
  const day = /\b(\d{4}-\d{2}-\d{2})\b/.exec(q)?.[1] ?? (/\btomorrow\b/.test(q) ? addDays(today, 1) : /\btoday\b/.test(q) ? today : null);
  if (day) {
    rows = rows.filter((b) => dayOf(b.start) === day);
    filters.push(`on ${day}`);
  }
  const status = ['cancelled', 'confirmed', 'pending', 'completed', 'checked_in', 'no_show'].find((st) => q.includes(st.replace('_', ' ')) || q.includes(st));
  if (status) {
    rows = rows.filter((b) => b.status === status);
    filters.push(status.replace('_', ' '));
  }
  const scope = filters.length ? ` (${filters.join(', ')})` : '';
  if (/\b(how much|total|revenue|value|worth|earn\w*|sales)\b/.test(q)) {
    const priced = rows.filter((b) => b.total != null);
    if (!priced.length) return cannotAnswer(`None of the bookings given${scope} has a total.`, 'not_in_facts', ['value']);
    const sum = priced.reduce((acc, b) => acc + (b.total ?? 0), 0);
    return answered(`The ${priced.length} booking(s) given${scope} total ${money(sum)}.`, ['value']);
  }
  if (/\b(next|upcoming|first|soonest)\b/.test(q)) {
    const next = rows
      .filter((b) => b.start && Date.parse(b.start) >= now && b.status !== 'cancelled')
      .sort((a, b) => Date.parse(a.start!) - Date.parse(b.start!))[0];
    if (!next) return cannotAnswer(`None of the bookings given${scope} is upcoming.`, 'not_in_facts', ['next']);
    return answered(
      `The next booking${scope} is ${next.item ? `${next.item} ` : ''}at ${when(next.start!)}${next.name ? ` for ${next.name}` : ''}${next.id ? ` (${next.id})` : ''}.`,
      ['next'],
    );
  }
  if (/\b(who|which customers?|renters?|names?)\b/.test(q)) {
    const names = [...new Set(rows.map((b) => b.name).filter(Boolean))] as string[];
    if (!names.length) return cannotAnswer(`The bookings given${scope} have no names.`, 'not_in_facts', ['who']);
    return answered(`Bookings${scope}: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ` and ${names.length - 10} more` : ''}.`, ['who']);
  }
  if (/\b(how many|count|number of|any)\b/.test(q) || filters.length)
    return answered(`${rows.length} of the ${list.length} booking(s) given${scope}.`, ['count']);
  return cannotAnswer(
    'I can count the bookings given (by day or status), tell the next one, add up their totals or list who booked; this question is outside that.',
    'out_of_scope',
  );
}

// ---- businessAudit (quick, from the data given) ----

interface Finding {
  check: string;
  status: 'pass' | 'warn' | 'fail' | 'not_given';
  message: string;
}

export function quickAudit(input: AssistInput): { findings: Finding[]; score: number | null; text: string } {
  const d = input.businessData ?? {};
  const f: Finding[] = [];
  const rating = n(d.rating ?? d.googleRating ?? d.averageRating);
  f.push(
    rating == null
      ? { check: 'rating', status: 'not_given', message: 'No rating given.' }
      : rating >= 4.5
        ? { check: 'rating', status: 'pass', message: `A ${rating} rating is strong.` }
        : rating >= 4
          ? { check: 'rating', status: 'warn', message: `A ${rating} rating is good; ask happy renters for reviews to raise it.` }
          : { check: 'rating', status: 'fail', message: `A ${rating} rating costs bookings; answer reviews and follow up after each rental.` },
  );
  const reviews = n(d.reviewCount ?? d.reviews ?? d.numberOfReviews);
  f.push(
    reviews == null
      ? { check: 'reviews', status: 'not_given', message: 'No review count given.' }
      : reviews >= 50
        ? { check: 'reviews', status: 'pass', message: `${reviews} reviews build trust.` }
        : { check: 'reviews', status: 'warn', message: `${reviews} reviews: send a review request after each rental.` },
  );
  const booking = d.hasOnlineBooking ?? d.onlineBooking;
  f.push(
    typeof booking !== 'boolean'
      ? { check: 'online_booking', status: 'not_given', message: 'Not said whether renters can book online.' }
      : booking
        ? { check: 'online_booking', status: 'pass', message: 'Renters can book online.' }
        : { check: 'online_booking', status: 'fail', message: 'Renters cannot book online; add the booking widget to the website.' },
  );
  const social = d.socialLinks ?? d.social ?? d.socialProfiles;
  const socialCount = Array.isArray(social) ? social.length : social && typeof social === 'object' ? Object.keys(social).length : null;
  f.push(
    socialCount == null
      ? { check: 'social_profiles', status: 'not_given', message: 'No social profiles given.' }
      : socialCount >= 2
        ? { check: 'social_profiles', status: 'pass', message: `${socialCount} social profiles.` }
        : { check: 'social_profiles', status: 'warn', message: 'One social profile or none: renters look for photos on Instagram and Facebook.' },
  );
  const photos = n(d.photoCount ?? d.photos ?? (Array.isArray(d.photos) ? (d.photos as unknown[]).length : null));
  f.push(
    photos == null
      ? { check: 'photos', status: 'not_given', message: 'No photo count given.' }
      : photos >= 10
        ? { check: 'photos', status: 'pass', message: `${photos} photos.` }
        : { check: 'photos', status: 'warn', message: `${photos} photos: show every boat and the dock.` },
  );
  const site = input.websiteUrl ?? s(d.websiteUrl) ?? s(d.website);
  f.push(
    !site
      ? { check: 'website', status: 'not_given', message: 'No website given.' }
      : /^https:\/\//i.test(site)
        ? { check: 'website', status: 'pass', message: `Website ${site} uses https (not read: the full audit reads it).` }
        : { check: 'website', status: 'warn', message: `Website ${site} does not use https.` },
  );
  const judged = f.filter((x) => x.status !== 'not_given');
  const score = judged.length
    ? Math.round((100 * judged.reduce((acc, x) => acc + (x.status === 'pass' ? 1 : x.status === 'warn' ? 0.5 : 0), 0)) / judged.length)
    : null;
  const todo = f.filter((x) => x.status === 'warn' || x.status === 'fail').map((x) => x.message);
  const text = [
    score == null ? 'Not enough business data was given to score.' : `Quick score from the data given: ${score}/100.`,
    todo.length ? `To improve: ${todo.join(' ')}` : '',
    'The full audit that reads the website is POST /ai/business-audit.',
  ]
    .filter(Boolean)
    .join(' ');
  return { findings: f, score, text };
}

// ---- the endpoint ----

const TYPE = {
  emailEnhancement: 'email_enhancement',
  socialMediaPost: 'social_media_post',
  bookingSidekick: 'operator_sidekick',
  businessAudit: 'business_audit',
} as const;

export async function assist(ctx: Ctx, input: AssistInput) {
  tenantOf(ctx);
  const port = ai(ctx.env);
  let facts: AiFact[] = [];
  let details: Record<string, unknown> = {};
  let fallback: () => AiResult;
  let message: string;
  let length: 'short' | 'long' = 'long';
  if (input.what === 'emailEnhancement') {
    if (!input.message?.trim()) throw required('message', 'for emailEnhancement (the e-mail to improve)');
    const out = enhanceEmail(input.message, input.businessName);
    details = { changes: out.changes };
    facts = [{ label: 'Original e-mail', value: input.message }, ...(input.businessName ? [{ label: 'Business', value: input.businessName }] : [])];
    message = `Improve the wording of this e-mail, keeping every fact, amount and date; answer with the e-mail only:\n\n${input.message}`;
    fallback = () => answered(out.text, ['email']);
  } else if (input.what === 'socialMediaPost') {
    if (!input.prompt?.trim() && !input.message?.trim() && !input.businessName?.trim())
      throw required('prompt', 'for socialMediaPost (what the post is about), or give businessName');
    const out = socialPost(input);
    details = { hashtags: out.hashtags, characters: out.text.length };
    facts = [
      ...(input.businessName ? [{ label: 'Business', value: input.businessName }] : []),
      ...(input.businessType ? [{ label: 'Type of business', value: input.businessType }] : []),
      ...(input.businessLocation ? [{ label: 'Location', value: input.businessLocation }] : []),
      { label: 'Topic', value: input.prompt ?? input.message ?? '' },
    ];
    message = `Write a social media post (at most 280 characters, with these hashtags: ${out.hashtags.join(' ')}) about: ${input.prompt ?? input.message ?? input.businessName}`;
    fallback = () => answered(out.text, ['post']);
  } else if (input.what === 'bookingSidekick') {
    if (!input.message?.trim()) throw required('message', 'for bookingSidekick (the question)');
    const list = (input.bookings ?? []).map(normalizeBooking);
    const locs = await listLocations(ctx, {});
    const tz = 'data' in locs ? (locs.data[0]?.timezone ?? 'UTC') : locs.timezone;
    const today = todayIn(ctx, tz);
    details = { bookingsGiven: list.length, today, timezone: tz };
    facts = [
      { label: 'Today', value: today },
      ...list.slice(0, 60).map((b, i) => ({
        label: `Booking ${i + 1}`,
        value: [b.id, b.item, b.start, b.status, b.name, b.total != null ? money(b.total) : null].filter(Boolean).join('; '),
      })),
    ];
    message = input.message;
    length = 'short';
    const now = nowMs(ctx);
    fallback = () => sidekickAnswer(input.message!, list, today, now, tz);
  } else {
    const out = quickAudit(input);
    details = { findings: out.findings, score: out.score, fullAudit: 'POST /ai/business-audit' };
    facts = out.findings.map((x) => ({ label: x.check, value: `${x.status}: ${x.message}` }));
    message = `Summarize this quick review of ${input.businessName ?? 'the business'} for its owner, with what to do first.`;
    fallback = () => answered(out.text, ['audit']);
  }
  const result = await port.answer({ type: TYPE[input.what], message, facts, fallback, length });
  return {
    what: input.what,
    status: result.status,
    result: result.answer,
    reason: result.reason,
    source: result.source,
    model: result.model,
    details,
  };
}
