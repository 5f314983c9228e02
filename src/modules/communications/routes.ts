import { z } from '@hono/zod-openapi';
import { Ok, route } from '../../lib/openapi';
import { twilioWebhookAuth } from './inbound';
import * as s from './schemas';

const tags = ['Communications'];

const MESSAGE_DOC = `Every message goes through one send function and is recorded in the send log (\`GET /outbox/messages\`, filter \`rentalId\` for a booking) with its outcome: \`sent\` (with the provider's delivery id and status), \`queued\` (a temporary provider failure, retried), \`failed\` (the provider's reason) or \`skipped\` (the reason, such as a number that replied STOP). Providers: Postmark (e-mail) and Twilio (SMS) when configured, else the outbox (\`provider: outbox\`).`;

const PHONE_DOC = `Numbers are parsed with libphonenumber and normalised to E.164; a number without \`+\` is read in \`country\` (default: the location's \`details.country\`, else US). 400 \`invalid_phone_number\` when it is not a valid number, 400 \`sms_unavailable\` when SMS is not sent to that country.`;

export const listTemplates = route({
  method: 'get',
  path: '/communication/templates/defaults',
  operationId: 'listDefaultTemplates',
  tags,
  summary: 'The default message templates',
  description: `Booking confirmation, reminder, cancellation, waiver link, cart recovery, gift card, membership receipt and slip bill: each with an e-mail subject, plain-text and HTML parts, an SMS text and its \`{{group.name}}\` variables. Variables are filled from the booking, the renter, the location and the business; dates and times are rendered in the location's time zone, amounts in its currency; values are HTML-escaped in the HTML part. Variables marked \`input\` come from the sender (\`variables\` of \`send-templated\`).`,
  ok: s.TemplateList,
});

export const getTemplate = route({
  method: 'get',
  path: '/communication/templates/defaults/{templateId}',
  operationId: 'getDefaultTemplate',
  tags,
  summary: 'One default template',
  description:
    'Its e-mail subject, plain-text and HTML parts, SMS text and variables, as GET /communication/templates/defaults lists them. 404 for an unknown id.',
  params: s.TemplateParams,
  ok: s.Template,
  errors: [404],
});

export const sendTemplated = route({
  method: 'post',
  path: '/communication/send-templated',
  operationId: 'sendTemplated',
  tags,
  summary: "Send a default template to a rental's renter and/or a recipient list",
  description: `Give \`rentalId\`, \`recipientList\`, or both (all receive, each address once). The rental's renter (booking customer info, then the renter record) gets the e-mail unless they opted out of e-mails (\`extendedData.emailOptOut\` of the booking or \`additional_info.emailOptOut\` of the renter) or the location turned e-mails off (\`details.notifications.email: false\`), and the SMS only when they consented to texts (\`extendedData.smsOptIn\` or \`additional_info.smsOptIn\`); \`forceSendEmail\`/\`forceSendText\` send regardless of those preferences, never to a number that replied STOP. Recipient-list entries (an e-mail address, a phone number, or \`{email, phoneNumber, firstName, lastName}\`) get the channel of each address given. The rental must be at \`locationId\`. ${PHONE_DOC} ${MESSAGE_DOC}`,
  body: s.SendTemplatedBody,
  ok: s.SendTemplatedResult,
  errors: [403, 404],
});

export const sendSms = route({
  method: 'post',
  path: '/communication/send-sms',
  operationId: 'sendSms',
  tags,
  summary: 'Send one SMS',
  description: `${PHONE_DOC} A number that replied STOP (or a synonym) to our SMS is not sent to: the answer is 200 with \`status: skipped\` until it replies START. ${MESSAGE_DOC}`,
  body: s.SendSmsBody,
  ok: s.SmsResult,
  errors: [403, 404],
});

