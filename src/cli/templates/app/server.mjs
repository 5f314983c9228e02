#!/usr/bin/env node
// An embedded Berth app, scaffolded by `berth init`. It proves the handshake with the dashboard:
// 1. the dashboard loads GET /embed in an iframe; the page asks the host for a session token
//    (BerthApp.getSessionToken() from Berth's /sdk/app.js) and posts it to POST /api/handshake;
// 2. this server verifies the token against Berth's published keys (/.well-known/jwks.json):
//    signature, issuer (the API URL), audience (this app's id) and expiry;
// 3. it exchanges the token at POST /oauth/token for an access token of the installation and calls
//    the gateway (/api/v1/location) with it.
// GET /install and /callback install the app in the sandbox (authorization code with PKCE);
// POST /webhooks receives booking events and checks X-Service-Signature.
// No dependencies (Node 20). Configuration, never in files: PORT (3000), BERTH_API_URL,
// BERTH_CLIENT_SECRET (confidential apps; `berth link --create` keeps it in ~/.berth/credentials.json),
// BERTH_WEBHOOK_SECRET (the app's webhook signing secret).
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import { Buffer } from 'node:buffer';
import { createHash, createHmac, createPublicKey, randomBytes, timingSafeEqual, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('./berth.app.json', import.meta.url), 'utf8'));
const API = (process.env.BERTH_API_URL || process.env.SERVICE_API_URL || 'https://api.berth.example').replace(/\/+$/, '');
const PORT = Number(process.env.PORT || 3000);
const CLIENT_ID = manifest.appId;
const CLIENT_SECRET = process.env.BERTH_CLIENT_SECRET || '';
const WEBHOOK_SECRET = process.env.BERTH_WEBHOOK_SECRET || '';
const REDIRECT_URI = (manifest.urls && manifest.urls.redirect && manifest.urls.redirect[0]) || `http://localhost:${PORT}/callback`;

const b64url = (buf) => Buffer.from(buf).toString('base64url');
const json = (obj) => JSON.parse(Buffer.from(obj, 'base64url').toString('utf8'));

// ---- session tokens: verified against Berth's published keys ----

let jwks = { at: 0, keys: [] };
async function signingKey(kid) {
  if (Date.now() - jwks.at > 300_000 || !jwks.keys.some((k) => k.kid === kid)) {
    const r = await fetch(`${API}/.well-known/jwks.json`);
    if (!r.ok) throw new Error(`could not read ${API}/.well-known/jwks.json (HTTP ${r.status})`);
    jwks = { at: Date.now(), keys: (await r.json()).keys || [] };
  }
  const jwk = jwks.keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error('the token is signed with a key Berth does not publish');
  return jwk;
}

/** The claims of a valid Berth session token for this app; throws otherwise. */
export async function verifySessionToken(token) {
  const parts = String(token || '').split('.');
  if (parts.length !== 3) throw new Error('not a JWT');
  const header = json(parts[0]);
  const jwk = await signingKey(header.kid);
  const alg = jwk.alg || (jwk.kty === 'EC' ? 'ES256' : 'RS256');
  if (header.alg !== alg || (alg !== 'ES256' && alg !== 'RS256')) throw new Error(`unexpected algorithm ${header.alg}`);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  const ok = verify('sha256', signed, alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key, Buffer.from(parts[2], 'base64url'));
  if (!ok) throw new Error('bad signature');
  const claims = json(parts[1]);
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== API) throw new Error(`issuer ${claims.iss} is not ${API}`);
  if (!(Array.isArray(claims.aud) ? claims.aud : [claims.aud]).includes(CLIENT_ID)) throw new Error('the token is for another app');
  if (typeof claims.exp !== 'number' || claims.exp < now - 30) throw new Error('the token expired');
  if (typeof claims.nbf === 'number' && claims.nbf > now + 30) throw new Error('the token is not valid yet');
  return claims;
}

// ---- OAuth: token endpoint calls ----

async function tokenRequest(params) {
  const form = new URLSearchParams(params);
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (CLIENT_SECRET) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(CLIENT_ID)}:${encodeURIComponent(CLIENT_SECRET)}`).toString('base64')}`;
  else form.set('client_id', CLIENT_ID);
  const r = await fetch(`${API}/oauth/token`, { method: 'POST', headers, body: form });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(`token endpoint: ${body.error || r.status} ${body.error_description || body.message || ''}`.trim());
  return body;
}

