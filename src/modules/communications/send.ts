import { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { isOptedOut, sendMessage, type OutgoingMessage, type SendResult } from '../../adapters/messages';
import { getLocationInTenant, type LocationRow } from '../locations/service';
import { smsPhone, tryPhone, type PhoneInfo } from './phone';
import { renderTemplate, TEMPLATES, type TemplateId } from './templates';
import { loadRenderSource, variablesFor, type Person, type RenderSource } from './variables';
import { resolveTemplate } from './resolve';

/** `details.country` of a location (ISO alpha-2), the default country of numbers written without `+`. */
export function locationCountry(location: LocationRow | null): string | undefined {
  const c = (location?.details as Record<string, unknown> | null)?.country;
  return typeof c === 'string' && /^[A-Za-z]{2}$/.test(c) ? c.toUpperCase() : undefined;
}

const emailsOff = (location: LocationRow | null) =>
  ((location?.details as Record<string, unknown> | null)?.notifications as Record<string, unknown> | undefined)?.email === false;

type Recipient = string | { email?: string; phoneNumber?: string; firstName?: string; lastName?: string };

interface Target {
  person: Person | null;
  email?: string;
  phone?: PhoneInfo;
}

const emailSchema = z.string().trim().toLowerCase().email();

function normalizeRecipient(r: Recipient, i: number, country: string | undefined): Target {
  const field = `recipientList.${i}`;
  if (typeof r === 'string') {
    if (r.includes('@')) {
      const e = emailSchema.safeParse(r);
      if (!e.success) throw new ApiError('validation_failed', `${field} is not a valid e-mail address`, { details: [{ field, message: 'invalid e-mail' }] });
      return { person: null, email: e.data };
    }
    return { person: null, phone: smsPhone(r, country, field) };
  }
  return {
    person: { firstName: r.firstName ?? null, lastName: r.lastName ?? null, email: r.email ?? null, phone: r.phoneNumber ?? null },
    email: r.email,
    phone: r.phoneNumber ? smsPhone(r.phoneNumber, country, `${field}.phoneNumber`) : undefined,
  };
}

export interface SendTemplatedInput {
  customerId: string;
  locationId: string;
  templateId: TemplateId;
  rentalId?: string;
  recipientList?: Recipient[];
  forceSendEmail?: boolean;
  forceSendText?: boolean;
  country?: string;
  variables?: Record<string, string | number>;
}

/**
 * A default template to a rental's renter and/or a recipient list (all receive, each address once).
 * The renter gets the e-mail unless they opted out of e-mails (or the location turned e-mails off),
 * and the SMS when they consented to texts; `forceSendEmail`/`forceSendText` send regardless of
 * those preferences (never to a number that replied STOP). Recipient-list entries always get the
 * channel of their address. Every message, sent or skipped, is recorded with the rental.
 */
export async function sendTemplated(ctx: Ctx, input: SendTemplatedInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  const src = await loadRenderSource(ctx, { locationId: input.locationId, rentalId: input.rentalId });
  if (src.booking && src.booking.locationId !== input.locationId) {
    throw new ApiError('bad_request', 'rentalId is a booking of another location', {
      details: [{ field: 'rentalId', message: 'booking of another location' }],
    });
  }
  // The item's or operator's own template of the key, else the default.
  const tpl = (await resolveTemplate(ctx, input.templateId, src.booking?.itemId))?.template ?? TEMPLATES[input.templateId];
  const country = input.country ?? locationCountry(src.location);
  // Every list entry is checked before anything is sent.
  const targets = (input.recipientList ?? []).map((r, i) => normalizeRecipient(r, i, country));
  const base: Omit<OutgoingMessage, 'channel' | 'to' | 'body'> = {
    customerId,
    template: tpl.templateId,
    rentalId: src.booking?.id ?? null,
    metadata: { templateId: tpl.templateId, locationId: input.locationId, ...(src.booking ? { rentalId: src.booking.id } : {}) },
  };
  const results: SendResult[] = [];
  const done = new Set<string>();

  if (src.booking) {
    const r = renderTemplate(tpl, variablesFor(src, null, input.variables));
    const email = src.renter.email?.toLowerCase();
    if (email) {
      done.add(`email:${email}`);
      const off = src.prefs.emailOptOut ? 'the renter opted out of e-mails' : emailsOff(src.location) ? 'the location turned e-mails off' : null;
      const skip = off && !input.forceSendEmail ? `preference: ${off} (forceSendEmail sends anyway)` : undefined;
      results.push(await sendMessage(ctx, { ...base, channel: 'email', to: email, subject: r.subject, body: r.text, html: r.html }, { skip }));
    }
    if (src.renter.phone) {
      const phone = tryPhone(src.renter.phone, country);
      const to = phone?.e164 ?? src.renter.phone;
      done.add(`sms:${to}`);
      const skip = !phone
        ? 'invalid_phone_number: the renter phone number is not valid'
        : !phone.smsAvailable
          ? `sms_unavailable: no SMS to ${phone.country ?? 'this country'}`
          : !src.prefs.smsOptIn && !input.forceSendText
            ? 'no SMS consent: the renter did not opt in to texts (forceSendText sends anyway)'
            : undefined;
      results.push(await sendMessage(ctx, { ...base, channel: 'sms', to, body: r.sms }, { skip }));
    }
  }
  for (const t of targets) {
    const r = renderTemplate(tpl, variablesFor(src, t.person, input.variables));
    if (t.email && !done.has(`email:${t.email}`)) {
      done.add(`email:${t.email}`);
      results.push(await sendMessage(ctx, { ...base, channel: 'email', to: t.email, subject: r.subject, body: r.text, html: r.html }));
    }
    if (t.phone && !done.has(`sms:${t.phone.e164}`)) {
      done.add(`sms:${t.phone.e164}`);
      results.push(await sendMessage(ctx, { ...base, channel: 'sms', to: t.phone.e164, body: r.sms }));
    }
  }
  const count = (s: SendResult['status']) => results.filter((m) => m.status === s).length;
  return {
    success: results.some((m) => m.status === 'sent' || m.status === 'queued'),
    templateId: tpl.templateId,
    rentalId: src.booking?.id ?? null,
    sent: count('sent'),
    queued: count('queued') + count('sending'),
    skipped: count('skipped'),
    failed: count('failed'),
    messages: results,
  };
}

const smsOut = (r: SendResult, phone: PhoneInfo) => ({ success: r.status === 'sent' || r.status === 'queued', phoneNumber: phone.e164, ...r });

/** One SMS to a number (E.164 after parsing; 400 when invalid or not an SMS country). A number that replied STOP is skipped. */
export async function sendSms(ctx: Ctx, input: { phoneNumber: string; message: string; customerId?: string; locationId?: string; country?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  const location = input.locationId ? await getLocationInTenant(ctx, input.locationId) : null;
  const phone = smsPhone(input.phoneNumber, input.country ?? locationCountry(location));
  const r = await sendMessage(ctx, {
    channel: 'sms',
    to: phone.e164,
    body: input.message,
    template: 'sms.custom',
    customerId,
    metadata: location ? { locationId: location.id } : undefined,
  });
  return smsOut(r, phone);
}

/** A waiver URL: absolute http(s), or a path resolved against the location's public base (else the API's). */
export function resolveWaiverUrl(raw: string, location: LocationRow | null, apiBase: string): string {
  const own = (location?.details as Record<string, unknown> | null)?.publicBaseUrl;
  const base = typeof own === 'string' && /^https?:\/\//i.test(own) ? own : apiBase;
  let url: URL;
  try {
    url = new URL(raw, `${base.replace(/\/$/, '')}/`);
  } catch {
    throw new ApiError('validation_failed', 'waiverUrl is not a valid URL or path', { details: [{ field: 'waiverUrl', message: 'invalid URL' }] });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ApiError('validation_failed', 'waiverUrl must use http or https', {
      details: [{ field: 'waiverUrl', message: `scheme ${url.protocol} is not allowed` }],
    });
  return url.toString();
}

/** The waiver link by SMS (template `waiver_link`, or the caller's `message` with `{url}`). */
export async function sendWaiverLink(
  ctx: Ctx,
  input: {
    phoneNumber: string;
    waiverUrl: string;
    message?: string;
    customerId?: string;
    transactionId?: string;
    firstName?: string;
    lastName?: string;
    locationId?: string;
    country?: string;
  },
  apiBase: string,
) {
  const customerId = ownCustomer(ctx, input.customerId);
  const src: RenderSource = await loadRenderSource(ctx, { locationId: input.locationId });
  const phone = smsPhone(input.phoneNumber, input.country ?? locationCountry(src.location));
  const url = resolveWaiverUrl(input.waiverUrl, src.location, apiBase);
  let body: string;
  if (input.message) body = input.message.includes('{url}') ? input.message.replaceAll('{url}', url) : `${input.message} ${url}`;
  else {
    const vars = variablesFor(src, { firstName: input.firstName ?? null, lastName: input.lastName ?? null, phone: phone.e164 }, { 'link.url': url });
    body = renderTemplate(TEMPLATES.waiver_link, vars).sms;
  }
  const r = await sendMessage(ctx, {
    channel: 'sms',
    to: phone.e164,
    body,
    template: 'waiver_link',
    customerId,
    metadata: {
      waiverUrl: url,
      ...(input.locationId ? { locationId: input.locationId } : {}),
      ...(input.transactionId ? { transactionId: input.transactionId } : {}),
    },
  });
  return { ...smsOut(r, phone), waiverUrl: url };
}

/** A number parsed and normalised (400 when invalid or not an SMS country), with its opt-out state. */
export async function validatePhone(ctx: Ctx, input: { phoneNumber: string; country?: string }) {
  const p = smsPhone(input.phoneNumber, input.country);
  return { ...p, optedOut: await isOptedOut(ctx, p.e164) };
}
