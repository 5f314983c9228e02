import { defineModule } from '../../lib/module';
import router from './index';
import { gatewayErrors } from './errors';
import { catalogueMarkdown } from './catalogue';

export default defineModule({
  name: 'gateway',
  router,
  errors: gatewayErrors.table,
  tags: [
    {
      name: 'Partner gateway',
      description: `Installed apps call \`/api/v1/<documented path>\` (for example \`GET /api/v1/renters\`, \`GET /api/v1/inventory\`, \`POST /api/v1/geofences\`,
\`POST /api/v1/calls/partner/calls\`) with \`Authorization: Bearer <access token>\` from POST /oauth/token. The same handlers as the core API answer,
acting as the operator user who authorized the app, so tenancy and permissions are the operator's: another operator's ids answer 404.
Every call is scope-checked: a missing scope answers 403 \`insufficient_scope\` with \`requiredScope\`. 600 requests per minute per installation,
with \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; over the limit 429 with \`Retry-After\`. The catalogue is also served at
GET /oauth/scopes. The token is bound to one operator: wherever a core route takes the operator (\`customer_id\` or \`customerId\`, in the query or the JSON body)
it defaults to the token's operator (the \`customer_id\` of the token response), so an app need not send it; a value it does send must be that operator's (403 otherwise).
\`GET /api/v1/inventory\` is \`/inventory/customer\` and \`GET /api/v1/schedule\` is \`/schedule/schedules/paginated\`.

${catalogueMarkdown()}`,
    },
  ],
});
