import { DUNNING_RETRY_DAYS } from './periods';

// Tags and description text shared by the route files (routes-*.ts).

export const tags = ['Memberships'];

export const CID = [
  "Every call of this family needs `customerId` (query for reads, body for writes): 400 when absent, 403 when it is not the caller's.",
  'Money is in integer **cents**.',
].join(' ');

export const BILLING = `**Renewals** run on the billing job (every 5 minutes): at \`nextBillingDate\` the price is charged with the card on file (one charge per membership and period, even when runs overlap), the period advances and the paid invoice is e-mailed. **Dunning**: a declined renewal leaves an \`open\` invoice and is retried ${DUNNING_RETRY_DAYS.join(', ')} days after the due date (the member keeps the benefits and gets an e-mail with a portal link to change the card); after the last failed retry the membership is \`past_due\` (no benefits) until the invoice is paid (new card in the portal, or POST /memberships/{membershipId}/reactivate). Every charge fires \`payment.completed\`, every refund \`payment.refunded\`.`;
