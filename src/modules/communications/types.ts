// Public vocabulary of communications: response schemas other modules reuse.
export { MessageResult, ProcessResult } from './schemas';
export { TEMPLATE_IDS, type TemplateId } from './templates';
