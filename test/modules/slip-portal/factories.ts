/** A tenant-portal session for other tests (the content-type and contract suites): a subscribed marina, a unit, a reservation, a link. */
import { expect } from 'vitest';
import { post, type Operator } from '../../harness';
import { makeSlip, reserve, renter } from '../marina/helpers';
import { mailsTo } from '../marina/marina2-helpers';

export async function tenantSession(op: Operator): Promise<{ token: string; reservationId: string }> {
  const sub = await post('/slip-subscription/create-checkout', { quota: 5 }, { key: op.adminKey });
  expect([201, 409], sub.text).toContain(sub.status);
  const slip = await makeSlip(op);
  const who = renter('tenant');
  const r = await reserve(op, slip.id, { renter: who });
  expect(r.status, r.text).toBe(201);
  expect((await post('/slip-portal/invite', { reservationId: r.body.id }, { key: op.adminKey })).status).toBe(200);
  const link = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(who.email, 'slip_portal.magic_link'))[0].body)![1];
  const s = await post('/slip-portal/session', { token: link });
  expect(s.status, s.text).toBe(201);
  return { token: s.body.sessionToken as string, reservationId: r.body.id };
}
