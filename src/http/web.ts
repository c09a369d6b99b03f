// The web app (web/, built by `npm install` into web/dist) served at `/`: its hashed assets with a long cache, and
// index.html for every other GET outside /api, so client-side routes (/companies/..., /cards/...) load the app on a
// deep link or a refresh. Unknown /api paths keep answering the API's 404 envelope.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.ts';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Registers the built assets (when web/dist exists) and answers what the root's not-found handler passes on: a GET
 * or HEAD outside /api gets index.html (503 text when the app is not built); anything else is left to the API's
 * 404 (the answer is false). Route families under /api keep their own 404s.
 */
export async function webApp(app: App, root = WEB_DIST) {
  const indexFile = path.join(root, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined;
  if (index) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      // Only the hashed build output is cached for long; index.html below never is. The header is set here alone
      // (the plugin's own would overwrite it after this function).
      cacheControl: false,
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? ASSET_CACHE : 'public, max-age=0');
      },
    });
  }
  return function page(request: FastifyRequest, reply: FastifyReply): boolean {
    const url = request.url.split('?')[0]!;
    // The API and the service's own endpoints (/metrics, where it is not served) keep their 404.
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    if (url === '/api' || url.startsWith('/api/') || url === '/metrics') return false;
    if (!index) {
      void reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm install` (it builds web/ into web/dist). The API is at /api/docs.');
      return true;
    }
    void reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
    return true;
  };
}
