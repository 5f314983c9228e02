import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.getMe, async (c) => c.json(await svc.getMe(ctxOf(c))));
mount(router, r.createUser, async (c, { body }) => c.json(await svc.createUser(ctxOf(c), body), 201));
mount(router, r.updateMe, async (c, { body }) => c.json(await svc.updateMe(ctxOf(c), body)));
mount(router, r.deleteUser, async (c, { body }) => c.json(await svc.deleteUser(ctxOf(c), body.id)));
mount(router, r.acceptTerms, async (c) => c.json(await svc.acceptTerms(ctxOf(c))));
mount(router, r.termsStatus, async (c) => c.json(await svc.termsStatus(ctxOf(c))));
mount(router, r.exportMyData, async (c) => {
  const pdf = await svc.exportMyData(ctxOf(c));
  return new Response(pdf, { headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="berth-my-data.pdf"' } });
});
mount(router, r.auditLogs, async (c, { params, query }) => c.json(await svc.listAuditLogs(ctxOf(c), params.userId, query)));
mount(router, r.addPushToken, async (c, { body }) => c.json(await svc.addPushToken(ctxOf(c), body.token)));
mount(router, r.removePushToken, async (c, { body }) => c.json(await svc.removePushToken(ctxOf(c), body.token)));
mount(router, r.listUsers, async (c, { query }) => c.json(await svc.listUsers(ctxOf(c), query)));
mount(router, r.createManagedUser, async (c, { body }) => c.json(await svc.createUser(ctxOf(c), { ...body, role: body.userRole }), 201));
mount(router, r.updateManagedUser, async (c, { body }) => c.json(await svc.updateUser(ctxOf(c), body)));
mount(router, r.deleteManagedUser, async (c, { body }) => c.json(await svc.deleteUser(ctxOf(c), body.id)));
mount(router, r.findNumbers, async (c, { body }) => c.json(await svc.findPhoneNumbers(ctxOf(c), body)));
mount(router, r.purchaseNumber, async (c, { body }) => c.json(await svc.purchasePhoneNumber(ctxOf(c), body)));
mount(router, r.resendInvitation, async (c, { params }) => c.json(await svc.resendInvitation(ctxOf(c), params.id)));

export default router;
