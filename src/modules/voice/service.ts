/**
 * Voice: the telephony provider's webhooks answered with TwiML. An incoming call finds its
 * location by the number called and its caller among the location's renters (E.164 match), greets
 * a known caller by name with their next booking, and reads the location's `ivrConfig` menu; key
 * presses forward, ring the team one number after the other, read a message, hang up or take a
 * voicemail (recorded by the provider, completed and e-mailed to `voicemailEmail`).
 */
import { and, count, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Ctx, Principal } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localDate, localTime } from '../../lib/time';
import { emailStmt } from '../../adapters/messages';
import { locations, phoneNumbers } from '../../db/schema/locations';
import { bookings, renters } from '../../db/schema/bookings';
import { inventoryItems } from '../../db/schema/inventory';
import { voiceCalls, voicemails } from '../../db/schema/voice';
import { DIGITS_SQL, toE164 } from './phone';
import { TwiML, voiceUrl } from './twiml';
import { voiceFail } from './errors';

type LocationRow = typeof locations.$inferSelect;
type CallRow = typeof voiceCalls.$inferSelect;

interface MenuOption {
  key: string;
  label?: string;
  action: 'forward' | 'voicemail' | 'message' | 'ring_group' | 'hangup';
  target?: string;
}

interface Ivr {
  enabled?: boolean;
  greeting?: string;
  menu?: MenuOption[];
  ringList?: string[];
  voicemailEmail?: string;
  voicemailPrompt?: string;
}

/** The key that connects a recognized caller about their booking. */
export const BOOKING_KEY = '9';
const MAX_TRIES = 3;

const ivrOf = (l: LocationRow): Ivr => (l.ivrConfig ?? {}) as Ivr;

/** The telephony provider acting for the operator whose number was called. */
function providerCtx(ctx: Ctx, customerId: string): Ctx {
  const principal: Principal = { kind: 'system', credentialId: 'telephony', userId: null, customerId, role: null, permissions: [], plan: 'enterprise' };
  return { ...ctx, principal };
}

/** The location a number belongs to: a number bought for it, else its own phone number. */
async function locationByNumber(ctx: Ctx, called: string | undefined): Promise<LocationRow | undefined> {
  const e164 = toE164(called);
  if (!e164) return undefined;
  const bought = await ctx.db
    .select({ locationId: phoneNumbers.locationId, customerId: phoneNumbers.customerId })
    .from(phoneNumbers)
    .where(eq(phoneNumbers.phoneNumber, e164))
    .get();
  if (bought)
    return ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.id, bought.locationId), eq(locations.customerId, bought.customerId)))
      .get();
  const digits = e164.slice(1);
  const candidates = await ctx.db
    .select()
    .from(locations)
    .where(sql`${sql.raw(DIGITS_SQL('phone_number'))} LIKE ${`%${digits.slice(-10)}`}`)
    .limit(20)
    .all();
  return candidates.find((l) => toE164(l.phoneNumber) === e164);
}

async function locationInCall(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const loc = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!loc) throw notFound('Location');
  return loc;
}

export interface Caller {
  renterId: string;
  firstName: string;
  booking: { rentalId: string; itemName: string; start: number } | null;
}

/** The caller among the operator's renters (same E.164 number), with their next booking at this location. */
export async function identifyCaller(ctx: Ctx, loc: LocationRow, from: string | undefined): Promise<Caller | null> {
  const e164 = toE164(from);
  if (!e164) return null;
  const last10 = e164.slice(1).slice(-10);
  if (!/^\d+$/.test(last10)) return null;
  const found = await ctx.db
    .select({ id: renters.id, firstName: renters.firstName, phone: renters.phone })
    .from(renters)
    .where(and(eq(renters.customerId, loc.customerId), sql`${sql.raw(DIGITS_SQL('phone'))} LIKE ${`%${last10}`}`, sql`${renters.deletedAt} IS NULL`))
    .limit(20)
    .all();
  const matches = found.filter((r) => toE164(r.phone) === e164);
  if (!matches.length) return null;
  const next = await ctx.db
    .select({ id: bookings.id, start: bookings.start, renterId: bookings.renterId, itemName: inventoryItems.name })
    .from(bookings)
    .leftJoin(inventoryItems, eq(inventoryItems.id, bookings.itemId))
    .where(
      and(
        eq(bookings.customerId, loc.customerId),
        eq(bookings.locationId, loc.id),
        inArray(
          bookings.renterId,
          matches.map((m) => m.id),
        ),
        inArray(bookings.status, ['pending', 'confirmed', 'checked_in']),
        gt(bookings.end, Date.now()),
      ),
    )
    .orderBy(bookings.start)
    .limit(1)
    .get();
  const renter = (next && matches.find((m) => m.id === next.renterId)) || matches[0];
  return {
    renterId: renter.id,
    firstName: renter.firstName,
    booking: next ? { rentalId: next.id, itemName: next.itemName ?? 'your rental', start: next.start } : null,
  };
}

