// Communications service: the entry point other code imports. The logic lives next to it:
// templates.ts (the default templates and the renderer), variables.ts (template variables from the
// booking, renter, location and business), phone.ts (parsing and E.164), send.ts (templated sends,
// SMS, waiver links), schedule.ts (scheduled communications and the booking hooks), process.ts (the
// processor), inbound.ts (Twilio webhooks: opt-out keywords, delivery status) and throttle.ts
// (public send limits). The one send function itself is src/adapters/messages.ts.
import { ApiError } from '../../lib/errors';
import { TEMPLATES, type TemplateId } from './templates';
import { allTemplates, templateOut } from './views';

export { TEMPLATES, TEMPLATE_IDS, renderTemplate, escapeHtml, type TemplateId, type Rendered } from './templates';
export { loadRenderSource, variablesFor, formattersFor, type Person, type RenderSource } from './variables';
export { parsePhone, smsPhone, tryPhone, SMS_COUNTRIES, type PhoneInfo } from './phone';
export { sendTemplated, sendSms, sendWaiverLink, validatePhone, resolveWaiverUrl, locationCountry, type SendTemplatedInput } from './send';
export {
  scheduleCommunication,
  cancelSchedule,
  listSchedulesForRental,
  onBookingCancelled,
  onBookingRescheduled,
  sendTimeOf,
  PAST_TOLERANCE_MS,
} from './schedule';
export { processScheduledMessages, nextScheduledDue, forTenant, unmetCondition, LATE_GRACE_MS } from './process';
export { receiveInboundSms, receiveSmsStatus, STOP_KEYWORDS, START_KEYWORDS } from './inbound';
export { throttlePublicSend, PUBLIC_SEND_LIMITS } from './throttle';

export const listTemplates = () => ({ data: allTemplates() });

export async function getTemplate(templateId: string) {
  const t = TEMPLATES[templateId as TemplateId];
  if (!t) throw new ApiError('not_found', `No default template ${templateId}; see GET /communication/templates/defaults`);
  return templateOut(t);
}
