// A known path asked with a method none of its routes takes answers 405 METHOD_NOT_ALLOWED with `Allow` naming the
// methods it takes (RFC 9110 §15.5.6), in its family's envelope; a path no route takes stays 404. Every route is
// also entered in a router of its own as it is registered, so finding a path's methods is one lookup per method,
// only on the not-found path.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const noop = () => undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods the routes of `path` (no query) take; empty when no route takes the path. */
    allowedMethods(path: string): string[];
  }
}

export interface AllowedMethodsOptions {
  /** The router's longest path parameter, as the app's own router takes it. */
  maxParamLength: number;
}

/** Register before any route: records each route's method and path as it is registered. */
export default fp<AllowedMethodsOptions>(
  async (app: FastifyInstance, { maxParamLength }) => {
    const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength });
    app.addHook('onRoute', (route) => {
      for (const given of [route.method].flat()) {
        const method = METHODS.find((m) => m === given.toUpperCase());
        if (method === undefined || router.hasRoute(method, route.url)) continue;
        router.on(method, route.url, noop);
      }
    });
    app.decorate('allowedMethods', (path: string) => {
      const allowed: string[] = METHODS.filter((m) => router.find(m, path) !== null);
      // Fastify answers HEAD on every GET route.
      if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.splice(1, 0, 'HEAD');
      return allowed;
    });
  },
  { name: 'allowed-methods' },
);
