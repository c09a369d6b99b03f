// What a request's input goes through besides its route's schema: JSON bodies parsed by Fastify's own safe parser
// with the exact bytes kept for the wallet signature's body hash, and text no column can store (NUL, unpaired
// surrogates) refused after the schemas and before any handler runs.
import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { rejectUnstorableText } from '../validation.ts';
import { addRouteHook } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks all of its input itself (the NFT routes' token id): no schema run, no unstorable-text check. */
    ownInput?: boolean;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    // A callback hook (no promise and microtask hop each), first of each route's own. Routes that attach their
    // validation error, or check their input themselves, answer it with their own message.
    const rejectUnstorable: preHandlerHookHandler = (request, _reply, done) => {
      if (request.validationError) return done();
      try {
        rejectUnstorableText({ params: request.params, query: request.query, body: request.body });
      } catch (err) {
        return done(err as Error);
      }
      done();
    };
    app.addHook('onRoute', (route) => {
      if (!route.config?.ownInput) addRouteHook(route, 'preHandler', rejectUnstorable, 'first');
    });

    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      if (body === '') return done(null, undefined);
      parseJson(request, body as string, done);
    });
  },
  { name: 'request-body' },
);
