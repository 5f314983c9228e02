#!/usr/bin/env node
// The reference underwriter (examples/reference-underwriter/src/underwriter.ts) as its own Node process, with its
// OWN copy of the offering's signing secret: `npm run underwriter -- --secret cvs_... [--port 8790]`. Berth's
// calls reach it over HTTP and it verifies every signature itself, exactly as a remote underwriter does, so a
// call signed with another secret is refused (401) — unlike the in-process default, which shares Berth's copy.
//
// Options (or environment): --port (PORT, default 8790; 0 picks a free one), --host (HOST, default 127.0.0.1),
// --secret (SIGNING_SECRET; repeat it, or SIGNING_SECRET_PREVIOUS, during a rotation overlap), --behaviour
// (BEHAVIOUR: always-on misbehaviour flags, see underwriter.ts). Prints "listening on <url>" when ready and one
// line per request ("401 POST /quote bad signature"). Point an offering at it: under `wrangler dev` with
// DEV_PARTNER_LOOPBACK="on", a partner may set `baseUrl` to http://127.0.0.1:<port>.
/* global Headers, Request */
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function options() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      secret: { type: 'string', multiple: true },
      behaviour: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('npm run underwriter -- --secret <signing secret> [--secret <previous>] [--port 8790] [--host 127.0.0.1] [--behaviour flags]');
    process.exit(0);
  }
  const secrets = (values.secret?.length ? values.secret : [process.env.SIGNING_SECRET, process.env.SIGNING_SECRET_PREVIOUS])
    .map((s) => (s ?? '').trim())
    .filter(Boolean);
  if (!secrets.length) {
    console.error('Give the offering signing secret: --secret <secret> or SIGNING_SECRET (shown once when the offering was created or rotated).');
    process.exit(2);
  }
  const port = Number(values.port ?? process.env.PORT ?? 8790);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number, not ${values.port ?? process.env.PORT}`);
    process.exit(2);
  }
  return { secrets, port, host: values.host ?? process.env.HOST ?? '127.0.0.1', behaviour: values.behaviour ?? process.env.BEHAVIOUR };
}

/** The Web-platform underwriter module, compiled from its TypeScript source in memory. */
async function loadUnderwriter() {
  const out = await build({
    entryPoints: [join(root, 'examples', 'reference-underwriter', 'src', 'underwriter.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  return await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

async function toRequest(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
}

const { secrets, port, host, behaviour } = options();
const { createReferenceUnderwriter } = await loadUnderwriter();
const uw = createReferenceUnderwriter({ secrets, behaviour, store: new Map() });

const server = createServer((req, res) => {
  void (async () => {
    let status = 500;
    let text = JSON.stringify({ error: 'internal error' });
    try {
      const answer = await uw.fetch(await toRequest(req));
      status = answer.status;
      text = await answer.text();
    } catch (err) {
      console.error(err);
    }
    let why = '';
    if (status === 401) {
      try {
        why = ` ${JSON.parse(text).message ?? ''}`;
      } catch {}
    }
    console.log(`${status} ${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}${why}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  })();
});

server.listen(port, host, () => {
  const { port: bound } = server.address();
  console.log(`reference underwriter listening on http://${host}:${bound}`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
