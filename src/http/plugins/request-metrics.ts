// The requests' own metrics: latency by route pattern (never the raw URL) and status class, and the chain outages the
// API met. Event streams are hijacked and not counted here.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../../metrics.ts';
import { mapError } from '../errors.ts';

export default fp<{ metrics: Metrics }>(
  async (app: FastifyInstance, { metrics }) => {
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    app.addHook('onError', (_request, _reply, err, done) => {
      if (mapError(err).code === 'CHAIN_UNAVAILABLE') metrics.countRpcError(err, 'http');
      done();
    });
  },
  { name: 'request-metrics' },
);
