/**
 * The spec's Notation: every request body is JSON with `Content-Type: application/json`. Every
 * operation the document declares with a JSON body answers 415 `unsupported_media_type` in the
 * envelope for a text/plain or a form-encoded body (each family, each credential scheme), and the
 * upload routes declare `multipart/form-data` instead and accept it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createOperator, expectError, get, type Caller, type Operator } from '../harness';
import { ch, partnerKey, platform } from '../modules/channel/factories';
import { createItem, form, pngBytes } from '../modules/inventory/helpers';
import { memberPortalSession } from '../modules/memberships/factories';
import { PLATFORM, bearer, registerPartner } from '../modules/partners/helpers';
import { tenantSession } from '../modules/slip-portal/factories';
import { hmacHex, offering } from '../modules/coverage/helpers';

interface Operation {
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, unknown> };
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
}

let doc: Doc;
let op: Operator;
let channelKey: string;
let portalToken: string;
let memberSession: string;
let partnerToken: string;
let tenant: string;
let underwriter: { offeringId: string; secret: string };

const entries = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, o]) => ({ path, method: method.toUpperCase(), op: o })));

/** The credentials an operation's security asks for (none when it may be called anonymously). */
async function callerOf(o: Operation, rawBody: string): Promise<Caller> {
  const schemes = (o.security ?? []).flatMap((s) => Object.keys(s));
  const anonymous = (o.security ?? []).some((s) => Object.keys(s).length === 0) || (o.security ?? []).length === 0;
  if (schemes.includes('ChannelKey')) return ch(channelKey);
  if (schemes.includes('PortalToken')) return ch(portalToken);
  if (schemes.includes('MemberPortalSession')) return { headers: { authorization: `Bearer ${memberSession}` } };
  if (schemes.includes('PartnerToken')) return bearer(partnerToken);
  if (schemes.includes('PlatformKey')) return PLATFORM;
  if (schemes.includes('TenantPortalSession')) return { token: tenant };
  // Signed with the offering's secret over the raw body, whatever its type: the signature is valid, only the media type is wrong.
  if (schemes.includes('UnderwriterSignature')) {
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = await hmacHex(underwriter.secret, `${ts}.${rawBody}`);
    return { headers: { 'x-service-offering': underwriter.offeringId, 'x-service-timestamp': ts, 'x-service-signature': signature } };
  }
  if (anonymous) return {};
  return { key: op.adminKey };
}

/** A concrete path: parameters filled with a placeholder (the media type is checked before the inputs). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x_contract');

beforeAll(async () => {
  doc = (await get('/openapi.json')).body as Doc;
  op = await createOperator();
  channelKey = (await partnerKey(op)).key;
  portalToken = (await platform()).portalToken;
  memberSession = await memberPortalSession(op);
  partnerToken = (await registerPartner()).token;
  tenant = (await tenantSession(op)).token;
  underwriter = await offering();
});

describe('request bodies are JSON (415 otherwise)', () => {
  it('answers 415 for text/plain and form bodies on every JSON operation, in every family', async () => {
    const json = entries().filter((e) => e.op.requestBody?.content['application/json']);
    const families = new Set(json.flatMap((e) => e.op.tags));
    expect(json.length).toBeGreaterThan(50);
    expect(families.size).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const e of json) {
      for (const [type, body] of [
        ['text/plain', '{"name":"x"}'],
        ['application/x-www-form-urlencoded', 'name=x&address=y'],
      ]) {
        // The OAuth endpoints also declare form bodies (RFC 6749): only the types an operation does not declare answer 415.
        if (e.op.requestBody!.content[type]) continue;
        const caller = await callerOf(e.op, body);
        const r = await api(e.method, concrete(e.path), { ...caller, rawBody: body, headers: { ...(caller.headers ?? {}), 'content-type': type } });
        // The OCTO family answers in OCTO's error shape (every error 400, `{error, errorMessage}`).
        if (e.op.tags.includes('OCTO')) {
          if (r.status !== 400 || r.body?.error !== 'BAD_REQUEST' || !/Content-Type/.test(r.body?.errorMessage ?? ''))
            wrong.push(`${e.op.operationId} (${e.method} ${e.path}) with ${type}: ${r.status} ${r.text.slice(0, 120)}`);
          continue;
        }
        if (r.status !== 415 || r.body?.error !== 'unsupported_media_type' || typeof r.body?.requestId !== 'string') {
          wrong.push(`${e.op.operationId} (${e.method} ${e.path}) with ${type}: ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Two requests per JSON operation of the whole API, one after the other.
  }, 120_000);

  it('names the content type it got and takes application/json with parameters', async () => {
    const r = await api('POST', '/location', { key: op.adminKey, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectError(r, 415, 'unsupported_media_type');
    expect(r.body.message).toContain('application/x-www-form-urlencoded');
    const ok = await api('POST', '/location', {
      key: op.adminKey,
      rawBody: JSON.stringify({ name: '' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectError(ok, 400, 'validation_failed');
  });

  it('declares multipart/form-data on the upload routes, which take it', async () => {
    const uploads = entries().filter((e) => e.op.requestBody && !e.op.requestBody.content['application/json']);
    expect(uploads.map((e) => e.op.operationId).sort()).toEqual([
      'addHaulServicePhotos',
      'uploadBookingDocument',
      'uploadInventoryPhoto',
      'uploadInventoryVideo',
      'uploadSlipPortalFile',
    ]);
    for (const e of uploads) expect(Object.keys(e.op.requestBody!.content)).toEqual(['multipart/form-data']);
    const item = await createItem(op);
    const r = await api('POST', `/inventory/photo/${item.inventory_id}`, { key: op.adminKey, rawBody: form(pngBytes()) });
    expect(r.status, r.text).toBe(200);
  });
});
