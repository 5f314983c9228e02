// The communications module's face. Other code uses it for:
// - rendering and sending a message outside the processor (cart recovery): TEMPLATES, renderTemplate, loadRenderSource, variablesFor, forTenant;
// - running the scheduled-communication processor (cart recovery): processScheduledMessages;
// - public send limits (renter self-service, cart recovery): throttlePublicSend;
// - scheduled send times (the seed): sendTimeOf, PAST_TOLERANCE_MS;
// - the operator's templates and automations (the seed): createCustomTemplate, listCustomTemplates, createAutomation, listAutomations.
// The one send function itself is src/adapters/messages.ts. listTemplates and getTemplate below serve
// this module's own routes.
import { ApiError } from '../../lib/errors';
import { TEMPLATES, type TemplateId } from './templates';
import { allTemplates, templateOut } from './views';

export { TEMPLATES, renderTemplate } from './templates';
export { loadRenderSource, variablesFor } from './variables';
export { sendTimeOf, PAST_TOLERANCE_MS } from './schedule';
export { processScheduledMessages, forTenant } from './process';
export { throttlePublicSend } from './throttle';
export { createCustomTemplate, listCustomTemplates } from './custom-templates';
export { createAutomation, listAutomations } from './automations';

export const listTemplates = () => ({ data: allTemplates() });

export async function getTemplate(templateId: string) {
  const t = TEMPLATES[templateId as TemplateId];
  if (!t) throw new ApiError('not_found', `No default template ${templateId}; see GET /communication/templates/defaults`);
  return templateOut(t);
}
