import { z } from '@hono/zod-openapi';
import { zEmail, zId, zJsonObject, zLimit, zOffset, zQueryBool } from '../../lib/openapi';
import { BOOKING_STATUSES } from '../bookings/types';
import { INPUT_VARIABLES, TEMPLATE_IDS } from './templates';
import { MESSAGE_KEYS } from './message-keys';

// ------------------------------------------------------------------------------------------------
// Templates

export const TemplateVariable = z.object({
  name: z.string(),
  description: z.string(),
  kind: z.enum(['text', 'money', 'date', 'datetime']),
  input: z.boolean(),
});

export const Template = z
  .object({
    templateId: z.string().openapi({ example: 'booking_confirmation' }),
    name: z.string(),
    description: z.string(),
    needsBooking: z.boolean(),
    channels: z.array(z.enum(['email', 'sms'])),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    sms: z.string(),
    variables: z.array(TemplateVariable),
  })
  .openapi('MessageTemplate');

export const TemplateList = z.object({ data: z.array(Template) }).openapi('MessageTemplateList');
export const TemplateParams = z.object({
  templateId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'templateId', in: 'path' }, example: 'booking_reminder' }),
});

// ------------------------------------------------------------------------------------------------
// Sends

export const zCountry = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code such as US')
    .openapi({ example: 'US', description: 'Country of a number given without `+` (default: the location’s `details.country`, else US)' });

const zPhoneInput = () => z.string().trim().min(3).max(32).openapi({ example: '+13055550142' });

export const MessageResult = z
  .object({
    messageId: z.string(),
    channel: z.enum(['email', 'sms', 'chat', 'push']),
    to: z.string(),
    status: z.enum(['queued', 'sending', 'sent', 'failed', 'skipped']),
    provider: z.string().openapi({ description: '`postmark`, `twilio`, or `outbox` (the offline default)' }),
    providerMessageId: z.string().nullable(),
    providerStatus: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .openapi('MessageResult');

const Recipient = z.union([
  z.string().trim().min(3).max(254).openapi({ description: 'An e-mail address (gets the e-mail) or a phone number (gets the SMS)' }),
  z
    .object({
      email: zEmail().optional(),
      phoneNumber: zPhoneInput().optional(),
      firstName: z.string().trim().max(100).optional(),
      lastName: z.string().trim().max(100).optional(),
    })
    .refine((r) => r.email || r.phoneNumber, 'give email or phoneNumber'),
]);

export const SendTemplatedBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    locationId: zId('loc_01J0000000000000000000000'),
    templateId: z.enum(TEMPLATE_IDS),
    rentalId: zId('bk_01J0000000000000000000000').optional(),
    recipientList: z.array(Recipient).max(50).optional(),
    forceSendEmail: z.boolean().optional(),
    forceSendText: z.boolean().optional(),
    country: zCountry().optional(),
    variables: z
      .record(z.string(), z.union([z.string().max(2000), z.number()]))
      .refine((v) => Object.keys(v).every((k) => INPUT_VARIABLES.includes(k)), `keys must be among: ${INPUT_VARIABLES.join(', ')}`)
      .optional()
      .openapi({ description: `Values of the input variables (${INPUT_VARIABLES.join(', ')}): money in dollars, dates YYYY-MM-DD or ISO instants` }),
  })
  .refine((b) => b.rentalId || (b.recipientList && b.recipientList.length), { message: 'give rentalId or recipientList (or both)', path: ['rentalId'] })
  .openapi('SendTemplated');

export const SendTemplatedResult = z
  .object({
    success: z.boolean(),
    templateId: z.string(),
    rentalId: z.string().nullable(),
    sent: z.number().int(),
    queued: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    messages: z.array(MessageResult),
  })
  .openapi('SendTemplatedResult');

export const SendSmsBody = z
  .object({
    phoneNumber: zPhoneInput(),
    message: z.string().trim().min(1).max(1600),
    customerId: zId('cus_01J0000000000000000000000').optional(),
    locationId: zId('loc_01J0000000000000000000000').optional(),
    country: zCountry().optional(),
  })
  .openapi('SendSms');

export const SmsResult = MessageResult.extend({ success: z.boolean(), phoneNumber: z.string().openapi({ description: 'The number in E.164' }) }).openapi(
  'SmsResult',
);

export const SendWaiverLinkBody = z
  .object({
    phoneNumber: zPhoneInput(),
    waiverUrl: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .openapi({ description: "Absolute http(s) URL, or a path resolved against the location's `details.publicBaseUrl` (else this API's public base)" }),
    message: z.string().trim().max(1000).optional().openapi({ description: 'Text of the SMS; `{url}` is replaced by the link, which is appended when absent' }),
    customerId: zId('cus_01J0000000000000000000000').optional(),
    transactionId: zId('txn_01J0000000000000000000000').optional(),
    firstName: z.string().trim().max(100).optional(),
    lastName: z.string().trim().max(100).optional(),
    locationId: zId('loc_01J0000000000000000000000').optional(),
    country: zCountry().optional(),
  })
  .openapi('SendWaiverLink');

