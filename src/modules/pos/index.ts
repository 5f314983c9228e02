import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.listItems, async (c, { query }) => c.json(await svc.listItems(ctxOf(c), query)));
mount(router, r.createItem, async (c, { body }) => c.json(await svc.createItem(ctxOf(c), body), 201));
mount(router, r.updateItem, async (c, { body }) => c.json(await svc.updateItem(ctxOf(c), body)));
mount(router, r.changeStock, async (c, { body }) => c.json(await svc.changeStock(ctxOf(c), body)));
mount(router, r.deleteItem, async (c, { body }) => c.json(await svc.deleteItem(ctxOf(c), body)));
mount(router, r.gasPrice, async (c, { query }) => c.json(await svc.gasPrice(ctxOf(c), query)));
mount(router, r.changeTillStock, async (c, { body }) => c.json(await svc.changeStock(ctxOf(c), body)));
mount(router, r.listFolders, async (c, { query }) => c.json(await svc.listFolders(ctxOf(c), query)));
mount(router, r.createFolder, async (c, { body }) => c.json(await svc.createFolder(ctxOf(c), body), 201));
mount(router, r.updateFolder, async (c, { body }) => c.json(await svc.updateFolder(ctxOf(c), body)));
mount(router, r.deleteFolder, async (c, { body }) => c.json(await svc.deleteFolder(ctxOf(c), body)));
mount(router, r.reorderFolders, async (c, { body }) => c.json(await svc.reorderFolders(ctxOf(c), body)));
mount(router, r.duplicateFolders, async (c, { body }) => c.json(await svc.duplicateFolders(ctxOf(c), body)));
mount(router, r.listTransactions, async (c, { query }) => c.json(await svc.listTransactions(ctxOf(c), query)));
mount(router, r.createTransaction, async (c, { body }) => c.json(await svc.createTransaction(ctxOf(c), body), 201));
mount(router, r.getTransaction, async (c, { params }) => c.json(await svc.getTransaction(ctxOf(c), params.transactionId)));
mount(router, r.transactionsOfRental, async (c, { params }) => c.json(await svc.transactionsOfRental(ctxOf(c), params.rentalId)));
mount(router, r.refund, async (c, { body }) => c.json(await svc.refundTransaction(ctxOf(c), body)));
mount(router, r.settle, async (c, { query }) => c.json(await svc.settleTransaction(ctxOf(c), query.transactionId)));
mount(router, r.settleRange, async (c, { body }) => c.json(await svc.settleRange(ctxOf(c), body)));
mount(router, r.createPayment, async (c, { body }) => c.json(await svc.createTerminalPayment(ctxOf(c), body)));
mount(router, r.accountLink, async (c, { body }) => c.json(await svc.accountLink(ctxOf(c), body)));
mount(router, r.chargeCustomer, async (c, { body }) => c.json(await svc.chargeCustomer(ctxOf(c), body)));
mount(router, r.createAccount, async (c, { body }) => c.json(await svc.createAccount(ctxOf(c), body)));
mount(router, r.accountSession, async (c, { body }) => c.json(await svc.accountSession(ctxOf(c), body)));
mount(router, r.dashboardLink, async (c, { body }) => c.json(await svc.dashboardLink(ctxOf(c), body)));
mount(router, r.connectionToken, async (c) => c.json(await svc.connectionToken(ctxOf(c))));
mount(router, r.createPaymentIntent, async (c, { body }) => c.json(await svc.createPosPaymentIntent(ctxOf(c), body)));

export default router;
