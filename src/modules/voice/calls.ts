/** A call through the menu: incoming call, key presses, sequential ringing. */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { voiceCalls } from '../../db/schema/voice';
import { toE164 } from './phone';
import { TwiML, voiceUrl } from './twiml';
import { voiceFail } from './errors';
import { BOOKING_KEY, MAX_TRIES, ivrOf, menu, ringGroup, spokenTime, voicemail } from './ivr';
import { callOf, callerOfCall, identifyCaller, locationByNumber, locationInCall } from './queries';
import { providerCtx } from './provider';

/** POST /communication/voice/incoming-call */
export async function incomingCall(ctx: Ctx, p: Record<string, string>): Promise<string> {
  const t = new TwiML();
  const loc = await locationByNumber(ctx, p.To);
  if (!loc || loc.status !== 'active') return t.say('The number you have called is not in service. Goodbye.').hangup().toString();
  const pctx = await providerCtx(ctx, loc.customerId);
  const caller = await identifyCaller(pctx, loc, p.From);
  const callSid = p.CallSid || newId('call');
  await pctx.db
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
export async function handleKey(rctx: Ctx, q: { locationId: string; callSid: string; attempt?: number }, p: Record<string, string>): Promise<string> {
  const loc = await locationInCall(rctx, q.locationId);
  const ctx = await providerCtx(rctx, loc.customerId);
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
