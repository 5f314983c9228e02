/**
 * `POST /ai/scrape-inventory`: reads a public web page of boats (or tours) through the safe public
 * fetch and answers draft inventory items for the operator to review; nothing is saved. Read, in
 * order of trust: the page's structured data (schema.org Product, Vehicle, Boat, Offer, Service,
 * TouristTrip in JSON-LD), then its sections (a heading followed by text with a price: "$350 per
 * half day", "up to 8 guests"). Each draft says where it came from (`confidence` and `evidence`);
 * a value the page does not state is null, never made up.
 */
import { fetchPublic } from '../../adapters/http';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { toDollars } from '../../lib/money';
import { pageFacts, type Section } from './html';

export interface DraftItem {
  name: string;
  type: 'rental' | 'tour';
  description: string | null;
  price: number | null;
  priceCents: number | null;
  priceUnit: 'hour' | 'half_day' | 'day' | 'week' | 'person' | 'trip' | null;
  currency: string | null;
  capacity: number | null;
  lengthFt: number | null;
  images: string[];
  confidence: 'structured_data' | 'page_text';
  evidence: string;
}

const BOATISH =
  /\b(boat|pontoon|yacht|catamaran|sailboat|kayak|canoe|paddle ?board|sup|jet ?ski|wave ?runner|skiff|cruiser|bowrider|center console|charter|tour|cruise|rib|dinghy|speedboat)\b/i;
const TOURISH = /\b(tour|cruise|excursion|trip|sunset|snorkel\w*|fishing charter)\b/i;

function unitOf(text: string): DraftItem['priceUnit'] {
  if (/half[- ]?day|4[- ]?hours?/i.test(text)) return 'half_day';
  if (/(per|\/|an?)\s*(hour|hr)\b|hourly/i.test(text)) return 'hour';
  if (/(per|\/|a)\s*(full[- ]?)?day\b|full[- ]?day|daily/i.test(text)) return 'day';
  if (/(per|\/|a)\s*week\b|weekly/i.test(text)) return 'week';
  if (/(per|\/|a)\s*(person|guest|adult|pax)\b/i.test(text)) return 'person';
  if (/(per|\/)\s*(trip|tour|charter)\b/i.test(text)) return 'trip';
  return null;
}

function capacityOf(text: string): number | null {
  const m = /\b(?:up to|max(?:imum)?|capacity:?|seats?|holds)\s*(\d{1,3})\b|\b(\d{1,3})\s*(?:people|persons|guests|passengers|pax|seats)\b/i.exec(text);
  const v = m ? Number(m[1] ?? m[2]) : null;
  return v && v > 0 && v < 500 ? v : null;
}

