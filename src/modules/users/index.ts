import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listAuditLogs, listUsers } from './queries';
import {
  acceptTerms,
  addPushToken,
  createUser,
  deleteUser,
  exportMyData,
  findPhoneNumbers,
  getMe,
  purchasePhoneNumber,
  removePushToken,
  resendInvitation,
  termsStatus,
  updateMe,
  updateUser,
} from './service';

const router = createRouter();

mount(router, r.getMe, async (c) => c.json(await getMe(ctxOf(c))));
mount(router, r.createUser, async (c, { body }) => c.json(await createUser(ctxOf(c), body), 201));
mount(router, r.updateMe, async (c, { body }) => c.json(await updateMe(ctxOf(c), body)));
mount(router, r.deleteUser, async (c, { body }) => c.json(await deleteUser(ctxOf(c), body.id)));
mount(router, r.acceptTerms, async (c) => c.json(await acceptTerms(ctxOf(c))));
mount(router, r.termsStatus, async (c) => c.json(await termsStatus(ctxOf(c))));
mount(router, r.exportMyData, async (c) => {
  const pdf = await exportMyData(ctxOf(c));
  return new Response(pdf, { headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="berth-my-data.pdf"' } });
});
mount(router, r.auditLogs, async (c, { params, query }) => c.json(await listAuditLogs(ctxOf(c), params.userId, query)));
mount(router, r.addPushToken, async (c, { body }) => c.json(await addPushToken(ctxOf(c), body.token)));
mount(router, r.removePushToken, async (c, { body }) => c.json(await removePushToken(ctxOf(c), body.token)));
mount(router, r.listUsers, async (c, { query }) => c.json(await listUsers(ctxOf(c), query)));
mount(router, r.createManagedUser, async (c, { body }) => c.json(await createUser(ctxOf(c), { ...body, role: body.userRole }), 201));
mount(router, r.updateManagedUser, async (c, { body }) => c.json(await updateUser(ctxOf(c), body)));
mount(router, r.deleteManagedUser, async (c, { body }) => c.json(await deleteUser(ctxOf(c), body.id)));
mount(router, r.findNumbers, async (c, { body }) => c.json(await findPhoneNumbers(ctxOf(c), body)));
mount(router, r.purchaseNumber, async (c, { body }) => c.json(await purchasePhoneNumber(ctxOf(c), body)));
mount(router, r.resendInvitation, async (c, { params }) => c.json(await resendInvitation(ctxOf(c), params.id)));

export default router;