export const WaiverLinkResult = SmsResult.extend({ waiverUrl: z.string() }).openapi('WaiverLinkResult');

export const ValidatePhoneBody = z.object({ phoneNumber: zPhoneInput(), country: zCountry().optional() }).openapi('ValidatePhone');

export const PhoneInfo = z
  .object({
    valid: z.literal(true),
    e164: z.string().openapi({ example: '+13055550142' }),
    country: z.string().nullable(),
    countryCallingCode: z.string(),
    nationalNumber: z.string(),
    nationalFormat: z.string(),
    internationalFormat: z.string(),
    smsAvailable: z.boolean(),
    optedOut: z.boolean().openapi({ description: 'The number replied STOP to our SMS (START re-opens it)' }),
  })
  .openapi('PhoneInfo');

// ------------------------------------------------------------------------------------------------
// Scheduled communications

export const TRIGGERS = ['immediate', 'before_start', 'after_start', 'after_end', 'on_cancel'] as const;
export const SCHEDULE_STATUSES = ['waiting', 'pending', 'processing', 'sent', 'skipped', 'failed', 'cancelled'] as const;

export const Conditions = z
  .object({
    bookingStatus: z.array(z.enum(BOOKING_STATUSES)).min(1).max(6).optional().openapi({ description: 'The booking must be in one of these statuses' }),
    paidInFull: z.boolean().optional().openapi({ description: 'true: the balance must be 0; false: a balance must be due' }),
    checkedIn: z.boolean().optional().openapi({ description: 'true: the renter must have checked in; false: must not have' }),
  })
  .strict()
  .openapi('ScheduleConditions');

export const ScheduleBody = z
  .object({
    customerId: zId('cus_01J0000000000000000000000'),
    locationId: zId('loc_01J0000000000000000000000'),
    templateId: z.enum(TEMPLATE_IDS),
    recipientEmail: zEmail(),
    rentalId: zId('bk_01J0000000000000000000000').optional(),
    delayMinutes: z
      .number()
      .int()
      .min(0)
      .max(60 * 24 * 365)
      .default(0),
    trigger: z.enum(TRIGGERS).default('immediate'),
    conditions: Conditions.optional(),
  })
  .openapi('ScheduleCommunication');

