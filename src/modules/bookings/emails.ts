/**
 * The renter's booking e-mails (confirmation, cancellation, new time), rendered by the one template
 * engine (lib/template.ts) into a plain-text part and an HTML part. Each carries the operator's name
 * and logo, the times in the location's zone with the zone's name, the address with a map link, what
 * to bring (when the item or the location says), the cancellation policy with its amounts, and per
 * booking its public reference (the booking id, `bk_...`) with a link to the manage page.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { emailStmt } from '../../adapters/messages';
import { formatLocalDateTime, formatLocalRange, zoneLongName } from '../../lib/local-time';
import { formatMoney } from '../../lib/money';
import { publicOrigin } from '../../lib/public-origin';
import { renderEmail, type EmailBrand, type RenderedEmail } from '../../lib/template';
import { customers } from '../../db/schema/accounts';
import { inventoryItems } from '../../db/schema/inventory';
import { bookings } from '../../db/schema/bookings';
import { messageTemplates } from '../../db/schema/communications';
import { locations } from '../../db/schema/locations';
import { cancellationPolicyOf, emailBrandOf, type CancellationPolicy } from '../public-settings/service';
import { BOOKING_TEMPLATES, type BookingTemplateId } from './email-templates';
import type { BookingRow } from './views';

const HOUR = 3_600_000;

/** The account columns a booking e-mail reads (the name, the logo and colour, the cancellation policy). */
export interface MailAccount {
  name: string;
  businessName?: string | null;
  settings?: unknown;
  integrations?: unknown;
  /** The keys the operator has its own message template of (customers.message_template_keys). */
  messageTemplateKeys?: string[] | null;
}

/** The location columns a booking e-mail reads. */
export interface MailLocation {
  name: string;
  address: string;
  phoneNumber: string;
  timezone: string;
  latitude?: number | null;
  longitude?: number | null;
  details?: Record<string, unknown> | null;
}

/** Where and from whom: everything of a booking e-mail that is not the booking. */
export interface MailSetting {
  customerId: string;
  origin: string;
  now: number;
  currency: string;
  brand: EmailBrand;
  location: MailLocation;
  policy: CancellationPolicy;
  /** The message keys the operator has its own template of: only those e-mails are held to be rendered at delivery. */
  ownTemplates: readonly string[];
}

/** One booked line of an e-mail. */
export interface MailLine {
  rentalId: string;
  itemName: string;
  start: number;
  end: number;
  quantity: number;
  participants: number | null;
  units: number;
  /** The item's `data.whatToBring`. */
  whatToBring?: unknown;
}

/** The renter's links of a booking (the manage page takes the booking's public reference, its id). */
export function bookingLinks(origin: string, customerId: string, rentalId: string) {
  const q = (k: string) => new URLSearchParams({ [k]: rentalId, customer: customerId }).toString();
  return { manage: `${origin}/widget?${q('manage')}`, pass: `${origin}/widget?${q('pass')}` };
}

export function mailSetting(
  ctx: Pick<Ctx, 'env' | 'origin' | 'clock'>,
  o: { customerId: string; currency: string; account: MailAccount | null; location: MailLocation },
): MailSetting {
  return {
    customerId: o.customerId,
    origin: publicOrigin(ctx),
    now: ctx.clock.now(),
    currency: o.currency,
    brand: emailBrandOf(o.account, o.location.details),
    location: o.location,
    policy: cancellationPolicyOf(o.location.details, (o.account?.settings ?? null) as Record<string, unknown> | null),
    ownTemplates: o.account?.messageTemplateKeys ?? [],
  };
}

/** The setting of an e-mail about an existing booking: its location and account, read in one batch. */
export async function loadMailSetting(ctx: Ctx, b: BookingRow): Promise<{ setting: MailSetting; itemName: string; whatToBring: unknown }> {
  const [loc, acct, item] = await ctx.db.batch([
    ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.id, b.locationId), eq(locations.customerId, b.customerId))),
    ctx.db
      .select({
        name: customers.name,
        businessName: customers.businessName,
        settings: customers.settings,
        integrations: customers.integrations,
        messageTemplateKeys: customers.messageTemplateKeys,
      })
      .from(customers)
      .where(eq(customers.id, b.customerId)),
    ctx.db
      .select({ name: inventoryItems.name, data: inventoryItems.data })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.id, b.itemId), eq(inventoryItems.customerId, b.customerId))),
  ]);
  const location: MailLocation = loc[0] ?? { name: '', address: '', phoneNumber: '', timezone: 'UTC', details: {} };
  const setting = mailSetting(ctx, { customerId: b.customerId, currency: b.currency, account: acct[0] ?? null, location });
  const data = (item[0]?.data ?? {}) as Record<string, unknown>;
  return { setting, itemName: item[0]?.name ?? '', whatToBring: data.whatToBring };
}

