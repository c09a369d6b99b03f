// Every request has an id: the caller's `x-request-id` when it is a plain token of at most 128 characters, else a
// fresh UUID (the app's genReqId). Every answer names it in `x-request-id`, and the process logs it with each line.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';
import fp from 'fastify-plugin';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request (Fastify's genReqId): the caller's own when it is a plain token, else a fresh one. */
export function requestIdOf(req: RawRequestDefaultExpression): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });
  },
  { name: 'request-id' },
);
