/**
 * Point of sale: the entry point other modules import. The logic lives next to it: catalog.ts
 * (products, variants, stock, fuel price), folders.ts, transactions.ts (sales and reads),
 * refunds.ts, settlement.ts (cash drawer and Z reports) and connect.ts (payment provider: terminal,
 * connected accounts).
 */
export { listItems, createItem, updateItem, deleteItem, changeStock, gasPrice } from './catalog';
export { listFolders, createFolder, updateFolder, deleteFolder, reorderFolders, duplicateFolders } from './folders';
export { createTransaction, listTransactions, getTransaction, transactionsOfRental, settleTransaction } from './transactions';
export { refundTransaction } from './refunds';
export { settleRange } from './settlement';
export {
  createTerminalPayment,
  createPosPaymentIntent,
  chargeCustomer,
  createAccount,
  accountLink,
  accountSession,
  dashboardLink,
  connectionToken,
} from './connect';
export { priceLines } from './pricing';