export const sendWaiverLink = route({
  method: 'post',
  path: '/communication/send-waiver-link',
  operationId: 'sendWaiverLink',
  tags,
  summary: 'Send a waiver link by SMS',
  description: `\`waiverUrl\` is an absolute http(s) URL or a path resolved against the location's \`details.publicBaseUrl\` (else this API's public base, \`PUBLIC_BASE_URL\`). Without \`message\` the SMS is the \`waiver_link\` template; with it, \`{url}\` in the message is replaced by the link (appended when absent). ${PHONE_DOC} ${MESSAGE_DOC}`,
  body: s.SendWaiverLinkBody,
  ok: s.WaiverLinkResult,
  errors: [403, 404],
});

export const validatePhone = route({
  method: 'post',
  path: '/communication/validate-phone',
  operationId: 'validatePhone',
  tags,
  summary: 'Parse and normalise a phone number for SMS',
  description: `${PHONE_DOC} The 400 for \`sms_unavailable\` also carries the parsed \`e164\` and \`country\`. \`optedOut\` tells whether the number replied STOP.`,
  body: s.ValidatePhoneBody,
  ok: s.PhoneInfo,
});

const SCHEDULE_DOC = `Triggers (the send time is computed when the triggering event happens): \`immediate\` (now + \`delayMinutes\`), \`before_start\` (booking start - delay), \`after_start\` (start + delay), \`after_end\` (end + delay), \`on_cancel\` (the cancellation + delay; \`waiting\` until the booking is cancelled). All but \`immediate\` need \`rentalId\`, as do \`conditions\` and the booking templates. A send time already past when it is computed is \`skipped\` with the reason (never sent late). When the booking is cancelled its pending messages are \`cancelled\` (its \`on_cancel\` ones start); when it is rescheduled the anchored ones move with it. \`conditions\` (\`bookingStatus\`: list, \`paidInFull\`, \`checkedIn\`) are checked again right before sending; unmet, the message is \`skipped\` with the reason. Statuses: \`waiting\`, \`pending\`, \`processing\`, \`sent\`, \`skipped\`, \`failed\`, \`cancelled\`. Messages are e-mails to \`recipientEmail\`, rendered when sent, processed every 5 minutes (and by \`POST /communication/process-scheduled\`).`;

export const schedule = route({
  method: 'post',
  path: '/communication/schedule',
  operationId: 'scheduleCommunication',
  tags,
  summary: 'Schedule a templated e-mail',
  description: `${SCHEDULE_DOC} Answers 200 with the scheduled communication (its \`status\` and \`sendAt\`).`,
  body: s.ScheduleBody,
  ok: s.Schedule,
  errors: [403, 404],
});

export const cancelSchedule = route({
  method: 'delete',
  path: '/communication/schedule/{scheduleId}',
  operationId: 'cancelScheduledCommunication',
  tags,
  summary: 'Cancel a scheduled communication',
  description: `A \`waiting\` or \`pending\` message becomes \`cancelled\`; cancelling again answers it as is; one already processed (\`processing\`, \`sent\`, \`skipped\`, \`failed\`) is 409 \`invalid_state\`. Another operator's id answers 404.`,
  params: s.ScheduleParams,
  ok: s.Schedule,
  errors: [404, 409],
});

export const listSchedules = route({
  method: 'get',
  path: '/communication/schedule/rental/{rentalId}',
  operationId: 'listRentalScheduledCommunications',
  tags,
  summary: 'The scheduled communications of a rental',
  description: `Every status, oldest first. ${SCHEDULE_DOC}`,
  params: s.RentalParams,
  ok: s.ScheduleList,
  errors: [404],
});

export const inboundSms = route({
  method: 'post',
  path: '/communication/sms/inbound',
  operationId: 'receiveInboundSms',
  tags,
  auth: twilioWebhookAuth,
  access: 'none',
  summary: 'Twilio webhook: incoming SMS (opt-out keywords)',
  description: `Configure it as the messaging webhook of the Twilio number or messaging service. Form-encoded, verified with \`X-Twilio-Signature\` (HMAC-SHA1 with \`TWILIO_AUTH_TOKEN\` of the URL and the sorted parameters; 403 otherwise, 503 when no token is configured). A message that is only STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT or REVOKE (case and punctuation ignored) stops every later SMS to the sender's number, for every operator; START, YES, UNSTOP or OPTIN re-opens it. Answers empty TwiML (Twilio sends its own confirmation).`,
  status: 200,
  produces: 'text/xml',
  ok: z.string(),
  errors: [403, 503],
});