function spokenTime(start: number, tz: string): string {
  const d = new Date(`${localDate(start, tz)}T12:00:00Z`);
  const day = d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const [h, m] = localTime(start, tz).split(':').map(Number);
  return `${day} at ${h % 12 || 12}${m ? `:${String(m).padStart(2, '0')}` : ''} ${h < 12 ? 'AM' : 'PM'}`;
}

function menuPrompt(ivr: Ivr, caller: Caller | null): string {
  const options = (ivr.menu ?? []).map((o) => `For ${o.label ?? o.action.replace('_', ' ')}, press ${o.key}.`);
  if (caller?.booking) options.unshift(`To talk about your booking, press ${BOOKING_KEY}.`);
  return options.join(' ');
}

/** The menu: greeting, the known caller's booking, the options; no key pressed counts as a try. */
function menu(t: TwiML, loc: LocationRow, callSid: string, caller: Caller | null, attempt: number, intro?: string) {
  const ivr = ivrOf(loc);
  t.gather({ action: voiceUrl('handle-key', { locationId: loc.id, callSid }), timeout: 6 }, (g) => {
    if (intro) g.say(intro);
    if (attempt === 0) {
      if (caller) g.say(`Hello ${caller.firstName}.`);
      if (caller?.booking) g.say(`You have a booking for ${caller.booking.itemName} on ${spokenTime(caller.booking.start, loc.timezone)}.`);
      g.say(ivr.greeting ?? `Thank you for calling ${loc.name}.`);
    }
    g.say(menuPrompt(ivr, caller));
  });
  t.redirect(voiceUrl('handle-key', { locationId: loc.id, callSid, attempt: attempt + 1 }));
  return t;
}

function voicemail(t: TwiML, loc: LocationRow, prompt?: string) {
  return t
    .say(prompt ?? ivrOf(loc).voicemailPrompt ?? 'Please leave a message after the tone. Press the pound key when you are done.')
    .record({
      action: voiceUrl('handle-recording', { locationId: loc.id }),
      recordingStatusCallback: voiceUrl('recording-webhook', { locationId: loc.id }),
      maxLength: 120,
      finishOnKey: '#',
      timeout: 5,
    })
    .say('We did not receive a message. Goodbye.')
    .hangup();
}

function ringGroup(t: TwiML, loc: LocationRow, callSid: string, numbers: string[]) {
  const list = numbers.map((n) => toE164(n)).filter((n): n is string => !!n);
  if (!list.length) return voicemail(t, loc);
  return t.redirect(voiceUrl('sequential-dial-next', { locationId: loc.id, callSid, currentIndex: 0, ringList: JSON.stringify(list) }));
}

async function callOf(ctx: Ctx, callSid: string): Promise<CallRow | undefined> {
  return ctx.db.select().from(voiceCalls).where(eq(voiceCalls.callSid, callSid)).get();
}

async function callerOfCall(ctx: Ctx, call: CallRow | undefined): Promise<Caller | null> {
  if (!call?.renterId) return null;
  const r = await ctx.db
    .select({ firstName: renters.firstName })
    .from(renters)
    .where(and(eq(renters.id, call.renterId), eq(renters.customerId, call.customerId)))
    .get();
  if (!r) return null;
  const b = call.rentalId
    ? await ctx.db
        .select({ id: bookings.id, start: bookings.start, itemName: inventoryItems.name })
        .from(bookings)
        .leftJoin(inventoryItems, eq(inventoryItems.id, bookings.itemId))
        .where(and(eq(bookings.id, call.rentalId), eq(bookings.customerId, call.customerId)))
        .get()
    : undefined;
  return { renterId: call.renterId, firstName: r.firstName, booking: b ? { rentalId: b.id, itemName: b.itemName ?? 'your rental', start: b.start } : null };
}

