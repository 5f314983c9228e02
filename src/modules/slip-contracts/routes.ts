import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Slip contracts'];
const PERM = 'Needs the `marina` permission (admins and managers have it).';
const STATUS_DOC = `Contract statuses: \`generated\` (PDF made) → \`sent\` (e-mailed for signature with a link valid \`expiresInDays\`) → \`signed\`; any → \`voided\`. The reservation's \`contract.status\` follows: pending, sent, signed (none after a void). A contract follows the reservation's terms: when its dates, rate type, unit, rate per foot, billable length or total change (PUT, transfer, recalculate-total; not charges added under it, such as haul services or metered utilities), the reservation's \`contract.status\` goes back to pending at once and, moments later (through the queue), the contract is voided ("the reservation's terms changed", its signature record kept) and a new one is generated from the same template with the new terms; if the old one had been sent or signed, the new one is sent to the same address for signature, the e-mail saying the terms changed.`;
const PDF_DOC = `PDFs are built with pdf-lib and embed DejaVu Sans (Latin, Greek and Cyrillic), so names such as "Søren Ødegård", "Zoë", "Łukasz" or "Дмитрий" print as written; they are stored in R2 and served by GET /slip-contracts/{id}/pdf.`;

export const listTemplates = route({
  method: 'get',
  path: '/slip-contracts/templates',
  operationId: 'listSlipContractTemplates',
  tags,
  summary: 'Contract templates (of a location)',
  description:
    'With `locationId`: the templates of that location and those for every location. Active ones unless `includeInactive=true`; defaults first, then by name.',
  query: s.TemplateQuery,
  ok: s.TemplateList,
  errors: [404],
});

export const createTemplate = route({
  method: 'post',
  path: '/slip-contracts/templates',
  operationId: 'createSlipContractTemplate',
  tags,
  status: 201,
  summary: 'Create a contract template',
  description: `\`title\` and \`body\` are text with \`{{variable}}\` placeholders (GET /slip-contracts/templates/variables); a placeholder that is neither a variable nor in \`defaults\` answers 400. \`locationId\` null: every location. \`isDefault\` makes it the default of its scope (the previous default stops being one). ${PERM}`,
  body: s.CreateTemplateBody,
  ok: s.Template,
  errors: [403, 404],
});

export const variables = route({
  method: 'get',
  path: '/slip-contracts/templates/variables',
  operationId: 'listSlipContractVariables',
  tags,
  summary: 'Variables a contract template can use',
  description: `Every \`{{name}}\` a template's title and body can hold (renter, vessel, slip, reservation, marina and settings values), with what it holds and an example; \`syntax\` explains the placeholders. Names not listed come from the template's \`defaults\` or the \`values\` given when generating a contract.`,
  ok: s.Variables,
});

export const getTemplate = route({
  method: 'get',
  path: '/slip-contracts/templates/{id}',
  operationId: 'getSlipContractTemplate',
  tags,
  summary: 'A contract template',
  description: "With its `variablesUsed` (the placeholders of its title and body) and `defaults`. Another operator's template answers 404.",
  params: s.IdParams,
  ok: s.Template,
  errors: [404],
});

export const updateTemplate = route({
  method: 'put',
  path: '/slip-contracts/templates/{id}',
  operationId: 'updateSlipContractTemplate',
  tags,
  summary: 'Update a contract template',
  description: `Partial. Contracts already generated keep their text. ${PERM}`,
  params: s.IdParams,
  body: s.UpdateTemplateBody,
  ok: s.Template,
  errors: [403, 404],
});

export const deleteTemplate = route({
  method: 'delete',
  path: '/slip-contracts/templates/{id}',
  operationId: 'deleteSlipContractTemplate',
  tags,
  summary: 'Delete a contract template',
  description: `Contracts generated from it keep their own copy. ${PERM}`,
  params: s.IdParams,
  ok: s.TemplateDeleted,
  errors: [403, 404],
});

export const duplicateTemplate = route({
  method: 'post',
  path: '/slip-contracts/templates/{id}/duplicate',
  operationId: 'duplicateSlipContractTemplate',
  tags,
  status: 201,
  summary: 'Duplicate a contract template (defaults included)',
  description: `A copy with the same title, body, rate types and default values, named \`name\` (default: "… (copy)"), never the default. ${PERM}`,
  params: s.IdParams,
  body: s.DuplicateBody,
  ok: s.Template,
  errors: [403, 404],
});

export const locationTemplates = route({
  method: 'get',
  path: '/slip-settings/{locationId}/templates',
  operationId: 'listSlipSettingsTemplates',
  tags: ['Slip settings'],
  summary: 'Contract templates available at a location',
  description: `Active templates of the location and those for every location; \`isLocationDefault\` marks the one contracts use when no template is named (the settings' \`defaultContractTemplateId\`, else the location's default template, else the operator-wide default).`,
  params: s.LocationParams,
  ok: s.LocationTemplates,
  errors: [404],
});

export const byReservation = route({
  method: 'get',
  path: '/slip-contracts/reservation/{reservationId}',
  operationId: 'listSlipReservationContracts',
  tags,
  summary: 'Contracts of a reservation (newest first)',
  description: STATUS_DOC,
  params: s.ReservationParams,
  ok: s.ReservationContracts,
  errors: [404],
});

