import { describe, it, expect } from 'vitest';
import { buildApp } from '../../../src/app';
import { modules } from '../../../src/modules';
import { coverOf, GATEWAY_ROUTES } from '../../../src/modules/gateway/service';
import { SCOPES } from '../../../src/modules/partners/types';

/** Every route the app serves, as `METHOD /path/{param}`. */
function appRoutes(): string[] {
  const app = buildApp(modules);
  const out = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    out.add(`${r.method} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
  }
  return [...out].sort();
}

describe('Gateway route table', () => {
  it('maps every route of the API to a scope or denies it (a new route must be placed in src/modules/gateway/routes-table.ts)', () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(150);
    const unplaced = routes.filter((r) => {
      const [method, path] = r.split(' ');
      return !coverOf(method, path);
    });
    expect(unplaced, `Routes neither mapped nor denied in the gateway table:\n${unplaced.join('\n')}`).toEqual([]);
  });

  it('does not cover a route it has never seen (the check above would flag it)', () => {
    expect(coverOf('GET', '/brand-new-family')).toBeUndefined();
    expect(coverOf('POST', '/renters/{id}/brand-new-action')).toBeUndefined();
    expect(coverOf('GET', '/customer/brand-new')).toBeDefined();
  });

  it('uses only scopes of the catalogue', () => {
    for (const [key, rule] of Object.entries(GATEWAY_ROUTES)) {
      if (typeof rule === 'string') expect(Object.keys(SCOPES), key).toContain(rule);
    }
  });

  it('denies account and billing, staff administration, integration configuration and file uploads', () => {
    const denied = (m: string, p: string) => {
      const c = coverOf(m, p);
      return c !== undefined && typeof c.rule === 'object';
    };
    for (const [m, p] of [
      ['GET', '/customer'],
      ['POST', '/customer/cancel-subscription'],
      ['POST', '/api-keys'],
      ['GET', '/userManagement'],
      ['POST', '/staffSchedule'],
      ['POST', '/webhooks'],
      ['POST', '/channel-connections'],
      ['POST', '/inventory/photo/{inventory_id}'],
      ['POST', '/inventory/video/{inventory_id}'],
      ['DELETE', '/apps/installations/{installationId}'],
    ]) {
      expect(denied(m, p), `${m} ${p}`).toBe(true);
    }
  });
});
