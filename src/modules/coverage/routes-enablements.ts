import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';
import { tags } from './routes-docs';

// ---------------------------------------------------------------------------------------------
// Operator: catalog and enablements

export const listAvailable = route({
  method: 'get',
  path: '/coverage/offerings',
  operationId: 'listAvailableCoverageOfferings',
  tags,
  summary: 'Offerings this operator can enable, with the locations where it offers them',
  description: 'Approved offerings; the sandbox operator also sees drafts and offerings in review (usable there at once).',
  ok: s.OperatorOfferingList,
  errors: [401, 403, 429],
});
export const listEnablements = route({
  method: 'get',
  path: '/coverage/enablements',
  operationId: 'listCoverageEnablements',
  tags,
  summary: 'Where this operator offers which coverage',
  query: s.EnablementQuery,
  ok: s.EnablementList,
  errors: [401, 403, 429],
  description: 'Optionally for one `locationId`.',
});
export const enable = route({
  method: 'post',
  path: '/coverage/enablements',
  operationId: 'enableCoverageOffering',
  tags,
  access: 'admin',
  summary: 'Offer a coverage at a location (admins)',
  description: `The offering must be approved (any status for the sandbox operator), else 404. Twice: 409 \`already_exists\`. Renters at that
location are quoted when its country is licensed and its currency priced (the location's country: \`details.country\`, or the country named at
the end of its address).`,
  body: s.EnablementBody,
  ok: s.Enablement,
  status: 201,
  errors: [404, 409],
});
export const disable = route({
  method: 'delete',
  path: '/coverage/enablements/{enablementId}',
  operationId: 'disableCoverageOffering',
  tags,
  access: 'admin',
  summary: 'Stop offering a coverage at a location (admins)',
  description: `No new quotes there, and the underwriter's message requests about its policies there are refused from now on. Policies sold stay
in force.`,
  params: s.EnablementParams,
  ok: z.object({ success: z.boolean(), enablementId: z.string() }).openapi('CoverageDisabled'),
  errors: [404],
});
