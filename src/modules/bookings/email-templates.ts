/**
 * The booking e-mail templates (lib/template.ts syntax: `{{value}}`, `{{#section}}...{{/section}}`,
 * `{{^inverted}}...{{/inverted}}`), filled from emails.ts `mailData` plus each e-mail's own values.
 * The template id is the outbox row's `template`.
 */
import type { EmailTemplate } from '../../lib/template';

const TEXT_BOOKINGS = `{{#bookings}}
{{itemName}}
  When: {{when}}
  Party: {{party}}
  Booking reference: {{reference}}
  Manage or cancel: {{manage}}

{{/bookings}}`;

const TEXT_PLACE = `Times are in {{place.zoneName}}.
Where: {{place.name}}, {{place.address}}
{{#place.mapUrl}}
Map: {{place.mapUrl}}
{{/place.mapUrl}}
{{#place.phone}}
Phone: {{place.phone}}
{{/place.phone}}
`;

const TEXT_BRING = `{{#hasBring}}

What to bring:
{{#bring}}
- {{.}}
{{/bring}}
{{/hasBring}}`;

const TEXT_POLICY = `{{#policy}}

Cancellation policy: {{summary}}
{{#lines}}
- {{.}}
{{/lines}}
{{/policy}}`;

const HTML_BOOKINGS = `{{#bookings}}
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:12px 0;border:1px solid #e2e4e8;border-radius:6px">
<tr><td colspan="2" style="padding:10px 12px;font-weight:bold;font-size:16px">{{itemName}}</td></tr>
<tr><td style="padding:4px 12px;color:#555;width:150px">When</td><td style="padding:4px 12px"><strong>{{when}}</strong></td></tr>
<tr><td style="padding:4px 12px;color:#555">Party</td><td style="padding:4px 12px">{{party}}</td></tr>
<tr><td style="padding:4px 12px;color:#555">Booking reference</td><td style="padding:4px 12px;font-family:monospace">{{reference}}</td></tr>
<tr><td colspan="2" style="padding:10px 12px"><a href="{{manage}}" style="display:inline-block;padding:8px 14px;background:{{brandColor}};color:#ffffff;border-radius:4px;text-decoration:none">Manage or cancel</a> <a href="{{pass}}" style="margin-left:8px">Your pass</a></td></tr>
</table>
{{/bookings}}`;

const HTML_PLACE = `<p style="color:#555">Times are in {{place.zoneName}}.</p>
<p><strong>Where</strong><br>{{place.name}}<br>{{place.address}}{{#place.phone}}<br>{{place.phone}}{{/place.phone}}{{#place.mapUrl}}<br><a href="{{place.mapUrl}}">Open the map</a>{{/place.mapUrl}}</p>`;

const HTML_BRING = `{{#hasBring}}
<p><strong>What to bring</strong></p>
<ul>{{#bring}}<li>{{.}}</li>{{/bring}}</ul>
{{/hasBring}}`;

const HTML_POLICY = `{{#policy}}
<p><strong>Cancellation policy</strong><br>{{summary}}</p>
<ul>{{#lines}}<li>{{.}}</li>{{/lines}}</ul>
{{/policy}}`;

export const BOOKING_TEMPLATES = {
  'booking.confirmation': {
    subject: '{{#confirmed}}Your booking is confirmed{{/confirmed}}{{^confirmed}}We received your booking{{/confirmed}} ({{reference}})',
    text: `Hello {{firstName}},

{{#confirmed}}Your booking with {{business.name}} is confirmed.{{/confirmed}}{{^confirmed}}We received your booking with {{business.name}}; it is awaiting confirmation.{{/confirmed}}

${TEXT_BOOKINGS}
Total: {{total}}; paid: {{paid}}{{#balance}}; balance due: {{balance}}{{/balance}}.

${TEXT_PLACE}${TEXT_BRING}${TEXT_POLICY}

{{business.name}}`,
    html: `<p>Hello {{firstName}},</p>
<p>{{#confirmed}}Your booking with {{business.name}} is <strong>confirmed</strong>.{{/confirmed}}{{^confirmed}}We received your booking with {{business.name}}; it is awaiting confirmation.{{/confirmed}}</p>
${HTML_BOOKINGS}
<p>Total: <strong>{{total}}</strong>; paid: {{paid}}{{#balance}}; balance due: <strong>{{balance}}</strong>{{/balance}}.</p>
${HTML_PLACE}
${HTML_BRING}
${HTML_POLICY}`,
  },
  'booking.cancelled': {
    subject: 'Your booking {{reference}} is cancelled',
    text: `Hello {{firstName}},

Your booking with {{business.name}} has been cancelled.

${TEXT_BOOKINGS}{{#reason}}
Reason: {{reason}}
{{/reason}}
{{refund}}

${TEXT_PLACE}
{{business.name}}`,
    html: `<p>Hello {{firstName}},</p>
<p>Your booking with {{business.name}} has been <strong>cancelled</strong>.</p>
${HTML_BOOKINGS}
{{#reason}}<p>Reason: {{reason}}</p>{{/reason}}
<p>{{refund}}</p>
${HTML_PLACE}`,
  },
  'booking.rescheduled': {
    subject: 'Your booking has a new time ({{reference}})',
    text: `Hello {{firstName}},

Your booking with {{business.name}} has moved.
Was: {{was}}

${TEXT_BOOKINGS}{{price}}

${TEXT_PLACE}${TEXT_BRING}${TEXT_POLICY}

{{business.name}}`,
    html: `<p>Hello {{firstName}},</p>
<p>Your booking with {{business.name}} has <strong>moved</strong>. It was on {{was}}.</p>
${HTML_BOOKINGS}
<p style="white-space:pre-line">{{price}}</p>
${HTML_PLACE}
${HTML_BRING}
${HTML_POLICY}`,
  },
  'booking.changed': {
    subject: 'Your booking has changed ({{reference}})',
    text: `Hello {{firstName}},

Your booking with {{business.name}} has changed.
{{#changed}}
{{what}}: {{now}} (was {{was}})
{{/changed}}

${TEXT_BOOKINGS}{{price}}

${TEXT_PLACE}${TEXT_BRING}${TEXT_POLICY}

{{business.name}}`,
    html: `<p>Hello {{firstName}},</p>
<p>Your booking with {{business.name}} has <strong>changed</strong>.</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0">
<tr><th style="text-align:left;padding:4px 12px 4px 0"></th><th style="text-align:left;padding:4px 12px">Now</th><th style="text-align:left;padding:4px 12px;color:#555">Was</th></tr>
{{#changed}}<tr><td style="padding:4px 12px 4px 0;color:#555">{{what}}</td><td style="padding:4px 12px"><strong>{{now}}</strong></td><td style="padding:4px 12px;color:#555">{{was}}</td></tr>{{/changed}}
</table>
${HTML_BOOKINGS}
<p style="white-space:pre-line">{{price}}</p>
${HTML_PLACE}
${HTML_BRING}
${HTML_POLICY}`,
  },
} satisfies Record<string, EmailTemplate>;

export type BookingTemplateId = keyof typeof BOOKING_TEMPLATES;
