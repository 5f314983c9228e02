// Slip contracts: templates (templates.ts) with `{{variables}}` (variables.ts), contracts generated
// for reservations as PDFs with embedded Unicode fonts (pdf.ts), sent for signature, signed with a
// signature record (contracts.ts). The tenant portal signs with `signContract(..., { token })`.
export { createTemplate, deleteTemplate, duplicateTemplate, getTemplate, listTemplates, templatesOfLocation, updateTemplate } from './templates';
export {
  contractPdf,
  contractsByStatus,
  contractsOfReservation,
  contractStats,
  generateContract,
  getContract,
  onReservationDeleted,
  regenerateSignedPdf,
  resendContract,
  sendContract,
  signContract,
  voidContract,
} from './contracts';
export { TEMPLATE_VARIABLES } from './variables';