export const pending = route({
  method: 'get',
  path: '/slip-contracts/pending',
  operationId: 'listPendingSlipContracts',
  tags,
  summary: 'Contracts waiting for a signature (generated or sent)',
  description: `With a summary of each reservation; \`locationId\` filter; \`limit\`/\`offset\`, \`total\`. ${STATUS_DOC}`,
  query: s.ListQuery,
  ok: s.ContractList,
  errors: [404],
});

export const signed = route({
  method: 'get',
  path: '/slip-contracts/signed',
  operationId: 'listSignedSlipContracts',
  tags,
  summary: 'Signed contracts',
  description: 'With a summary of each reservation; `locationId` filter; `limit`/`offset`, `total`.',
  query: s.ListQuery,
  ok: s.ContractList,
  errors: [404],
});

export const stats = route({
  method: 'get',
  path: '/slip-contracts/stats',
  operationId: 'getSlipContractStats',
  tags,
  summary: 'Contract statistics',
  description: 'Counts by status, signed in the last 30 days, average hours from sending to signature, live reservations without a contract.',
  query: s.ListQuery.pick({ locationId: true }),
  ok: s.Stats,
  errors: [404],
});

export const generate = route({
  method: 'post',
  path: '/slip-contracts/generate',
  operationId: 'generateSlipContract',
  tags,
  status: 201,
  summary: 'Generate the contract of a reservation (PDF)',
  description: `Renders \`templateId\` (default: the location's default template) with the reservation's variables, the template's defaults and \`values\`, builds the PDF and stores it with its SHA-256. A previous unsigned contract of the reservation is voided (superseded); a signed one answers 409 (void it first), unless the reservation's terms changed since it was signed (its \`contract.status\` went back to pending): then it is superseded too. \`missingVariables\` names the placeholders left empty. ${PDF_DOC} ${STATUS_DOC} ${PERM}`,
  body: s.GenerateBody,
  ok: s.GenerateResult,
  errors: [403, 404, 409],
});

export const send = route({
  method: 'post',
  path: '/slip-contracts/send',
  operationId: 'sendSlipContract',
  tags,
  summary: 'Send a contract for signature',
  description: `E-mails the renter (or \`email\`) a signing link to the tenant portal (\`/slip-portal/reservations/{reservationId}/contract?contractId=…&token=…\`); the token is single-purpose, stored hashed and valid \`expiresInDays\` (default 14). Sending again replaces the link. ${STATUS_DOC} ${PERM}`,
  body: s.SendBody,
  ok: s.Contract,
  errors: [403, 404, 409],
});

export const sign = route({
  method: 'post',
  path: '/slip-contracts/sign',
  operationId: 'signSlipContract',
  tags,
  summary: 'Record the signature of a contract',
  description: `For signing at the office (on a tablet): \`signerName\`, \`signature\` (the typed name, or a drawn PNG/JPEG as a data URL), \`agreed: true\`. The stored PDF must still hash to the SHA-256 taken when it was generated; the signed PDF adds a signature page with the signature, signer, time, the caller's IP address and user agent, and that SHA-256. The reservation's contract becomes signed. Signed or voided contracts answer 409. ${PDF_DOC} ${PERM}`,
  body: s.SignBody,
  ok: s.Contract,
  errors: [403, 404, 409],
});

export const resend = route({
  method: 'post',
  path: '/slip-contracts/resend',
  operationId: 'resendSlipContract',
  tags,
  summary: 'Send the signing link again (a new link, 14 days)',
  description: `To the address it was sent to. Only generated or sent contracts (409 otherwise). ${PERM}`,
  body: s.ResendBody,
  ok: s.Contract,
  errors: [403, 404, 409],
});

export const voidContract = route({
  method: 'post',
  path: '/slip-contracts/void',
  operationId: 'voidSlipContract',
  tags,
  summary: 'Void a contract',
  description: `Any status; the signing link stops working; the reservation's contract state goes back to none when it was its current contract. Voiding again changes nothing. ${PERM}`,
  body: s.VoidBody,
  ok: s.Contract,
  errors: [403, 404],
});

export const regeneratePdf = route({
  method: 'post',
  path: '/slip-contracts/regenerate-pdf',
  operationId: 'regenerateSlipContractPdf',
  tags,
  summary: 'Rebuild the PDF of a signed contract',
  description: `From the stored original and the signature record (after a layout or font fix); the signature data and the document SHA-256 stay as signed. Only signed contracts (409). ${PDF_DOC} ${PERM}`,
  body: s.ContractIdBody,
  ok: s.Contract,
  errors: [403, 404, 409],
});

export const getContract = route({
  method: 'get',
  path: '/slip-contracts/{id}',
  operationId: 'getSlipContract',
  tags,
  summary: 'A contract with its signature record',
  description: `The rendered \`title\` and \`body\`, the \`variables\` they were filled with, the SHA-256 of the generated PDF, the sending (\`sentTo\`, \`sendCount\`, \`signTokenExpiresAt\`) and, once signed, \`signature\` (signer, time, IP address, user agent, typed or drawn, staff or renter); null before. ${STATUS_DOC} Another operator's contract answers 404.`,
  params: s.IdParams,
  ok: s.Contract,
  errors: [404],
});

export const getPdf = route({
  method: 'get',
  path: '/slip-contracts/{id}/pdf',
  operationId: 'getSlipContractPdf',
  tags,
  summary: 'The PDF of a contract (the signed one once signed)',
  description: PDF_DOC,
  params: s.IdParams,
  produces: 'application/pdf',
  errors: [404],
});
