/**
 * The message keys an operator can edit a template for, and the variables each key supports. A key
 * is a default template id (templates.ts) or one of the booking e-mails without a flat default
 * (`booking_changed`, `booking_rescheduled`) or the waitlist offer an automation sends. Each key
 * supports the renter, location and business variables, the booking variables when it is about a
 * booking, the input variables its default uses, and the values of its own event (EXTRA_VARIABLES).
 */
import { ApiError } from '../../lib/errors';
import { render } from '../../lib/template';
import { TEMPLATE_IDS, TEMPLATES, VARIABLES, variablesOf, type TemplateId, type VariableDef } from './templates';

export const MESSAGE_KEYS = [...TEMPLATE_IDS, 'booking_changed', 'booking_rescheduled', 'waitlist_offered'] as const;
export type MessageKey = (typeof MESSAGE_KEYS)[number];

/** Values of one event, filled by the code that sends it (the cancellation, the change, the offer). */
export const EXTRA_VARIABLES: (VariableDef & { keys: MessageKey[] })[] = [
  { name: 'cancellation.reason', description: 'The reason given for the cancellation', kind: 'text', keys: ['booking_cancellation'] },
  { name: 'cancellation.refund', description: 'What goes back to the card (or stays as credit), as a sentence', kind: 'text', keys: ['booking_cancellation'] },
  {
    name: 'change.previousWhen',
    description: 'Local date, start and end before the change',
    kind: 'text',
    keys: ['booking_changed', 'booking_rescheduled'],
  },
  { name: 'change.summary', description: 'Each thing changed, "what: now (was before)", one a line', kind: 'text', keys: ['booking_changed'] },
  { name: 'change.price', description: 'The price difference and what is charged or refunded', kind: 'text', keys: ['booking_changed', 'booking_rescheduled'] },
  { name: 'waitlist.itemName', description: 'The item of the offered spot', kind: 'text', keys: ['waitlist_offered'] },
  { name: 'waitlist.when', description: 'Local date, start and end of the offered spot', kind: 'text', keys: ['waitlist_offered'] },
  { name: 'waitlist.expiresAt', description: 'When the offer expires (local date and time)', kind: 'text', keys: ['waitlist_offered'] },
];

const BOOKING_KEYS = new Set<MessageKey>(['booking_confirmation', 'booking_reminder', 'booking_cancellation', 'booking_changed', 'booking_rescheduled']);

/** Whether messages of the key are about a booking (the preview and the test send can take a `rentalId`). */
export const isBookingKey = (key: string) => BOOKING_KEYS.has(key as MessageKey);

/** The variables a key supports, in the order of VARIABLES then its own. */
export function keyVariables(key: MessageKey): VariableDef[] {
  const def = TEMPLATES[key as TemplateId];
  const usedInputs = new Set(def ? variablesOf(def) : []);
  const base = VARIABLES.filter((v) => {
    if (v.name === 'message.custom') return true;
    if (v.input) return usedInputs.has(v.name);
    return !v.name.startsWith('booking.') || BOOKING_KEYS.has(key);
  });
  const extra = EXTRA_VARIABLES.filter((v) => v.keys.includes(key)).map(({ keys: _keys, ...v }) => v);
  return [...base, ...extra];
}

const TAG = /\{\{\s*[#^/]?\s*([A-Za-z0-9_.]+)\s*\}\}/g;

export interface TemplateParts {
  subject: string;
  html: string;
  text: string;
  sms?: string | null;
}

/**
 * Checks a template of `key`: every `{{variable}}` must be one the key supports (400 listing the
 * unknown ones and the supported ones), and every section must close (400 naming the part).
 */
export function checkTemplate(key: MessageKey, t: TemplateParts): void {
  const allowed = new Set(keyVariables(key).map((v) => v.name));
  const unknown = new Set<string>();
  const details: { field: string; message: string }[] = [];
  for (const field of ['subject', 'html', 'text', 'sms'] as const) {
    const part = t[field];
    if (!part) continue;
    for (const m of part.matchAll(TAG)) if (!allowed.has(m[1])) unknown.add(m[1]);
    try {
      render(part, {}, 'text');
    } catch (err) {
      details.push({ field, message: String((err as Error).message) });
    }
  }
  if (unknown.size) {
    const list = [...unknown];
    throw new ApiError('validation_failed', `Unknown variables for ${key}: ${list.join(', ')}. Supported: ${[...allowed].join(', ')}`, {
      details: list.map((name) => ({ field: 'variables', message: `{{${name}}} is not a variable of ${key}`, code: 'unknown_variable', variable: name })),
    });
  }
  if (details.length)
    throw new ApiError('validation_failed', `The template does not parse: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, { details });
}