/** The handshake: verify the session token, exchange it, call the gateway. */
async function handshake(sessionToken) {
  const claims = await verifySessionToken(sessionToken);
  const token = await tokenRequest({
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: sessionToken,
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
  });
  const r = await fetch(`${API}/api/v1/location`, { headers: { authorization: `Bearer ${token.access_token}`, accept: 'application/json' } });
  const body = await r.json().catch(() => ({}));
  return {
    ok: r.ok,
    operator: claims.customerId,
    user: claims.sub,
    installationId: claims.installationId,
    locationId: claims.locationId ?? null,
    scope: token.scope,
    gateway: { path: '/api/v1/location', status: r.status, locations: Array.isArray(body) ? body.length : Array.isArray(body.data) ? body.data.length : null },
  };
}

// ---- install in the sandbox: authorization code with PKCE ----

const pending = new Map();
function installUrl() {
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(16));
  pending.set(state, verifier);
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: manifest.scopes.join(' '),
    state,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  });
  return `${API}/oauth/authorize?${q}`;
}

// ---- webhooks: X-Service-Signature = hex HMAC-SHA256 of `{timestamp}.{body}` ----

function signatureOk(headers, raw) {
  const ts = String(headers['x-service-timestamp'] || '');
  const sig = String(headers['x-service-signature'] || '');
  if (!WEBHOOK_SECRET || !ts || !sig) return false;
  const seconds = Number(ts) > 1e12 ? Number(ts) / 1000 : Number(ts) || Date.parse(ts) / 1000;
  if (!Number.isFinite(seconds) || Math.abs(Date.now() / 1000 - seconds) > 300) return false;
  const want = Buffer.from(createHmac('sha256', WEBHOOK_SECRET).update(`${ts}.${raw}`).digest('hex'));
  const got = Buffer.from(sig.replace(/^(v1=|sha256=)/, ''));
  return got.length === want.length && timingSafeEqual(got, want);
}

const EMBED_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>${manifest.name}</title>
<style>body{font:15px system-ui,sans-serif;margin:24px}pre{background:#f4f4f4;padding:12px}</style></head>
<body><h1>${manifest.name}</h1><p id="status">Asking Berth for a session token...</p><pre id="out"></pre>
<script src="${API}/sdk/app.js"></script>
<script>
BerthApp.getSessionToken()
  .then(function (t) { return fetch('/api/handshake', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionToken: t.token }) }); })
  .then(function (r) { return r.json(); })
  .then(function (b) { document.getElementById('status').textContent = b.ok ? 'Handshake OK' : 'Handshake failed'; document.getElementById('out').textContent = JSON.stringify(b, null, 2); })
  .catch(function (e) { document.getElementById('status').textContent = 'Handshake failed: ' + e.message; });
</script></body></html>`;

function send(res, status, body, type = 'application/json') {
  res.writeHead(status, { 'content-type': type });
  res.end(type === 'application/json' ? JSON.stringify(body) : body);
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, `http://localhost:${PORT}`);
  let raw = '';
  for await (const chunk of req) raw += chunk;
  try {
    if (req.method === 'GET' && url.pathname === '/embed') return send(res, 200, EMBED_PAGE, 'text/html; charset=utf-8');
    if (req.method === 'POST' && url.pathname === '/api/handshake') {
      const { sessionToken } = JSON.parse(raw || '{}');
      try {
        return send(res, 200, await handshake(sessionToken));
      } catch (err) {
        return send(res, 401, { ok: false, error: err.message });
      }
    }
    if (req.method === 'GET' && url.pathname === '/install') {
      res.writeHead(302, { location: installUrl() });
      return res.end();
    }
    if (req.method === 'GET' && url.pathname === new URL(REDIRECT_URI).pathname) {
      const verifier = pending.get(url.searchParams.get('state'));
      if (!verifier || !url.searchParams.get('code')) return send(res, 400, { ok: false, error: url.searchParams.get('error') || 'unknown state' });
      pending.delete(url.searchParams.get('state'));
      const t = await tokenRequest({
        grant_type: 'authorization_code',
        code: url.searchParams.get('code'),
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      });
      return send(res, 200, { ok: true, installed: true, installationId: t.installation_id, customerId: t.customer_id, scope: t.scope });
    }
    if (req.method === 'POST' && url.pathname === '/webhooks') {
      if (!signatureOk(req.headers, raw)) return send(res, 401, { ok: false, error: 'bad signature' });
      const event = JSON.parse(raw);
      console.log(`event ${event.type} ${event.id}${event.test ? ' (test)' : ''}`);
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { ok: false, error: 'not found' });
  } catch (err) {
    return send(res, 500, { ok: false, error: err.message });
  }
});

server.listen(PORT, () => console.log(`${manifest.name} listening on http://localhost:${PORT} (Berth API ${API}, app ${CLIENT_ID || 'not linked yet'})`));
