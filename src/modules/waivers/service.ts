// Waivers service: the entry point other code imports. The logic lives in the files next to it:
// links.ts (locations, links and logos), templates.ts (templates), form.ts (checks of a signed
// form), sign.ts (signing) and signatures.ts (signed PDF, info and verification).

export { locationLogo, signatureLink, templatesLink, waiverNumberValidation, waiverUrl } from './links';
export {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  normalizeSections,
  publicTemplatesOfLocation,
  templateOut,
  updateTemplate,
} from './templates';
export { canonicalJson } from './form';
export { signWaiver, type SignInput } from './sign';
export { signatureInfo, signedPdf, verifySignature } from './signatures';
