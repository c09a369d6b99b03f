// The web app (web/, built by `npm install` into web/dist) served at `/`: its hashed assets with a long cache, and
// index.html for every other GET outside /api, so client-side routes (/companies/..., /cards/...) load the app on a
// deep link or a refresh. Unknown /api paths keep answering the API's 404 envelope.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { notFound } from '../errors.ts';
import type { App } from './types.ts';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const ASSET_CACHE = 'public, max-age=31536000, immutable';

export default async function webApp(app: App, { root = WEB_DIST }: { root?: string } = {}) {
  const indexFile = path.join(root, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      // Only the hashed build output is cached for long; index.html below never is.
      setHeaders: (reply, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', ASSET_CACHE);
      },
    });
  }
  const index = built ? readFileSync(indexFile, 'utf8') : undefined;
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const url = request.url.split('?')[0]!;
    if (url === '/api' || url.startsWith('/api/')) throw notFound(`No route GET ${url}`);
    if (!index) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm install` (it builds web/ into web/dist). The API is at /api/docs.');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  });
}
