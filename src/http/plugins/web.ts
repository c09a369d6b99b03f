// The web app (web/, built by `npm install` into web/dist) served at `/`: its hashed assets with a long cache, and
// index.html for every other GET outside /api, so client-side routes (/companies/..., /cards/...) load the app on a
// deep link or a refresh; a path that is none of the app's pages (WEB_PAGES) gets it with 404, and the app says
// "Page not found". Unknown /api paths keep answering the API's 404 envelope.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { isWebPage } from '@ai-economy/shared/pages';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { installErrorHandlers } from '../errors.ts';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** index.html as served: its stylesheets inlined, their CSP hashes, and its compressed copies. */
export interface IndexPage {
  html: string;
  styleHashes: string[];
  br: Buffer;
  gzip: Buffer;
}

/**
 * index.html with the build's stylesheets (`<link rel="stylesheet" href="/assets/x.css">`) written into it as
 * `<style>` elements, so the app shell paints with the HTML alone: on a slow mobile network a stylesheet is one more
 * round trip (400 ms on "slow 3G") before anything shows. The content security policy allows exactly these
 * elements by their SHA-256 (`'sha256-…'`), and still no other inline style.
 */
export function indexPage(source: string, root: string): IndexPage {
  const styleHashes: string[] = [];
  const html = source.replace(
    /<link rel="stylesheet"[^>]*? href="\/(assets\/[^"]+\.css)"[^>]*>/g,
    (link, file: string) => {
      const css = readFileSync(path.join(root, file), 'utf8');
      if (/<\/style/i.test(css)) return link;
      styleHashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
      return `<style>${css}</style>`;
    },
  );
  const body = Buffer.from(html);
  return { html, styleHashes, br: brotliCompressSync(body), gzip: gzipSync(body) };
}

/** The service's policy (set on every answer) with the inlined stylesheets allowed. */
function withStyleHashes(policy: string, hashes: string[]): string {
  if (hashes.length === 0) return policy;
  return policy.replace(/(^|;\s*)style-src 'self'(?=;|$)/, `$1style-src 'self' ${hashes.join(' ')}`);
}

/**
 * Registers the built assets (when web/dist exists) and answers what the root's not-found handler passes on: a GET
 * or HEAD outside /api gets index.html, with 404 when the path is none of the app's pages (503 text when the app is
 * not built); anything else is left to the API's 404 (the answer is false). Route families under /api keep their
 * own 404s.
 */
async function webPages(app: FastifyInstance, root: string) {
  const indexFile = path.join(root, 'index.html');
  const index = existsSync(indexFile) ? indexPage(readFileSync(indexFile, 'utf8'), root) : undefined;
  let policy: [string, string] | undefined;
  if (index) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes brotli and gzip copies of its scripts and styles (web/vite.config.ts): sent to a browser
      // that accepts them (Vary: Accept-Encoding, below, so a shared cache keeps the copies apart).
      preCompressed: true,
      // Only the hashed build output is cached for long; index.html below never is. The header is set here alone
      // (the plugin's own would overwrite it after this function).
      cacheControl: false,
      setHeaders: (res, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? ASSET_CACHE : 'public, max-age=0');
        res.setHeader('vary', 'accept-encoding');
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
    const base = String(reply.getHeader('content-security-policy') ?? '');
    if (policy?.[0] !== base) policy = [base, withStyleHashes(base, index.styleHashes)];
    if (base) reply.header('content-security-policy', policy[1]);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (!isWebPage(url)) reply.status(404);
    const accepts = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepts)) void reply.header('content-encoding', 'br').send(index.br);
    else if (/\bgzip\b/.test(accepts)) void reply.header('content-encoding', 'gzip').send(index.gzip);
    else void reply.send(index.html);
    return true;
  };
}

/**
 * The web app's assets, and the root's answers to what no route family takes: its pages for every GET outside /api
 * (deep links included), and the internal API's error envelope for the rest.
 */
export default fp<{ root?: string }>(
  async (app: FastifyInstance, { root = WEB_DIST }) => {
    installErrorHandlers(app, 'internal', await webPages(app, root));
  },
  { name: 'web' },
);
