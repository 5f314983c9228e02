// Waivers service: the entry point other code imports. The logic lives in the files next to it:
// views.ts (template and signed-waiver views, page links), queries.ts (locations, logos,
// templates and signatures read), links.ts (waiver page, logo, PIN check), templates.ts
// (templates), form.ts (checks of a signed form), sign.ts (signing), pdf.ts (the signed PDF) and
// signatures.ts (signed PDF, info and verification).

export { locationLogo, waiverNumberValidation, waiverUrl } from './links';
export { listTemplates } from './queries';
export { signatureLink, templateOut, templatesLink } from './views';
export { createTemplate, deleteTemplate, getTemplate, normalizeSections, publicTemplatesOfLocation, updateTemplate } from './templates';
export { canonicalJson } from './form';
export { signWaiver, type SignInput } from './sign';
export { signatureInfo, signedPdf, verifySignature } from './signatures';
