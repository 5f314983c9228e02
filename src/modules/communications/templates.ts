/**
 * Default message templates. Each has an e-mail subject, a plain-text part, an HTML part and a
 * short SMS text, with `{{group.name}}` variables filled from the booking, the renter, the location
 * and the business (see VARIABLES); values are HTML-escaped in the HTML part. Dates and times are
 * rendered in the location's time zone, amounts in the location's currency.
 */
import { oneLine, render, renderEmail } from '../../lib/template';

export type VariableKind = 'text' | 'money' | 'date' | 'datetime';

export interface VariableDef {
  name: string;
  description: string;
  kind: VariableKind;
  /** Callers may give it in `variables` (money in dollars, dates as YYYY-MM-DD or ISO instants). */
  input?: boolean;
}

export const VARIABLES: VariableDef[] = [
  { name: 'renter.firstName', description: "Renter's first name (booking customer info, renter record, or the recipient entry)", kind: 'text' },
  { name: 'renter.lastName', description: "Renter's last name", kind: 'text' },
  { name: 'renter.fullName', description: "Renter's first and last name", kind: 'text' },
  { name: 'renter.email', description: "Renter's e-mail", kind: 'text' },
  { name: 'renter.phone', description: "Renter's phone number", kind: 'text' },
  { name: 'booking.rentalId', description: 'Booking (rental) id', kind: 'text' },
  { name: 'booking.reference', description: "The booking's public reference (its id), which the manage page takes", kind: 'text' },
  { name: 'booking.manageUrl', description: "The renter's manage page of the booking (change or cancel)", kind: 'text' },
  { name: 'booking.transactionId', description: 'Order (transaction) id', kind: 'text' },
  { name: 'booking.itemName', description: 'Name of the booked inventory item', kind: 'text' },
  { name: 'booking.date', description: 'Local date of the start, e.g. "Thu 15 Jul 2027"', kind: 'text' },
  { name: 'booking.startTime', description: 'Local start time with the zone, e.g. "10:00 EDT"', kind: 'text' },
  { name: 'booking.endTime', description: 'Local end time with the zone, e.g. "14:00 EDT"', kind: 'text' },
  { name: 'booking.start', description: 'Local date and start time, e.g. "Thu 15 Jul 2027, 10:00 EDT"', kind: 'text' },
  { name: 'booking.end', description: 'Local date and end time, e.g. "Thu 15 Jul 2027, 14:00 EDT"', kind: 'text' },
  { name: 'booking.when', description: 'Local date, start and end, e.g. "Thu 15 Jul 2027, 10:00–14:00 EDT"', kind: 'text' },
  { name: 'booking.quantity', description: 'Units booked', kind: 'text' },
  { name: 'booking.participants', description: 'Participants', kind: 'text' },
  { name: 'booking.status', description: 'Booking status', kind: 'text' },
  { name: 'booking.total', description: 'Total, in the location currency', kind: 'money' },
  { name: 'booking.amountPaid', description: 'Amount paid', kind: 'money' },
  { name: 'booking.balanceDue', description: 'Balance due', kind: 'money' },
  { name: 'location.name', description: 'Location name', kind: 'text' },
  { name: 'location.address', description: 'Location address', kind: 'text' },
  { name: 'location.phoneNumber', description: 'Location phone number', kind: 'text' },
  { name: 'location.timezone', description: 'Location IANA time zone', kind: 'text' },
  { name: 'location.zoneName', description: 'The zone\'s name at the booking\'s start (else now), e.g. "Eastern Standard Time"', kind: 'text' },
  { name: 'location.mapUrl', description: 'A map link of the location (its `details.mapUrl`, else its coordinates or address)', kind: 'text' },
  { name: 'business.name', description: "Operator's business name", kind: 'text' },
  { name: 'business.logoUrl', description: "Operator's logo (widget settings, else location or account settings; https)", kind: 'text' },
  { name: 'link.url', description: 'The link of the message (waiver, cart recovery, bill payment)', kind: 'text', input: true },
  { name: 'message.custom', description: 'A custom paragraph added by the sender', kind: 'text', input: true },
  { name: 'cart.itemName', description: 'Item of an abandoned cart', kind: 'text', input: true },
  { name: 'cart.start', description: 'Wanted start of an abandoned cart (ISO instant, rendered locally)', kind: 'datetime', input: true },
  { name: 'giftCard.code', description: 'Gift card code', kind: 'text', input: true },
  { name: 'giftCard.amount', description: 'Gift card value (dollars)', kind: 'money', input: true },
  { name: 'giftCard.expiresOn', description: 'Gift card expiry (YYYY-MM-DD)', kind: 'date', input: true },
  { name: 'membership.tierName', description: 'Membership tier', kind: 'text', input: true },
  { name: 'membership.amount', description: 'Amount charged (dollars)', kind: 'money', input: true },
  { name: 'membership.periodEnd', description: 'End of the paid period (YYYY-MM-DD)', kind: 'date', input: true },
  { name: 'slip.unit', description: 'Slip unit', kind: 'text', input: true },
  { name: 'slip.amount', description: 'Bill amount (dollars)', kind: 'money', input: true },
  { name: 'slip.dueDate', description: 'Due date (YYYY-MM-DD)', kind: 'date', input: true },
];

