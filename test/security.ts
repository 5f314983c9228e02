import { expect } from 'vitest';
import { api, createOperator, expectError, type Operator } from './harness';

export interface RouteCase {
  method: string;
  /** Path for the owner of the record. */
  path: string;
  body?: unknown;
  /** Answer expected for another operator calling the same path with the same body (404 for records, 403 for a foreign customerId). */
  otherStatus?: 404 | 403;
  /** Admin-only routes: a staff user of the same operator gets 403. */
  adminOnly?: boolean;
}

let other: Operator | undefined;
export async function otherOperator(): Promise<Operator> {
  other ??= await createOperator({ name: 'Intruder Co' });
  return other;
}

/**
 * The shared security checks every route gets: no credentials 401, invalid credentials 401,
 * another operator's credentials 404/403, and non-admin 403 where admin is needed.
 */
export async function checkSecurity(owner: Operator, rc: RouteCase) {
  const anon = await api(rc.method, rc.path, { body: rc.body });
  expectError(anon, 401, 'unauthenticated');
  const bad = await api(rc.method, rc.path, { body: rc.body, key: 'brk_not_a_real_key_000000000000000000000' });
  expectError(bad, 401, 'unauthenticated');
  if (rc.otherStatus) {
    const intruder = await otherOperator();
    const r = await api(rc.method, rc.path, { body: rc.body, key: intruder.adminKey });
    expect(r.status, `${rc.method} ${rc.path} by another operator: ${r.text}`).toBe(rc.otherStatus);
  }
  if (rc.adminOnly) {
    const staff = await owner.addUser({ role: 'staff' });
    const r = await api(rc.method, rc.path, { body: rc.body, key: staff.key });
    expectError(r, 403, 'forbidden');
  }
}
