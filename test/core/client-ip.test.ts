/**
 * Which client address Berth trusts (lib/ip-limit.ts): `cf-connecting-ip` only where Cloudflare's
 * edge sets it (staging, production) or the test runtime plays that edge; under `wrangler dev` a
 * client-sent value is ignored, so rotating it cannot rotate a per-IP limit (the started-service
 * check in test/service/run.mjs shows it on `npm start`).
 */
import { describe, expect, it } from 'vitest';
import { LOCAL_CLIENT_IP, trustedClientIp } from '../../src/lib/ip-limit';

describe('the trusted client address', () => {
  it('ignores a client-sent cf-connecting-ip under wrangler dev: every caller is the one local address', () => {
    for (const header of ['203.0.113.7', '198.51.100.1', undefined, null, ''])
      expect(trustedClientIp({ ENVIRONMENT: 'development' }, header)).toBe(LOCAL_CLIENT_IP);
  });

  it("trusts the edge's cf-connecting-ip in staging and production (and the test runtime), trimmed and bounded", () => {
    for (const ENVIRONMENT of ['staging', 'production', 'test'] as const) {
      expect(trustedClientIp({ ENVIRONMENT }, ' 203.0.113.7 ')).toBe('203.0.113.7');
      expect(trustedClientIp({ ENVIRONMENT }, '2001:db8::1')).toBe('2001:db8::1');
      // Without the header, or with a value no edge sends, the caller shares one bucket.
      expect(trustedClientIp({ ENVIRONMENT }, undefined)).toBe('unknown');
      expect(trustedClientIp({ ENVIRONMENT }, 'x'.repeat(65))).toBe('unknown');
    }
  });
});
