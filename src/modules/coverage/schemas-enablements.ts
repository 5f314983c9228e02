import { z } from '@hono/zod-openapi';
import { zId } from '../../lib/openapi';

// ---------------------------------------------------------------------------------------------
// Operator: offerings available, enablements

export const OperatorOffering = z
  .object({
    offeringId: z.string(),
    name: z.string(),
    supportEmail: z.string(),
    supportedCountries: z.array(z.string()),
    currencies: z.array(z.string()),
    status: z.enum(['draft', 'in_review', 'approved']),
    enabled: z.boolean().openapi({ description: "The underwriter's on/off switch" }),
    live: z.boolean().openapi({ description: 'Approved: real renters can be offered it' }),
    enabledLocationIds: z.array(z.string()),
  })
  .openapi('CoverageOfferingForOperator');
export const OperatorOfferingList = z.object({ data: z.array(OperatorOffering) }).openapi('CoverageOfferingCatalog');

export const EnablementBody = z
  .object({ locationId: zId('loc_01J0000000000000000000000'), offeringId: zId('cov_01J0000000000000000000000') })
  .openapi('EnableCoverage');
export const EnablementParams = z.object({ enablementId: zId('cen_01J0000000000000000000000') });
export const EnablementQuery = z.object({ locationId: zId().optional() });
export const Enablement = z
  .object({ enablementId: z.string(), locationId: z.string(), offeringId: z.string(), offeringName: z.string(), createdAt: z.string() })
  .openapi('CoverageEnablement');
export const EnablementList = z.object({ data: z.array(Enablement) }).openapi('CoverageEnablementList');