/** POST /communication/voice/incoming-call */
export async function incomingCall(ctx: Ctx, p: Record<string, string>): Promise<string> {
  const t = new TwiML();
  const loc = await locationByNumber(ctx, p.To);
  if (!loc || loc.status !== 'active') return t.say('The number you have called is not in service. Goodbye.').hangup().toString();
  const pctx = providerCtx(ctx, loc.customerId);
  const caller = await identifyCaller(pctx, loc, p.From);
  const callSid = p.CallSid || newId('call');
  await ctx.db
    .insert(voiceCalls)
    .values({
      id: newId('vcl'),
      customerId: loc.customerId,
      locationId: loc.id,
      callSid,
      fromNumber: toE164(p.From) ?? p.From ?? null,
      toNumber: toE164(p.To),
      renterId: caller?.renterId ?? null,
      rentalId: caller?.booking?.rentalId ?? null,
    })
    .onConflictDoNothing();
  const ivr = ivrOf(loc);
  if (ivr.enabled === false || !(ivr.menu ?? []).length) {
    t.say(ivr.greeting ?? `Thank you for calling ${loc.name}.`);
    return ringGroup(t, loc, callSid, ivr.ringList ?? [loc.phoneNumber]).toString();
  }
  return menu(t, loc, callSid, caller, 0).toString();
}

/** POST /communication/voice/handle-key */
export async function handleKey(ctx: Ctx, q: { locationId: string; callSid: string; attempt?: number }, p: Record<string, string>): Promise<string> {
  const loc = await locationInCall(ctx, q.locationId);
  const call = await callOf(ctx, q.callSid);
  if (call && call.locationId !== loc.id) throw voiceFail('unknown_call', 'This call belongs to another location');
  const caller = await callerOfCall(ctx, call);
  const ivr = ivrOf(loc);
  const t = new TwiML();
  const digit = (p.Digits ?? '').trim().slice(0, 1);
  const attempt = q.attempt ?? 0;
  if (call && digit) {
    await ctx.db
      .update(voiceCalls)
      .set({ lastKey: digit })
      .where(and(eq(voiceCalls.callSid, q.callSid), eq(voiceCalls.customerId, loc.customerId)));
  }
  if (!digit) {
    if (attempt >= MAX_TRIES) return voicemail(t, loc, 'We could not get your choice.').toString();
    return menu(t, loc, q.callSid, caller, attempt).toString();
  }
  if (digit === BOOKING_KEY && caller?.booking) {
    t.say(
      `Your booking ${caller.booking.rentalId.slice(-6).split('').join(' ')} is for ${caller.booking.itemName} on ${spokenTime(caller.booking.start, loc.timezone)}.`,
    );
    t.say('Please hold while we connect you to our team.');
    return ringGroup(t, loc, q.callSid, ivr.ringList ?? [loc.phoneNumber]).toString();
  }
  const option = (ivr.menu ?? []).find((o) => o.key === digit);
  if (!option) {
    if (attempt + 1 >= MAX_TRIES) return voicemail(t, loc, 'Sorry, that is not an option.').toString();
    return menu(t, loc, q.callSid, caller, attempt + 1, 'Sorry, that is not an option.').toString();
  }
  switch (option.action) {
    case 'forward': {
      const to = toE164(option.target);
      if (!to) return voicemail(t, loc).toString();
      return t
        .dial(to, { action: voiceUrl('sequential-dial-next', { locationId: loc.id, callSid: q.callSid, currentIndex: 1, ringList: JSON.stringify([to]) }) })
        .toString();
    }
    case 'ring_group':
      return ringGroup(t, loc, q.callSid, option.target ? [option.target] : (ivr.ringList ?? [loc.phoneNumber])).toString();
    case 'message':
      t.say(option.target ?? option.label ?? '');
      return menu(t, loc, q.callSid, caller, 1).toString();
    case 'hangup':
      return t.say('Thank you for calling. Goodbye.').hangup().toString();
    case 'voicemail':
    default:
      return voicemail(t, loc).toString();
  }
}

/** POST /communication/voice/sequential-dial-next: rings ringList[currentIndex]; its answer (DialCallStatus) comes back here with the next index. */
export async function dialNext(ctx: Ctx, q: { locationId: string; callSid: string; currentIndex: number; ringList: string }, p: Record<string, string>) {
  let list: string[];
  try {
    const parsed = JSON.parse(q.ringList) as unknown;
    if (!Array.isArray(parsed) || parsed.length > 20 || !parsed.every((n) => typeof n === 'string' && toE164(n))) throw new Error('bad');
    list = parsed.map((n) => toE164(n as string)!);
  } catch {
    throw new ApiError('validation_failed', 'ringList must be a JSON array of phone numbers (at most 20)', {
      details: [{ field: 'ringList', location: 'query', message: 'JSON array of E.164 numbers' }],
    });
  }
  const loc = await locationInCall(ctx, q.locationId);
  const t = new TwiML();
  // The previous number answered and the call ended normally: nothing more to do.
  if (p.DialCallStatus === 'completed') return t.hangup().toString();
  if (q.currentIndex >= list.length) return voicemail(t, loc, 'Nobody is available to take your call.').toString();
  return t
    .dial(list[q.currentIndex], {
      timeout: 20,
      action: voiceUrl('sequential-dial-next', { locationId: loc.id, callSid: q.callSid, currentIndex: q.currentIndex + 1, ringList: JSON.stringify(list) }),
    })
    .toString();
}

