import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Waivers'];

export const waiverUrl = route({
  method: 'get',
  path: '/waiverUrl',
  operationId: 'getWaiverUrl',
  tags,
  access: 'public',
  summary: "A location's waiver link and logo",
  query: s.LocationQuery,
  ok: z.object({ locationId: z.string(), locationName: z.string(), waiverUrl: z.string(), logoUrl: z.string().nullable() }),
  errors: [404],
  description: `No credentials needed. \`waiverUrl\` is the location's configured \`details.waiverUrl\`, otherwise its in-house waiver link
(\`/inHouseWaiver/waiver/templates/location/{locationId}\`); \`logoUrl\` comes from the location's \`details.logoUrl\` (or the operator's settings),
null when none is set.`,
});

export const waiverNumberValidation = route({
  method: 'get',
  path: '/waiverNumberValidation',
  operationId: 'validateWaiverNumber',
  tags,
  access: 'public',
  summary: 'Check a waiver number (PIN) at a location',
  query: s.WaiverNumberValidationQuery,
  errors: [404, 410],
  ok: z.object({ valid: z.boolean(), waiver: z.record(z.string(), z.unknown()) }),
  description: `No credentials needed. \`waiverNumber\` is the PIN the renter was given. 200 with the waiver details when exactly one pending waiver
of this location has it; 404 when none (unknown, completed, deleted, another location) or more than one; 410 \`expired\` when the PIN is older than 30
days.`,
});

export const logo = route({
  method: 'get',
  path: '/inHouseWaiver/logo/{locationId}',
  operationId: 'getWaiverLogo',
  tags,
  access: 'public',
  summary: 'Logo and names shown on the waiver page of a location',
  params: s.LocationParam,
  ok: z.object({ locationId: z.string(), locationName: z.string(), businessName: z.string(), logoUrl: z.string().nullable() }),
  errors: [404],
  description: 'No credentials needed. `logoUrl` is null when the operator set none.',
});

export const publicTemplates = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/templates/location/{locationId}',
  operationId: 'listPublicWaiverTemplates',
  tags,
  access: 'public',
  summary: "A location's waiver templates (renter-facing)",
  params: s.LocationParam,
  query: s.TrackingQuery,
  errors: [404],
  ok: z.object({
    locationId: z.string(),
    locationName: z.string(),
    businessName: z.string(),
    logoUrl: z.string().nullable(),
    prefill: z.object({ firstName: z.string().nullable(), lastName: z.string().nullable(), email: z.string().nullable() }),
    visitId: z.string(),
    data: z.array(s.Template),
  }),
  description: `No credentials needed. Every call records a visit of the waiver page with the tracking parameters \`fn\`, \`ln\`, \`em\` (first name,
last name, e-mail), the IP address and user agent; they come back as \`prefill\` for the form.`,
});

export const createTemplate = route({
  method: 'post',
  path: '/inHouseWaiver/waiver/template',
  operationId: 'createWaiverTemplate',
  tags,
  summary: 'Create a waiver template',
  body: s.CreateTemplateBody,
  ok: s.Template,
  status: 201,
  errors: [403, 404],
  description: `Sections are an array of kinds (\`type\`): \`text\` {title?, content}, \`checkbox\` {label, required (default true)} for
acknowledgements, \`field\` {label, fieldType text|textarea|email|phone|date|number|select, required (default false), options for select},
\`signature\` {label, required (default true), signer participant|guardian}. Each section may carry an \`id\` (the key of its value in \`formData\`
when signing); missing ids become \`<type>_<n>\`. At least one signature section; an unknown kind answers 400. A foreign \`customerId\` answers 403, a
location that is not yours 404. Needs the \`waivers\` permission (admins and managers have it).`,
});

export const getTemplate = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/template/{templateId}',
  operationId: 'getWaiverTemplate',
  tags,
  access: 'public',
  summary: 'A waiver template (renter-facing)',
  params: s.TemplateParam,
  ok: s.Template,
  errors: [404],
  description: 'No credentials needed: renters load the template to sign it. Deleted templates answer 404.',
});

