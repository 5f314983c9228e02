// Cart recovery service: the entry point other code imports. carts.ts holds the public and operator
// use cases and the analytics; contact.ts the recovery e-mail and the processor.
export {
  upsertCart,
  getPublicCart,
  completeCart,
  markCompleted,
  cartAnalytics,
  listLocationCarts,
  listCartsWithStats,
  itemsNeedingContact,
  markContacted,
  deleteOwnedCart,
  deleteCart,
  DEFAULT_CONTACT_DELAY_MINUTES,
  type PublicCreateInput,
} from './carts';
export { sendRecoveryEmail, processCartRecovery, nextCartDue, processNow, recoveryUrlOf, type RecoveryEmailInput } from './contact';
