/**
 * Embedded coverage (spec document 3): underwriters' offerings (partner accounts), payout accounts,
 * review by platform staff, operators' enablements per location, quotes and answers at checkout,
 * the checkout with coverage, policies (bind, reschedule, cancel, void), flags to the operator and
 * the underwriter's message requests. Other modules (the widget) use the checkout and quote
 * functions below.
 */
export {
  createOffering,
  deleteOffering,
  getOfferingOfPartner,
  listOfferings,
  offeringCalls,
  readiness,
  rotateSecret,
  submitOffering,
  updateOffering,
} from './offerings';
export { connectPayoutAccount, getPayoutAccount } from './payout';
export { approveOffering, getForReview, listForReview, rejectOffering } from './review';
export { disableOffering, enableOffering, listAvailableOfferings, listEnablements } from './enablements';
export { acceptPrice, getQuoteView, quoteForOperator, quoteForWidget, submitAnswers, locationCountry, applyDepositEffect } from './quotes';
export { checkoutWithCoverage, publicCheckout } from './checkout';
export { bindPolicy, retryBind } from './bind';
export { onBookingCancelled, voidPolicy, deliverCancel } from './cancel';
export { onBookingRescheduled, deliverAmendment } from './amendments';
export { flagList, resolveFlag } from './flags';
export { policyDetail, policyList, publicCoverage } from './policies';
export { requestMessage, underwriterAuth } from './messages';
export { sweepCoverage, nextCoverageDue, purgeCoverageCalls, onBindMessage, onCancelMessage, onRescheduleMessage } from './jobs';
export { sanitiseSchema, validateAnswers, hasNestedQuantifier } from './questions';
export { ensureSandboxCoverage, type SandboxCoverage } from './sandbox';