export const INPUT_VARIABLES = VARIABLES.filter((v) => v.input).map((v) => v.name);

export interface Template {
  templateId: string;
  name: string;
  description: string;
  /** Whether the template needs a booking (`rentalId`) to make sense. */
  needsBooking: boolean;
  subject: string;
  text: string;
  /** Body of the HTML part (wrapped in the common layout when rendered). */
  html: string;
  sms: string;
}

export const TEMPLATE_IDS = [
  'booking_confirmation',
  'booking_reminder',
  'booking_cancellation',
  'waiver_link',
  'cart_recovery',
  'gift_card',
  'membership_receipt',
  'slip_bill',
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

const sign = '{{business.name}}\n{{location.name}} · {{location.phoneNumber}}';
const signHtml = '<p style="color:#555">{{business.name}}<br>{{location.name}} · {{location.phoneNumber}}</p>';

export const TEMPLATES: Record<TemplateId, Template> = {
  booking_confirmation: {
    templateId: 'booking_confirmation',
    name: 'Booking confirmation',
    description: 'Sent when a booking is placed: what, when, where and the amounts.',
    needsBooking: true,
    subject: 'Your booking at {{location.name}} is confirmed',
    text: `Hello {{renter.firstName}},

Your booking {{booking.reference}} is confirmed.

What: {{booking.itemName}}
When: {{booking.when}} ({{location.zoneName}})
Where: {{location.name}}, {{location.address}}
{{#location.mapUrl}}
Map: {{location.mapUrl}}
{{/location.mapUrl}}
Total: {{booking.total}} (paid {{booking.amountPaid}}, balance due {{booking.balanceDue}})
Manage or cancel: {{booking.manageUrl}}

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>Your booking <strong>{{booking.reference}}</strong> is confirmed.</p>
<table>
<tr><td>What</td><td>{{booking.itemName}}</td></tr>
<tr><td>When</td><td>{{booking.when}} ({{location.zoneName}})</td></tr>
<tr><td>Where</td><td>{{location.name}}, {{location.address}}{{#location.mapUrl}} (<a href="{{location.mapUrl}}">map</a>){{/location.mapUrl}}</td></tr>
<tr><td>Total</td><td>{{booking.total}} (paid {{booking.amountPaid}}, balance due {{booking.balanceDue}})</td></tr>
</table>
{{#booking.manageUrl}}<p><a href="{{booking.manageUrl}}">Manage or cancel your booking</a></p>{{/booking.manageUrl}}
<p>{{message.custom}}</p>
${signHtml}`,
    sms: '{{business.name}}: booking {{booking.rentalId}} confirmed for {{booking.start}} at {{location.name}}.',
  },
  booking_reminder: {
    templateId: 'booking_reminder',
    name: 'Booking reminder',
    description: 'Sent before the start (schedule it with trigger `before_start`).',
    needsBooking: true,
    subject: 'Reminder: {{booking.itemName}} on {{booking.date}}',
    text: `Hello {{renter.firstName}},

A reminder of your booking {{booking.reference}}: {{booking.itemName}} on {{booking.when}} ({{location.zoneName}}) at {{location.name}}, {{location.address}}.
{{#location.mapUrl}}
Map: {{location.mapUrl}}
{{/location.mapUrl}}
Balance due: {{booking.balanceDue}}.
Manage or cancel: {{booking.manageUrl}}

{{message.custom}}

See you soon!
${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>A reminder of your booking <strong>{{booking.reference}}</strong>: {{booking.itemName}} on <strong>{{booking.when}}</strong> ({{location.zoneName}}) at {{location.name}}, {{location.address}}{{#location.mapUrl}} (<a href="{{location.mapUrl}}">map</a>){{/location.mapUrl}}.</p>
<p>Balance due: {{booking.balanceDue}}.</p>
{{#booking.manageUrl}}<p><a href="{{booking.manageUrl}}">Manage or cancel your booking</a></p>{{/booking.manageUrl}}
<p>{{message.custom}}</p>
<p>See you soon!</p>
${signHtml}`,
    sms: 'Reminder from {{business.name}}: {{booking.itemName}} on {{booking.when}} at {{location.name}}.',
  },
  booking_cancellation: {
    templateId: 'booking_cancellation',
    name: 'Booking cancellation',
    description: 'Sent when a booking is cancelled.',
    needsBooking: true,
    subject: 'Your booking {{booking.rentalId}} is cancelled',
    text: `Hello {{renter.firstName}},

Your booking {{booking.rentalId}} ({{booking.itemName}} on {{booking.when}}) has been cancelled.

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>Your booking <strong>{{booking.rentalId}}</strong> ({{booking.itemName}} on {{booking.when}}) has been cancelled.</p>
<p>{{message.custom}}</p>
${signHtml}`,
    sms: '{{business.name}}: your booking {{booking.rentalId}} on {{booking.start}} has been cancelled.',
  },
  waiver_link: {
    templateId: 'waiver_link',
    name: 'Waiver link',
    description: 'Asks the renter to sign the waiver before the trip (`link.url`).',
    needsBooking: false,
    subject: 'Please sign your waiver for {{location.name}}',
    text: `Hello {{renter.firstName}},

Before your trip with {{business.name}}, please sign the waiver: {{link.url}}

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>Before your trip with {{business.name}}, please sign the waiver:</p>
<p><a href="{{link.url}}">Sign the waiver</a></p>
<p>{{message.custom}}</p>
${signHtml}`,
    sms: 'Hi {{renter.firstName}}, please sign your waiver for {{location.name}}: {{link.url}}',
  },
  cart_recovery: {
    templateId: 'cart_recovery',
    name: 'Cart recovery',
    description: 'Invites a visitor who left the booking widget to finish the booking (`link.url` is a short tracking link).',
    needsBooking: false,
    subject: 'Finish your booking with {{business.name}}',
    text: `Hello {{renter.firstName}},

You started a booking with {{business.name}} but did not finish it.
{{cart.itemName}} {{cart.start}}

{{message.custom}}

Pick up where you left off: {{link.url}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>You started a booking with {{business.name}} but did not finish it.</p>
<p>{{cart.itemName}} {{cart.start}}</p>
<p>{{message.custom}}</p>
<p><a href="{{link.url}}">Pick up where you left off</a></p>
${signHtml}`,
    sms: '{{business.name}}: finish your booking here: {{link.url}}',
  },
  gift_card: {
    templateId: 'gift_card',
    name: 'Gift card',
    description: 'Delivers a gift card (`giftCard.code`, `giftCard.amount`, `giftCard.expiresOn`).',
    needsBooking: false,
    subject: 'Your {{business.name}} gift card',
    text: `Hello {{renter.firstName}},

Here is your {{business.name}} gift card worth {{giftCard.amount}}.
Code: {{giftCard.code}}
Valid until: {{giftCard.expiresOn}}

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>Here is your {{business.name}} gift card worth <strong>{{giftCard.amount}}</strong>.</p>
<p>Code: <strong>{{giftCard.code}}</strong><br>Valid until: {{giftCard.expiresOn}}</p>
<p>{{message.custom}}</p>
${signHtml}`,
    sms: '{{business.name}} gift card {{giftCard.code}} worth {{giftCard.amount}}, valid until {{giftCard.expiresOn}}.',
  },
  membership_receipt: {
    templateId: 'membership_receipt',
    name: 'Membership receipt',
    description: 'Receipt of a membership charge (`membership.tierName`, `membership.amount`, `membership.periodEnd`).',
    needsBooking: false,
    subject: 'Receipt: your {{membership.tierName}} membership',
    text: `Hello {{renter.firstName}},

We received {{membership.amount}} for your {{membership.tierName}} membership. The paid period ends on {{membership.periodEnd}}.

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>We received <strong>{{membership.amount}}</strong> for your {{membership.tierName}} membership. The paid period ends on {{membership.periodEnd}}.</p>
<p>{{message.custom}}</p>
${signHtml}`,
    sms: '{{business.name}}: received {{membership.amount}} for your {{membership.tierName}} membership.',
  },
  slip_bill: {
    templateId: 'slip_bill',
    name: 'Slip bill',
    description: 'A marina slip bill (`slip.unit`, `slip.amount`, `slip.dueDate`, payment `link.url`).',
    needsBooking: false,
    subject: 'Your slip bill from {{location.name}}',
    text: `Hello {{renter.firstName}},

The bill for slip {{slip.unit}} is {{slip.amount}}, due on {{slip.dueDate}}.
Pay online: {{link.url}}

{{message.custom}}

${sign}`,
    html: `<p>Hello {{renter.firstName}},</p>
<p>The bill for slip <strong>{{slip.unit}}</strong> is <strong>{{slip.amount}}</strong>, due on {{slip.dueDate}}.</p>
<p><a href="{{link.url}}">Pay online</a></p>
<p>{{message.custom}}</p>
${signHtml}`,
    sms: '{{location.name}}: slip {{slip.unit}} bill {{slip.amount}} due {{slip.dueDate}}. Pay: {{link.url}}',
  },
};

const VAR_RE = /\{\{\s*[#^/]?\s*([A-Za-z]+\.[A-Za-z]+)\s*\}\}/g;

/** The variables a template uses, in order of first use. */
export function variablesOf(t: Template): string[] {
  const seen = new Set<string>();
  for (const part of [t.subject, t.text, t.html, t.sms]) for (const m of part.matchAll(VAR_RE)) seen.add(m[1]);
  return [...seen];
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
  sms: string;
}

/**
 * Fills a template with the one template engine (lib/template.ts): missing variables render empty,
 * HTML values are escaped, the HTML part is wrapped in the common e-mail layout under the business
 * name, and the subject is one line.
 */
export function renderTemplate(t: Template, vars: Record<string, string>): Rendered {
  const mail = renderEmail(t, vars, { name: vars['business.name'] ?? '', logoUrl: vars['business.logoUrl'] || null });
  return { ...mail, sms: oneLine(render(t.sms, vars, 'text'), 2000) };
}