export const smsStatus = route({
  method: 'post',
  path: '/communication/sms/status',
  operationId: 'receiveSmsStatus',
  tags,
  auth: twilioWebhookAuth,
  access: 'none',
  summary: 'Twilio webhook: delivery status of our SMS',
  description: `Twilio calls it (our \`StatusCallback\`, set when \`PUBLIC_BASE_URL\` is configured) as an SMS moves through queued, sent, delivered, undelivered or failed. Verified like the inbound webhook. The status is stored on the message; \`undelivered\` and \`failed\` fail it with Twilio's error code (21610, unsubscribed recipient, also opts the number out).`,
  ok: Ok,
  errors: [403, 503],
});

// ------------------------------------------------------------------------------------------------
// Operator templates

const TEMPLATES_DOC = `A template is for one message key (the default template ids, plus \`booking_changed\`, \`booking_rescheduled\` and \`waitlist_offered\`) and for every item (no \`itemId\`) or one item. A message of a key uses the item's template, else the operator's, else the default (\`GET /communication/templates/defaults\`): the booking e-mails (confirmation, change, new time, cancellation), scheduled communications, \`send-templated\` and automations. Parts: \`subject\`, \`html\` (the body, wrapped in the e-mail layout), \`text\` and optional \`sms\`, in the \`{{group.name}}\` syntax with \`{{#name}}...{{/name}}\` sections; values are HTML-escaped in the HTML part. \`variables\` lists what the key supports; a template using any other variable is refused with 400 \`validation_failed\` listing each unknown one in \`details\`. Writes need the \`communications\` permission (admins and managers have it).`;

export const listCustomTemplates = route({
  method: 'get',
  path: '/communication/templates',
  operationId: 'listMessageTemplates',
  tags,
  summary: "The operator's own message templates",
  description: `Filter by \`key\` or \`itemId\`. ${TEMPLATES_DOC}`,
  query: s.CustomTemplateQuery,
  ok: s.CustomTemplateList,
});

export const createCustomTemplate = route({
  method: 'post',
  path: '/communication/templates',
  operationId: 'createMessageTemplate',
  tags,
  summary: 'Create a message template (for the operator or one item)',
  description: `One per key and item: a second answers 409 \`already_exists\` (update it). An item of another operator answers 404. ${TEMPLATES_DOC}`,
  body: s.CustomTemplateBody,
  ok: s.CustomTemplate,
  status: 201,
  errors: [403, 404, 409],
});

export const getCustomTemplate = route({
  method: 'get',
  path: '/communication/templates/{id}',
  operationId: 'getMessageTemplate',
  tags,
  summary: 'One operator template',
  description: `With the variables its key supports. Another operator's id answers 404. ${TEMPLATES_DOC}`,
  params: s.CustomTemplateParams,
  ok: s.CustomTemplate,
  errors: [404],
});

export const updateCustomTemplate = route({
  method: 'patch',
  path: '/communication/templates/{id}',
  operationId: 'updateMessageTemplate',
  tags,
  summary: 'Update an operator template',
  description: `The parts given replace the stored ones (the key and item stay); messages recorded from now on use it. ${TEMPLATES_DOC}`,
  params: s.CustomTemplateParams,
  body: s.CustomTemplatePatch,
  ok: s.CustomTemplate,
  errors: [403, 404],
});

export const deleteCustomTemplate = route({
  method: 'delete',
  path: '/communication/templates/{id}',
  operationId: 'deleteMessageTemplate',
  tags,
  summary: 'Delete an operator template',
  description: `Messages of its key go back to the operator's template (for an item's) or the default. An automation naming it by id is skipped with the reason \`no_template\`. ${TEMPLATES_DOC}`,
  params: s.CustomTemplateParams,
  ok: s.Deleted,
  errors: [403, 404],
});