export const lineOf = (b: BookingRow, itemName: string, whatToBring?: unknown): MailLine => ({
  rentalId: b.id,
  itemName,
  start: b.start,
  end: b.end,
  quantity: b.quantity,
  participants: b.participants ?? null,
  units: b.assetIds.length,
  whatToBring,
});

const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : typeof v === 'string' ? v.split('\n') : [])
    .filter((s): s is string => typeof s === 'string')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 20);

/** A map link: the location's own `details.mapUrl` (https), else a map search on its coordinates or address. */
export function mapUrlOf(l: MailLocation): string | null {
  const own = l.details?.mapUrl;
  if (typeof own === 'string' && /^https:\/\/[^\s"'<>]{4,2000}$/.test(own)) return own;
  const query = l.latitude != null && l.longitude != null ? `${l.latitude},${l.longitude}` : [l.name, l.address].filter(Boolean).join(', ');
  return query ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}` : null;
}

/**
 * The cancellation policy with its amounts for a booking starting at `start` and costing `amount`
 * (cents): one line per refund tier still ahead, with its deadline in the location's zone.
 */
export function policyLines(m: MailSetting, start: number, amount: number): { summary: string; lines: string[] } {
  const p = m.policy;
  if (!p.allowRenterCancellation) return { summary: p.description, lines: [] };
  const tz = m.location.timezone;
  const at = (hours: number) => formatLocalDateTime(start - hours * HOUR, tz);
  const refund = (pct: number) => `${pct}% refund (${formatMoney(Math.round((amount * pct) / 100), m.currency)})`;
  const lines: string[] = [];
  p.tiers.forEach((t, i) => {
    const until = start - t.hoursBefore * HOUR;
    if (t.hoursBefore > 0 && until <= m.now) return;
    const prev = i > 0 ? p.tiers[i - 1].hoursBefore : null;
    const from = prev != null && start - prev * HOUR > m.now ? `after ${at(prev)} and ` : '';
    const to = t.hoursBefore > 0 ? `before ${at(t.hoursBefore)}` : 'until the start';
    lines.push(`Cancel ${from}${to}: ${refund(t.refundPercent)}`);
  });
  if (p.cutoffHours > 0) lines.push(`Online cancellation closes ${at(p.cutoffHours)}.`);
  return { summary: p.description, lines };
}

const partyOf = (l: MailLine) =>
  l.units > 0 ? `${l.units} unit${l.units > 1 ? 's' : ''}` : `${l.participants ?? l.quantity} guest${(l.participants ?? l.quantity) > 1 ? 's' : ''}`;

/** The values every booking e-mail is rendered from. */
export function mailData(m: MailSetting, lines: MailLine[], o: { firstName?: string | null; policyAmount?: number | null }) {
  const tz = m.location.timezone;
  const first = lines[0];
  const bring = [...new Set([...lines.flatMap((l) => strings(l.whatToBring)), ...strings(m.location.details?.whatToBring)])];
  const policy = o.policyAmount != null && first ? policyLines(m, Math.min(...lines.map((l) => l.start)), o.policyAmount) : null;
  return {
    firstName: o.firstName ?? '',
    business: { name: m.brand.name || m.location.name },
    bookings: lines.map((l) => ({
      reference: l.rentalId,
      itemName: l.itemName,
      when: formatLocalRange(l.start, l.end, tz),
      party: partyOf(l),
      ...bookingLinks(m.origin, m.customerId, l.rentalId),
    })),
    reference: first?.rentalId ?? '',
    manageUrl: first ? bookingLinks(m.origin, m.customerId, first.rentalId).manage : '',
    place: {
      name: m.location.name,
      address: m.location.address,
      phone: m.location.phoneNumber,
      mapUrl: mapUrlOf(m.location),
      zoneName: zoneLongName(first?.start ?? m.now, tz),
    },
    hasBring: bring.length > 0,
    bring,
    policy,
  };
}

/** Renders one of the booking templates. */
export function renderBookingMail(id: BookingTemplateId, m: MailSetting, data: Record<string, unknown>): RenderedEmail {
  const color = m.brand.color && /^#[0-9a-fA-F]{6}$/.test(m.brand.color) ? m.brand.color : '#0b5cab';
  return renderEmail(BOOKING_TEMPLATES[id], { brandColor: color, ...data }, { ...m.brand, name: m.brand.name || m.location.name });
}

/**
 * The message key of each booking e-mail: the key an operator edits its template under
 * (`/communication/templates`; the communications module renders it at delivery).
 */
export const MESSAGE_KEY_OF: Record<BookingTemplateId, string> = {
  'booking.confirmation': 'booking_confirmation',
  'booking.cancelled': 'booking_cancellation',
  'booking.rescheduled': 'booking_rescheduled',
  'booking.changed': 'booking_changed',
};

/** The values of the event an operator's template may use beside the booking's own (communications' EXTRA_VARIABLES). */
function eventVariables(data: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (k: string, v: unknown) => {
    if (typeof v === 'string' && v) out[k] = v;
  };
  put('cancellation.reason', data.reason);
  put('cancellation.refund', data.refund);
  put('change.previousWhen', data.was);
  put('change.price', data.price);
  if (Array.isArray(data.changed) && data.changed.length)
    out['change.summary'] = (data.changed as { what: string; now: string; was: string }[]).map((c) => `${c.what}: ${c.now} (was ${c.was})`).join('\n');
  return out;
}

const rentalIdsOf = (metadata: Record<string, unknown>): string[] =>
  Array.isArray(metadata.rentalIds)
    ? metadata.rentalIds.filter((x): x is string => typeof x === 'string')
    : typeof metadata.rentalId === 'string'
      ? [metadata.rentalId]
      : [];

/**
 * Whether the operator has its own template of `key` for the booked items or for every item: an SQL
 * condition evaluated inside the outbox insert (no extra read in the sale; the batch's own booking
 * rows are visible to it).
 */
function ownTemplateSql(customerId: string, key: string, rentalIds: string[]): SQL {
  const t = messageTemplates;
  const items = rentalIds.length
    ? sql` OR ${t.scope} IN (SELECT ${bookings.itemId} FROM ${bookings} WHERE ${bookings.customerId} = ${customerId} AND ${bookings.id} IN (${sql.join(
        rentalIds.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql``;
  return sql`EXISTS (SELECT 1 FROM ${t} WHERE ${t.customerId} = ${customerId} AND ${t.key} = ${key} AND (${t.scope} = '*'${items}))`;
}

/**
 * A booking e-mail as a statement of the caller's batch: the outbox row with the default template
 * rendered (both parts) and, in `metadata.render`, its message key and the event's values. When the
 * operator has its own template of that key (the item's or its own), the row is held for its delivery,
 * which renders that template instead (communications' delivery step): the sale adds no read for it.
 */
export function bookingMailStmt(
  ctx: Ctx,
  m: MailSetting,
  o: { id: BookingTemplateId; to: string; data: Record<string, unknown>; metadata: Record<string, unknown> },
): Stmt {
  const mail = renderBookingMail(o.id, m, o.data);
  const key = MESSAGE_KEY_OF[o.id];
  // The first booking's item chooses an item's template (the delivery step does the same).
  const rentalIds = rentalIdsOf(o.metadata).slice(0, 1);
  return emailStmt(
    ctx,
    {
      customerId: m.customerId,
      to: o.to,
      subject: mail.subject,
      body: mail.text,
      html: mail.html,
      template: o.id,
      metadata: { ...o.metadata, render: { key, rentalIds, vars: eventVariables(o.data) } },
    },
    // Held only when the operator has a template of the key (its account says so): which one applies is decided in the insert.
    m.ownTemplates.includes(key) ? { holdIf: ownTemplateSql(m.customerId, key, rentalIds) } : {},
  ).stmt;
}
