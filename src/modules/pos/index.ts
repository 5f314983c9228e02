import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { changeStock, createItem, deleteItem, gasPrice, listItems, updateItem } from './catalog';
import {
  accountLink,
  accountSession,
  chargeCustomer,
  connectionToken,
  createAccount,
  createPosPaymentIntent,
  createTerminalPayment,
  dashboardLink,
} from './connect';
import { createFolder, deleteFolder, duplicateFolders, listFolders, reorderFolders, updateFolder } from './folders';
import { refundTransaction } from './refunds';
import { settleRange } from './settlement';
import { createTransaction, getTransaction, listTransactions, settleTransaction, transactionsOfRental } from './transactions';

const router = createRouter();

mount(router, r.listItems, async (c, { query }) => c.json(await listItems(ctxOf(c), query)));
mount(router, r.createItem, async (c, { body }) => c.json(await createItem(ctxOf(c), body), 201));
mount(router, r.updateItem, async (c, { body }) => c.json(await updateItem(ctxOf(c), body)));
mount(router, r.changeStock, async (c, { body }) => c.json(await changeStock(ctxOf(c), body)));
mount(router, r.deleteItem, async (c, { body }) => c.json(await deleteItem(ctxOf(c), body)));
mount(router, r.gasPrice, async (c, { query }) => c.json(await gasPrice(ctxOf(c), query)));
mount(router, r.changeTillStock, async (c, { body }) => c.json(await changeStock(ctxOf(c), body)));
mount(router, r.listFolders, async (c, { query }) => c.json(await listFolders(ctxOf(c), query)));
mount(router, r.createFolder, async (c, { body }) => c.json(await createFolder(ctxOf(c), body), 201));
mount(router, r.updateFolder, async (c, { body }) => c.json(await updateFolder(ctxOf(c), body)));
mount(router, r.deleteFolder, async (c, { body }) => c.json(await deleteFolder(ctxOf(c), body)));
mount(router, r.reorderFolders, async (c, { body }) => c.json(await reorderFolders(ctxOf(c), body)));
mount(router, r.duplicateFolders, async (c, { body }) => c.json(await duplicateFolders(ctxOf(c), body)));
mount(router, r.listTransactions, async (c, { query }) => c.json(await listTransactions(ctxOf(c), query)));
mount(router, r.createTransaction, async (c, { body }) => c.json(await createTransaction(ctxOf(c), body), 201));
mount(router, r.getTransaction, async (c, { params }) => c.json(await getTransaction(ctxOf(c), params.transactionId)));
mount(router, r.transactionsOfRental, async (c, { params }) => c.json(await transactionsOfRental(ctxOf(c), params.rentalId)));
mount(router, r.refund, async (c, { body }) => c.json(await refundTransaction(ctxOf(c), body)));
mount(router, r.settle, async (c, { query }) => c.json(await settleTransaction(ctxOf(c), query.transactionId)));
mount(router, r.settleRange, async (c, { body }) => c.json(await settleRange(ctxOf(c), body)));
mount(router, r.createPayment, async (c, { body }) => c.json(await createTerminalPayment(ctxOf(c), body)));
mount(router, r.accountLink, async (c, { body }) => c.json(await accountLink(ctxOf(c), body)));
mount(router, r.chargeCustomer, async (c, { body }) => c.json(await chargeCustomer(ctxOf(c), body)));
mount(router, r.createAccount, async (c, { body }) => c.json(await createAccount(ctxOf(c), body)));
mount(router, r.accountSession, async (c, { body }) => c.json(await accountSession(ctxOf(c), body)));
mount(router, r.dashboardLink, async (c, { body }) => c.json(await dashboardLink(ctxOf(c), body)));
mount(router, r.connectionToken, async (c) => c.json(await connectionToken(ctxOf(c))));
mount(router, r.createPaymentIntent, async (c, { body }) => c.json(await createPosPaymentIntent(ctxOf(c), body)));

export default router;