export const updateTemplate = route({
  method: 'put',
  path: '/inHouseWaiver/waiver/template/{templateId}',
  operationId: 'updateWaiverTemplate',
  tags,
  summary: 'Update a waiver template',
  params: s.TemplateParam,
  body: s.UpdateTemplateBody,
  ok: s.Template,
  errors: [403, 404],
  description: `Replaces the fields given (\`sections\` as a whole). Another operator's template answers 403, an unknown or deleted one 404; a body
with nothing to change 400 \`no_changes\`. Waivers already signed keep the template as it was when they were signed.`,
});

export const deleteTemplate = route({
  method: 'delete',
  path: '/inHouseWaiver/waiver/template/{templateId}',
  operationId: 'deleteWaiverTemplate',
  tags,
  summary: 'Delete a waiver template',
  params: s.TemplateParam,
  ok: z.object({ success: z.boolean(), templateId: z.string(), deletedAt: z.string() }),
  errors: [403, 404],
  description: "Another operator's template answers 403. The template can no longer be read or signed; signed waivers keep their copy.",
});

export const listTemplates = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/templates',
  operationId: 'listWaiverTemplates',
  tags,
  summary: "The operator's waiver templates of a location",
  query: s.LocationQuery,
  ok: z.object({ locationId: z.string(), data: z.array(s.Template) }),
  errors: [404],
  description: 'Oldest first. A location that is not yours answers 404.',
});

export const sign = route({
  method: 'post',
  path: '/inHouseWaiver/waiver/sign',
  operationId: 'signWaiver',
  tags,
  access: 'public',
  summary: 'Sign a waiver: generates the signed PDF',
  body: s.SignBody,
  ok: s.SignResult,
  status: 201,
  errors: [404, 409, 410, 413],
  description: `No credentials needed. \`formData\` is checked against the template: required checkboxes must be true, fields must match their type,
signatures must be PNG or JPEG data URLs (at most 512 KiB each; the whole body at most 1 MiB, 413 beyond). A PDF is generated with the template text,
the ticked acknowledgements, the filled fields, the signature images, the signer's details, the time, IP address (the \`ipAddress\` given, else the
caller's), user agent and the SHA-256 of the signed content; it is stored and a signature record is written. With \`waiverNumber\` (its number or PIN;
404 unknown, 409 not pending, 410 expired) the waiver number is completed. With \`transactionId\` (or \`tid\`, or the waiver number's transaction)
every booking of that transaction gets the waiver in \`extendedData.signedWaivers\`. With an e-mail the renter of that e-mail gets the waiver URL (a
new renter is created when there is none). 404 unknown template; 409 \`already_exists\` for a \`signatureId\` already used. Nothing is written when
any step fails.`,
});

export const signedPdf = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/sign/{signatureId}',
  operationId: 'downloadSignedWaiver',
  tags,
  access: 'public',
  summary: 'The signed waiver PDF',
  params: s.SignatureParam,
  produces: 'application/pdf',
  errors: [404],
  description: 'No credentials needed: the signature id (unguessable) is the link the renter and the operator keep (`waivers_signed_urls`).',
});

export const signatureInfo = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/sign/info/{signatureId}',
  operationId: 'getWaiverSignature',
  tags,
  access: 'public',
  summary: 'The record of a signed waiver',
  params: s.SignatureParam,
  ok: s.SignatureInfo,
  errors: [404],
  description: 'Signer, filled form (signature images described by type, size and SHA-256), template, time, IP address, user agent and hashes.',
});

export const verify = route({
  method: 'get',
  path: '/inHouseWaiver/waiver/verify/{signatureId}',
  operationId: 'verifyWaiverSignature',
  tags,
  access: 'public',
  summary: 'Verify a signed waiver',
  params: s.SignatureParam,
  ok: s.VerifyResult,
  errors: [404],
  description: `Checks now that the PDF exists in storage and still has the SHA-256 recorded at signing (\`pdfIntact\`), whether the bookings of the
transaction hold the waiver (\`transactionUpdated\`), whether the waiver number was completed by it, and whether the renter has its URL.`,
});
