/**
 * The location's voice menu (\`ivrConfig\`) as TwiML: the greeting (a known caller by name, with
 * their next booking), the options, voicemail recording and sequential ringing.
 */
import { localDate, localTime } from '../../lib/time';
import type { Caller, LocationRow } from './queries';
import { toE164 } from './phone';
import { TwiML, voiceUrl } from './twiml';

export interface MenuOption {
  key: string;
  label?: string;
  action: 'forward' | 'voicemail' | 'message' | 'ring_group' | 'hangup';
  target?: string;
}

export interface Ivr {
  enabled?: boolean;
  greeting?: string;
  menu?: MenuOption[];
  ringList?: string[];
  voicemailEmail?: string;
  voicemailPrompt?: string;
}

/** The key that connects a recognized caller about their booking. */
export const BOOKING_KEY = '9';
/** Tries at the menu before the caller is sent to voicemail. */
export const MAX_TRIES = 3;

export const ivrOf = (l: LocationRow): Ivr => (l.ivrConfig ?? {}) as Ivr;

export function spokenTime(start: number, tz: string): string {
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
export function menu(t: TwiML, loc: LocationRow, callSid: string, caller: Caller | null, attempt: number, intro?: string) {
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

export function voicemail(t: TwiML, loc: LocationRow, prompt?: string) {
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

export function ringGroup(t: TwiML, loc: LocationRow, callSid: string, numbers: string[]) {
  const list = numbers.map((n) => toE164(n)).filter((n): n is string => !!n);
  if (!list.length) return voicemail(t, loc);
  return t.redirect(voiceUrl('sequential-dial-next', { locationId: loc.id, callSid, currentIndex: 0, ringList: JSON.stringify(list) }));
}