export const Schedule = z
  .object({
    scheduleId: z.string(),
    customerId: z.string(),
    locationId: z.string(),
    templateId: z.string(),
    recipientEmail: z.string(),
    rentalId: z.string().nullable(),
    delayMinutes: z.number().int(),
    trigger: z.enum(TRIGGERS),
    conditions: zJsonObject(),
    status: z.enum(SCHEDULE_STATUSES),
    sendAt: z.string().nullable(),
    statusReason: z.string().nullable(),
    messageId: z.string().nullable(),
    processedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ScheduledCommunication');

export const ScheduleList = z.object({ data: z.array(Schedule) }).openapi('ScheduledCommunicationList');
export const ScheduleParams = z.object({ scheduleId: zId('sch_01J0000000000000000000000').openapi({ param: { name: 'scheduleId', in: 'path' } }) });
export const RentalParams = z.object({ rentalId: zId('bk_01J0000000000000000000000').openapi({ param: { name: 'rentalId', in: 'path' } }) });

export const ProcessResult = z
  .object({
    claimed: z.number().int(),
    sent: z.number().int(),
    skipped: z.number().int(),
    failed: z.number().int(),
    cancelled: z.number().int(),
    rescheduled: z.number().int(),
    interrupted: z.number().int(),
  })
  .openapi('ScheduledProcessResult');

// ------------------------------------------------------------------------------------------------
// Operator templates

const zPart = (max: number, example: string) => z.string().trim().min(1).max(max).openapi({ example });

export const KeyVariable = z.object({ name: z.string(), description: z.string() }).openapi('MessageKeyVariable');

export const CustomTemplateBody = z
  .object({
    key: z.enum(MESSAGE_KEYS).openapi({ description: 'The message key the template is for' }),
    itemId: zId('inv_01J0000000000000000000000')
      .optional()
      .openapi({ description: "An inventory item: the template of that item's messages (else the operator's, every item)" }),
    name: z.string().trim().min(1).max(120).optional(),
    subject: zPart(300, 'See you tomorrow, {{renter.firstName}}!'),
    html: zPart(50_000, '<p>Hello {{renter.firstName}}, your {{booking.itemName}} is ready on {{booking.when}}.</p>'),
    text: zPart(20_000, 'Hello {{renter.firstName}}, your {{booking.itemName}} is ready on {{booking.when}}.'),
    sms: z.string().trim().min(1).max(1600).nullable().optional().openapi({ description: 'The SMS text (default: the plain-text part on one line)' }),
  })
  .strict()
  .openapi('MessageTemplateInput');

export const CustomTemplatePatch = CustomTemplateBody.omit({ key: true, itemId: true })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give at least one field')
  .openapi('MessageTemplatePatch');

export const CustomTemplate = z
  .object({
    templateId: z.string().openapi({ example: 'mtp_01J0000000000000000000000' }),
    key: z.enum(MESSAGE_KEYS),
    itemId: z.string().nullable().openapi({ description: 'null: the operator template (every item)' }),
    name: z.string(),
    subject: z.string(),
    html: z.string(),
    text: z.string(),
    sms: z.string().nullable(),
    variables: z.array(KeyVariable).openapi({ description: 'The variables the key supports' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('OperatorMessageTemplate');

export const CustomTemplateList = z
  .object({ data: z.array(CustomTemplate), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('OperatorMessageTemplateList');

export const CustomTemplateQuery = z.object({
  key: z.enum(MESSAGE_KEYS).optional(),
  itemId: zId('inv_01J0000000000000000000000').optional(),
  limit: zLimit(),
  offset: zOffset(),
});

export const CustomTemplateParams = z.object({
  id: zId('mtp_01J0000000000000000000000').openapi({ param: { name: 'id', in: 'path' } }),
});

export const PreviewBody = z
  .object({
    rentalId: zId('bk_01J0000000000000000000000').optional().openapi({ description: "Render with this booking's real data (else sample data)" }),
    locationId: zId('loc_01J0000000000000000000000').optional().openapi({ description: 'The location of the sample (its name, address, zone)' }),
    variables: z.record(z.string(), z.string().max(2000)).optional().openapi({ description: 'Values that override the rendered ones' }),
  })
  .strict()
  .openapi('MessageTemplatePreviewInput');

export const Preview = z
  .object({
    templateId: z.string(),
    key: z.string(),
    rentalId: z.string().nullable(),
    sample: z.boolean().openapi({ description: 'Rendered with sample data (no rentalId)' }),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    sms: z.string(),
  })
  .openapi('MessageTemplatePreview');

export const TestSendBody = z
  .object({
    email: zEmail().optional(),
    phoneNumber: zPhoneInput().optional(),
    country: zCountry().optional(),
    rentalId: zId('bk_01J0000000000000000000000').optional(),
    locationId: zId('loc_01J0000000000000000000000').optional(),
  })
  .strict()
  .refine((b) => b.email || b.phoneNumber, { message: 'give email or phoneNumber (or both)', path: ['email'] })
  .openapi('MessageTemplateTestInput');

export const TestSendResult = z.object({ templateId: z.string(), messages: z.array(MessageResult) }).openapi('MessageTemplateTestResult');

// ------------------------------------------------------------------------------------------------
// Automations

export const AUTOMATION_TRIGGER_VALUES = ['booked', 'hours_before_start', 'hours_after_end', 'cancelled', 'waitlist_offered'] as const;

const automationFields = {
  name: z.string().trim().min(1).max(120).optional(),
  trigger: z.enum(AUTOMATION_TRIGGER_VALUES).openapi({ description: 'When it fires' }),
  hours: z
    .number()
    .int()
    .min(1)
    .max(2160)
    .optional()
    .openapi({ description: 'N of `hours_before_start` (N hours before the start) and `hours_after_end` (N hours after the end)' }),
  recipient: z.enum(['renter', 'staff']),
  staffUserId: zId('usr_01J0000000000000000000000')
    .nullable()
    .optional()
    .openapi({ description: "Staff: this user (else every user assigned to the booking's location)" }),
  channel: z.enum(['email', 'sms']),
  templateId: z.string().trim().min(1).max(128).openapi({
    example: 'booking_reminder',
    description: "An operator template id (`mtp_...`), or a message key: the item's, operator's or default template of that key",
  }),
  itemIds: z.array(zId('inv_01J0000000000000000000000')).max(100).optional().openapi({ description: 'Only bookings of these items (default: every item)' }),
  active: z.boolean().optional(),
};

export const AutomationBody = z.object(automationFields).strict().openapi('MessageAutomationInput');
export const AutomationPatch = z
  .object(automationFields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give at least one field')
  .openapi('MessageAutomationPatch');

export const Automation = z
  .object({
    automationId: z.string().openapi({ example: 'aut_01J0000000000000000000000' }),
    name: z.string(),
    trigger: z.enum(AUTOMATION_TRIGGER_VALUES),
    hours: z.number().int().nullable(),
    recipient: z.enum(['renter', 'staff']),
    staffUserId: z.string().nullable(),
    channel: z.enum(['email', 'sms']),
    templateId: z.string(),
    itemIds: z.array(z.string()),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('MessageAutomation');

export const AutomationList = z
  .object({ data: z.array(Automation), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('MessageAutomationList');
export const AutomationQuery = z.object({ active: zQueryBool().optional(), limit: zLimit(), offset: zOffset() });
export const AutomationParams = z.object({ id: zId('aut_01J0000000000000000000000').openapi({ param: { name: 'id', in: 'path' } }) });
export const Deleted = z
  .object({ success: z.literal(true) })
  .passthrough()
  .openapi('MessageDeleted');