export const previewCustomTemplate = route({
  method: 'post',
  path: '/communication/templates/{id}/preview',
  operationId: 'previewMessageTemplate',
  tags,
  summary: 'Render a template (with a booking, or sample data)',
  description: `With \`rentalId\` the booking's real data (renter, item, times in the location's zone, amounts); without it sample data over the operator's business and location (\`locationId\`). \`variables\` override values. Answers the subject, text, HTML (in the layout) and SMS; nothing is sent. ${TEMPLATES_DOC}`,
  params: s.CustomTemplateParams,
  body: s.PreviewBody,
  ok: s.Preview,
  errors: [404],
});

export const testCustomTemplate = route({
  method: 'post',
  path: '/communication/templates/{id}/test',
  operationId: 'testMessageTemplate',
  tags,
  summary: 'Send a template once to an e-mail address and/or a phone',
  description: `Rendered as the preview renders it, the subject prefixed \`[Test]\`, sent through the e-mail and SMS adapters (the outbox offline) and recorded in the send log with \`metadata.test\`. ${PHONE_DOC} ${MESSAGE_DOC}`,
  params: s.CustomTemplateParams,
  body: s.TestSendBody,
  ok: s.TestSendResult,
  errors: [403, 404],
});

// ------------------------------------------------------------------------------------------------
// Automations

const AUTOMATIONS_DOC = `An automation sends a template when something happens to a booking: \`booked\` (made after the automation was created), \`hours_before_start\` with \`hours\` N (N hours before the start: any booking not started yet, also one made later than that instant), \`hours_after_end\` with N (N hours after the end, for ends after the automation was created), \`cancelled\` (cancelled after it was created) or \`waitlist_offered\` (a waitlist offer made). \`recipient\`: \`renter\` (the e-mail unless they opted out of e-mails; the SMS only with their consent to texts) or \`staff\` (\`staffUserId\`, else every user assigned to the booking's location). \`channel\`: \`email\` or \`sms\`. \`templateId\`: an operator template (\`mtp_...\`) or a message key (the item's, operator's or default template of that key, chosen when it fires). \`itemIds\` limits it to bookings of those items. Times are UTC instants relative to the booking. The processor runs every 5 minutes (and as a sandbox test clock advances, at each automation's instant); each automation fires at most once per booking (or offer), whatever runs overlap; the message is in the send log (\`GET /outbox/messages\`) with \`metadata.automationId\`. Writes need the \`communications\` permission (admins and managers have it); a template, user or item of another operator answers 404.`;

export const listAutomations = route({
  method: 'get',
  path: '/communication/automations',
  operationId: 'listMessageAutomations',
  tags,
  summary: 'The message automations',
  description: `Oldest first; \`active\` filters. ${AUTOMATIONS_DOC}`,
  query: s.AutomationQuery,
  ok: s.AutomationList,
});

export const createAutomation = route({
  method: 'post',
  path: '/communication/automations',
  operationId: 'createMessageAutomation',
  tags,
  summary: 'Create a message automation',
  description: AUTOMATIONS_DOC,
  body: s.AutomationBody,
  ok: s.Automation,
  status: 201,
  errors: [403, 404],
});

export const getAutomation = route({
  method: 'get',
  path: '/communication/automations/{id}',
  operationId: 'getMessageAutomation',
  tags,
  summary: 'One message automation',
  description: `Another operator's id answers 404. ${AUTOMATIONS_DOC}`,
  params: s.AutomationParams,
  ok: s.Automation,
  errors: [404],
});

export const updateAutomation = route({
  method: 'patch',
  path: '/communication/automations/{id}',
  operationId: 'updateMessageAutomation',
  tags,
  summary: 'Update a message automation (or turn it off with active false)',
  description: `The fields given replace the stored ones. Bookings it already fired for are not sent again. ${AUTOMATIONS_DOC}`,
  params: s.AutomationParams,
  body: s.AutomationPatch,
  ok: s.Automation,
  errors: [403, 404],
});

export const deleteAutomation = route({
  method: 'delete',
  path: '/communication/automations/{id}',
  operationId: 'deleteMessageAutomation',
  tags,
  summary: 'Delete a message automation',
  description: `It stops firing; messages already sent stay in the send log. ${AUTOMATIONS_DOC}`,
  params: s.AutomationParams,
  ok: s.Deleted,
  errors: [403, 404],
});