function lengthOf(text: string): number | null {
  const m = /\b(\d{1,3})(?:\s*(?:ft|feet|foot|')|-foot)\b/i.exec(text);
  const v = m ? Number(m[1]) : null;
  return v && v >= 6 && v <= 300 ? v : null;
}

/** Prices written on a page: a currency sign or code with a whole or two-decimal amount ("$350", "€ 89.50", "120 USD"), as cents. */
export function pricesIn(text: string): number[] {
  const out: number[] = [];
  const re = /(?:[$€£]\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?)|(?:\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?\s?(?:USD|EUR|GBP|dollars)\b)/gi;
  for (const m of text.matchAll(re)) {
    const whole = m[1] ?? m[3];
    const dec = m[2] ?? m[4] ?? '00';
    out.push(Number(whole.replace(/,/g, '')) * 100 + Number(dec));
  }
  return out;
}

const currencyOf = (text: string) => (/€|\bEUR\b/.test(text) ? 'eur' : /£|\bGBP\b/.test(text) ? 'gbp' : /\$|\bUSD\b/.test(text) ? 'usd' : null);
const clip = (s: string, n = 240) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

// ---- structured data ----

type Json = Record<string, unknown>;
const ITEM_TYPES = /^(Product|Vehicle|Boat|BoatTrip|Offer|Service|TouristTrip|Trip|IndividualProduct|ProductModel|Car|Motorcycle)$/i;

function flatten(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) node.forEach((n) => flatten(n, out));
  else if (node && typeof node === 'object') {
    const o = node as Json;
    out.push(o);
    for (const k of ['@graph', 'itemListElement', 'item', 'hasOfferCatalog', 'offers', 'makesOffer', 'itemOffered']) if (o[k]) flatten(o[k], out);
  }
  return out;
}

const typesOf = (o: Json) => (Array.isArray(o['@type']) ? (o['@type'] as unknown[]).map(String) : o['@type'] ? [String(o['@type'])] : []);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

function fromStructured(nodes: unknown[]): DraftItem[] {
  const out: DraftItem[] = [];
  for (const o of flatten(nodes)) {
    if (!typesOf(o).some((t) => ITEM_TYPES.test(t)) || typesOf(o).some((t) => /^Offer$/i.test(t) && o.itemOffered)) continue;
    const name = text(o.name) ?? text((o.itemOffered as Json | undefined)?.name);
    if (!name) continue;
    const offers = (Array.isArray(o.offers) ? o.offers[0] : o.offers) as Json | undefined;
    const priceSource = (o['@type'] === 'Offer' ? o : offers) ?? {};
    const spec = (Array.isArray(priceSource.priceSpecification) ? priceSource.priceSpecification[0] : priceSource.priceSpecification) as Json | undefined;
    const rawPrice = priceSource.price ?? priceSource.lowPrice ?? spec?.price;
    const price = typeof rawPrice === 'number' ? rawPrice : typeof rawPrice === 'string' && /^\d+(\.\d+)?$/.test(rawPrice.trim()) ? Number(rawPrice) : null;
    const unitText = [text(spec?.unitText), text(spec?.unitCode), text(priceSource.unitText)].filter(Boolean).join(' ');
    const unitCode = text(spec?.unitCode);
    const description = text(o.description);
    const img = o.image;
    const images = (Array.isArray(img) ? img : img ? [img] : [])
      .map((i) => (typeof i === 'string' ? i : text((i as Json).url)))
      .filter((i): i is string => Boolean(i));
    const blob = `${name} ${description ?? ''}`;
    out.push({
      name: clip(name, 120),
      type: typesOf(o).some((t) => /Trip/i.test(t)) || TOURISH.test(blob) ? 'tour' : 'rental',
      description: description ? clip(description, 1000) : null,
      price,
      priceCents: price == null ? null : Math.round(price * 100),
      priceUnit: unitCode === 'HUR' ? 'hour' : unitCode === 'DAY' ? 'day' : unitOf(unitText),
      currency: text(priceSource.priceCurrency ?? spec?.priceCurrency)?.toLowerCase() ?? null,
      capacity: typeof o.seatingCapacity === 'number' ? o.seatingCapacity : capacityOf(blob),
      lengthFt: lengthOf(blob),
      images: images.slice(0, 10),
      confidence: 'structured_data',
      evidence: `JSON-LD ${typesOf(o).join('/')}: ${clip(name, 80)}`,
    });
  }
  return out;
}

// ---- page sections ----

function fromSections(sections: Section[]): DraftItem[] {
  const out: DraftItem[] = [];
  for (const s of sections) {
    if (!s.heading || s.level < 2 || s.heading.length > 120) continue;
    const body = s.text.slice(0, 2000);
    const blob = `${s.heading}\n${body}`;
    const amounts = pricesIn(body);
    if (!BOATISH.test(blob) || !amounts.length) continue;
    const priceLine = body.split('\n').find((l) => pricesIn(l).length) ?? '';
    const cents = amounts.find((a) => a > 0) ?? null;
    out.push({
      name: s.heading,
      type: TOURISH.test(s.heading) ? 'tour' : 'rental',
      description:
        clip(
          body
            .split('\n')
            .filter((l) => l !== priceLine)
            .join(' ')
            .trim(),
          500,
        ) || null,
      price: cents == null ? null : toDollars(cents),
      priceCents: cents,
      priceUnit: unitOf(priceLine || body),
      currency: currencyOf(priceLine || body),
      capacity: capacityOf(blob),
      lengthFt: lengthOf(blob),
      images: s.images.slice(0, 10),
      confidence: 'page_text',
      evidence: clip(`${s.heading}: ${priceLine}`, 200),
    });
  }
  return out;
}

export async function scrapeInventory(ctx: Ctx, input: { url: string }) {
  tenantOf(ctx);
  const page = await fetchPublic(ctx.env, input.url, { accept: ['text/html', 'application/xhtml+xml'], maxBytes: 3 * 1024 * 1024 });
  const facts = await pageFacts(new TextDecoder().decode(page.body), page.url);
  const structured = fromStructured(facts.jsonLd);
  const seen = new Set(structured.map((d) => d.name.toLowerCase()));
  const drafts = [...structured, ...fromSections(facts.sections).filter((d) => !seen.has(d.name.toLowerCase()))].slice(0, 100);
  return {
    url: input.url,
    finalUrl: page.url,
    title: facts.title,
    items: drafts,
    counts: { structuredData: structured.length, pageText: drafts.length - structured.length },
    notes: drafts.length
      ? 'Drafts only: review each one and create it with POST /inventory/setup (prices are as the page states them).'
      : 'No boats or tours with prices were found on this page (no structured data, no section with a boat and a price).',
  };
}
