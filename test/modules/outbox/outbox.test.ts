import { describe, it, expect } from 'vitest';
import { createOperator, get, post } from '../../harness';
import { checkSecurity } from '../../security';

describe('Message outbox', () => {
  it("lists the operator's messages only", async () => {
    const op = await createOperator();
    const u = await op.addUser();
    await post(`/userManagement/${u.userId}/resend-invitation`, {}, { key: op.adminKey });
    const r = await get('/outbox/messages?channel=email', { key: op.adminKey });
    expect(r.body.data.map((m: any) => m.to)).toContain(u.email);
    const other = await createOperator();
    expect((await get('/outbox/messages', { key: other.adminKey })).body.data.map((m: any) => m.to)).not.toContain(u.email);
    await checkSecurity(op, { method: 'GET', path: '/outbox/messages' });
  });
});
