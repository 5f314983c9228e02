// Slip contracts: templates (templates.ts) with `{{variables}}` (variables.ts), contracts generated
// for reservations as PDFs with embedded Unicode fonts (pdf.ts, contracts.ts), sent for signature,
// signed with a signature record, voided (signing.ts), read and counted (queries.ts, views.ts). The
// tenant portal signs with `signContract(..., { token })`.
export { createTemplate, deleteTemplate, duplicateTemplate, getTemplate, listTemplates, templatesOfLocation, updateTemplate } from './templates';
export { generateContract, onReservationDeleted } from './contracts';
export { regenerateSignedPdf, resendContract, sendContract, signContract, voidContract } from './signing';
export { contractPdf, contractsByStatus, contractsOfReservation, contractStats, getContract } from './queries';
export { TEMPLATE_VARIABLES } from './variables';
