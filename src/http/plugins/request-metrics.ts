// The requests' own metrics: latency by route pattern (never the raw URL) and status class, and the chain outages the
// API met. Event streams are hijacked and not counted here.
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../../metrics.ts';
import { mapError } from '../errors.ts';
import { addRouteHook } from './route-hooks.ts';

export default fp<{ metrics: Metrics }>(
  async (app: FastifyInstance, { metrics }) => {
    // Each route's own callback hook, closed over its pattern (route-hooks.ts); the app's hook counts the requests no
    // route matched.
    app.addHook('onRoute', (route) => {
      const url = route.url;
      const observe: onResponseHookHandler = (request, reply, done) => {
        metrics.observeRequest(request.method, url, reply.statusCode, reply.elapsedTime / 1000);
        done();
      };
      addRouteHook(route, 'onResponse', observe, 'last');
    });
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) metrics.observeRequest(request.method, undefined, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    app.addHook('onError', (_request, _reply, err, done) => {
      if (mapError(err).code === 'CHAIN_UNAVAILABLE') metrics.countRpcError(err, 'http');
      done();
    });
  },
  { name: 'request-metrics' },
);
