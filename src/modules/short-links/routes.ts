import { z } from '@hono/zod-openapi';
import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Short links'];

export const generateShortCode = route({
  method: 'post',
  path: '/communication/generate-short-code',
  operationId: 'generateShortCode',
  tags,
  summary: 'Make a short link (valid 30 days) for an http(s) URL',
  description: `Answers the code and \`shortUrl\` (\`{PUBLIC_BASE_URL}/s/{code}\`). Only absolute \`http:\` and \`https:\` URLs are accepted (400 otherwise). The link redirects for 30 days (\`expiresAt\`) and then answers 410; every redirect is counted (\`clicks\`, read with \`GET /communication/short-code/{code}\`).`,
  body: s.GenerateBody,
  ok: s.ShortLink,
});

export const getShortLink = route({
  method: 'get',
  path: '/communication/short-code/{code}',
  operationId: 'getShortLink',
  tags,
  summary: 'A short link of the operator with its click count',
  description: "Another operator's code answers 404.",
  params: s.CodeParams,
  ok: s.ShortLink,
  errors: [404],
});

export const followShortLink = route({
  method: 'get',
  path: '/s/{code}',
  operationId: 'followShortLink',
  tags,
  access: 'none',
  summary: 'Follow a short link (302 to the original URL)',
  description: `No authentication. 302 with \`Location\` set to the original URL while the link is valid (each redirect is counted); 410 \`expired\` after its 30 days; 404 for an unknown code. Answers carry \`Cache-Control: no-store\` so every click reaches the service.`,
  params: s.CodeParams,
  status: 302,
  produces: 'text/plain',
  ok: z.string(),
  errors: [404, 410],
  security: [],
});