async function upsertVoicemail(
  ctx: Ctx,
  call: CallRow,
  v: { recordingSid?: string; recordingUrl?: string; duration?: string; status: 'recording' | 'completed' | 'failed' },
) {
  const duration = v.duration && /^\d+$/.test(v.duration) ? Number(v.duration) : null;
  const values = {
    recordingSid: v.recordingSid ?? null,
    recordingUrl: v.recordingUrl ?? null,
    durationSeconds: duration,
    status: v.status,
    updatedAt: new Date().toISOString(),
  };
  const set = Object.fromEntries(Object.entries(values).filter(([, x]) => x !== null)) as Partial<typeof values>;
  await ctx.db
    .insert(voicemails)
    .values({
      id: newId('vm'),
      customerId: call.customerId,
      locationId: call.locationId,
      callSid: call.callSid,
      fromNumber: call.fromNumber,
      renterId: call.renterId,
      ...values,
    })
    .onConflictDoUpdate({ target: voicemails.callSid, set });
  return (await ctx.db.select().from(voicemails).where(eq(voicemails.callSid, call.callSid)).get())!;
}

/** POST /communication/voice/handle-recording: the caller finished the message. */
export async function handleRecording(ctx: Ctx, q: { locationId: string }, p: Record<string, string>): Promise<string> {
  const loc = await locationInCall(ctx, q.locationId);
  const call = p.CallSid ? await callOf(ctx, p.CallSid) : undefined;
  const t = new TwiML();
  if (call && call.locationId === loc.id && p.RecordingUrl) {
    const vm = await upsertVoicemail(ctx, call, {
      recordingSid: p.RecordingSid,
      recordingUrl: p.RecordingUrl,
      duration: p.RecordingDuration,
      status: 'completed',
    });
    const email = ivrOf(loc).voicemailEmail;
    if (email) {
      await ctx.db.batch([
        emailStmt(providerCtx(ctx, loc.customerId), {
          customerId: loc.customerId,
          to: email,
          subject: `New voicemail at ${loc.name}`,
          body: `A caller (${call.fromNumber ?? 'unknown number'}) left a message of ${vm.durationSeconds ?? '?'} seconds.\nListen: ${p.RecordingUrl}`,
          template: 'voicemail.received',
          metadata: { voicemailId: vm.id, callSid: call.callSid, locationId: loc.id },
        }).stmt,
      ]);
    }
    await ctx.db.update(voiceCalls).set({ status: 'voicemail' }).where(eq(voiceCalls.callSid, call.callSid));
  }
  return t.say('Thank you for your message. Goodbye.').hangup().toString();
}

/** POST /communication/voice/recording-webhook: the provider's notice that a recording is ready (or failed). */
export async function recordingWebhook(ctx: Ctx, p: Record<string, string>) {
  const missing = ['CallSid', 'RecordingSid'].filter((k) => !p[k]);
  if (missing.length)
    throw new ApiError('validation_failed', `Missing ${missing.join(', ')}`, {
      details: missing.map((k) => ({ field: k, location: 'body', message: `${k} is required` })),
    });
  const call = await callOf(ctx, p.CallSid);
  if (!call) throw voiceFail('unknown_call', 'Unknown CallSid');
  const status = p.RecordingStatus === 'failed' || p.RecordingStatus === 'absent' ? 'failed' : p.RecordingStatus === 'completed' ? 'completed' : 'recording';
  const vm = await upsertVoicemail(ctx, call, { recordingSid: p.RecordingSid, recordingUrl: p.RecordingUrl, duration: p.RecordingDuration, status });
  return { success: true, voicemailId: vm.id, status: vm.status };
}

/** GET /communication/voice/voicemails */
export async function listVoicemails(ctx: Ctx, q: { locationId?: string; limit: number; offset: number }) {
  requirePermission(ctx, 'voice');
  const customerId = tenantOf(ctx);
  const where = and(eq(voicemails.customerId, customerId), q.locationId ? eq(voicemails.locationId, q.locationId) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(voicemails).where(where).orderBy(desc(voicemails.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(voicemails).where(where).get(),
  ]);
  return {
    data: rows.map((v) => ({
      voicemailId: v.id,
      locationId: v.locationId,
      callSid: v.callSid,
      fromNumber: v.fromNumber,
      renterId: v.renterId,
      recordingUrl: v.recordingUrl,
      durationSeconds: v.durationSeconds,
      status: v.status,
      createdAt: v.createdAt,
    })),
    total: total?.n ?? 0,
    limit: q.limit,
    offset: q.offset,
  };
}
