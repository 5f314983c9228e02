import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Accounting'];
const own = `\`businessId\` is the operator's customerId (another operator's answers 403).`;

export const connect = route({
  method: 'get',
  path: '/auth/acct/connect',
  operationId: 'connectAccounting',
  tags,
  access: 'admin',
  summary: "Start connecting the accounting system: the provider's authorization URL",
  query: s.BusinessQuery,
  ok: s.ConnectResult,
  errors: [403, 503],
  description: `Admins only. ${own} The URL carries a signed \`state\` that expires after 10 minutes. Offline (development) the simulated provider
approves at once and the URL leads straight to the callback.`,
});
export const callback = route({
  method: 'get',
  path: '/auth/acct/callback',
  operationId: 'completeAccountingConnection',
  tags,
  access: 'none',
  security: [],
  summary: 'OAuth callback of the accounting provider: 302 to the dashboard with the status',
  query: s.CallbackQuery,
  status: 302,
  produces: 'text/plain',
  errors: [400],
  description: `Redirects (302) to \`{FRONTEND_URL}/settings/integrations?integration=accounting&status=connected\` (or \`denied\` when the user
declined, \`error\` when the provider refused the code). A missing, forged or expired \`state\` answers 400; so does a missing \`code\` without
\`error\`. The tokens are stored encrypted (AES-GCM).`,
});
export const status = route({
  method: 'get',
  path: '/acct/integration-status',
  operationId: 'getAccountingStatus',
  tags,
  summary: 'The accounting link: connection, business, bank account, GL mappings',
  query: s.BusinessQuery,
  ok: s.Link,
  errors: [403],
  description: `${own} \`readyToExport\` is true once the business, the bank account and every GL mapping are set.`,
});
export const disconnect = route({
  method: 'delete',
  path: '/acct/disconnect',
  operationId: 'disconnectAccounting',
  tags,
  access: 'admin',
  summary: 'Disconnect the accounting system (GL mappings are kept)',
  body: s.BusinessBody,
  ok: s.Disconnected,
  errors: [403],
  description: `Admins only. Revokes the tokens at the provider and forgets the business and bank account; the GL mappings stay for a later
reconnection. Idempotent.`,
});
export const chart = route({
  method: 'get',
  path: '/acct/chart-of-accounts',
  operationId: 'listAccountingAccounts',
  tags,
  summary: 'The chart of accounts of the selected business',
  query: s.BusinessQuery,
  ok: s.Chart,
  errors: [403, 503],
  description: `${own} 400 \`accounting_not_connected\` or \`accounting_not_ready\` (no business selected).`,
});
export const businesses = route({
  method: 'get',
  path: '/acct/businesses',
  operationId: 'listAccountingBusinesses',
  description: `\`businessId\` is the operator's customerId (another operator's answers 403). 400 \`accounting_not_connected\` before connecting;
\`selected\` marks the chosen business.`,
  tags,
  summary: 'The businesses of the connected accounting account',
  query: s.BusinessQuery,
  ok: s.BusinessList,
  errors: [403, 503],
});
export const selectBusiness = route({
  method: 'put',
  path: '/acct/select-business',
  operationId: 'selectAccountingBusiness',
  tags,
  access: 'admin',
  summary: 'Choose the business the journals go to',
  body: s.SelectBusinessBody,
  ok: s.Link,
  errors: [403, 503],
  description: 'Must be one of GET /acct/businesses (400 otherwise); choosing another business clears the bank account.',
});
export const bankAccount = route({
  method: 'put',
  path: '/acct/bank-account',
  operationId: 'setAccountingBankAccount',
  tags,
  access: 'admin',
  summary: 'Choose the bank account money moves through',
  body: s.BankAccountBody,
  ok: s.Link,
  errors: [403, 503],
  description: 'A bank or cash account of the selected business (400 otherwise).',
});
export const getMappings = route({
  method: 'get',
  path: '/acct/gl-mappings',
  operationId: 'getAccountingGlMappings',
  tags,
  summary: 'GL mappings: which account each journal line goes to',
  query: s.BusinessQuery,
  ok: s.Mappings,
  errors: [403],
  description: `The GL keys of the daily journal (sales, discounts, sales_tax, tips, accounts_receivable, bank, channel_receivable,
gift_card_liability, customer_credit, deposits), each with its account, and those still \`missing\` (\`bank\` defaults to the chosen bank account).`,
});
export const setMappings = route({
  method: 'put',
  path: '/acct/gl-mappings',
  operationId: 'setAccountingGlMappings',
  tags,
  access: 'admin',
  summary: 'Replace the GL mappings',
  body: s.GlMappingsBody,
  ok: s.Mappings,
  errors: [403],
  description: 'Unknown GL keys answer 400; when connected, every account must be in the chart of accounts of the selected business.',
});
export const createExport = route({
  method: 'post',
  path: '/acct/journal-exports',
  operationId: 'createAccountingExport',
  tags,
  summary: "Export a location's journal of one finished day (idempotent per location and date)",
  status: 201,
  body: s.ExportBody,
  ok: s.ExportCreated,
  errors: [403, 404],
  description: `Builds the day's journal from the ledger (sales, discounts, tax, tips, payments, refunds, deposits kept, gift-card liability),
checks that debits equal credits, and queues it in the operator's queue, which sends it at the provider's pace (the answer comes before the
send: \`status\` is \`queued\`, then \`sent\`). The same location and date answer the same export (\`created: false\`) and are never sent twice; a
failed one is rebuilt and queued again. A day without entries is \`empty\` and sends nothing. The daily job exports yesterday's journal of every
location at 03:00 UTC. 400 when not connected or when a GL account the journal needs is not mapped.`,
});
export const listExports = route({
  method: 'get',
  path: '/acct/journal-exports',
  operationId: 'listAccountingExports',
  description: `\`businessId\` is the operator's customerId. Filters by \`locationId\` and \`date\`; \`queue\` is the state of the operator's sending queue
(pending exports, requests spent in the current window, next attempt).`,
  tags,
  summary: 'Journal exports, newest day first, with the state of the sending queue',
  query: s.ExportQuery,
  ok: s.ExportList,
  errors: [403],
});
