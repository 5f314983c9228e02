// Waivers' face: what other modules may call. The logic lives beside it: views.ts, queries.ts,
// links.ts (waiver page, logo, PIN check), templates.ts, form.ts, sign.ts (signing), pdf.ts and
// signatures.ts (signed PDF, info and verification).
// - a participant's signed waiver, for the widget checkout and renter self-service: signatureInfo
// - templates for the seed: createTemplate
export { signatureInfo } from './signatures';
export { createTemplate } from './templates';
