// GET /api/v1/events (registered by v1.ts): the platform event stream (docs/api/events.md). The route checks the key and the query, takes
// a slot under the connection caps, then hands the response to the event hub, which writes the stream.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import {
  parseCompanyRefs,
  parseEventTypes,
  parseLastEventId,
  resolveCompanyRefs,
} from '../../domain/events/filters.ts';
import type { EventSink, StreamHandle } from '../../domain/events/hub.ts';
import { requireApiKey } from '../auth/index.ts';
import { v1Errors } from '../schemas/common.ts';
import { EventStreamResponse, EventsHeaders, EventsQuery } from '../schemas/events.ts';
import type { App, RouteOptions } from '../types.ts';

/** The stream's response headers (docs/api/events.md "Protocol"). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export default async function eventRoutes(app: App, { container }: RouteOptions) {
  const hub = container.events;
  const open = new Set<StreamHandle>();
  let closing = false;
  // Streams never end by themselves, and a server closing waits for its connections: end them first.
  app.addHook('preClose', async () => {
    closing = true;
    hub.end(open);
    open.clear();
  });

  app.get(
    '/events',
    {
      preValidation: requireApiKey(container, { allowQuery: true, openWhenUnconfigured: true }),
      schema: {
        tags: ['events'],
        summary: 'The platform event stream (Server-Sent Events), filtered by company and type, resumable',
        security: [{ apiKey: [] }, { apiKeyQuery: [] }, {}],
        querystring: EventsQuery,
        headers: EventsHeaders,
        response: { 200: EventStreamResponse, ...v1Errors },
      },
    },
    async (request, reply) => {
      const types = parseEventTypes(request.query.types);
      const companyRefs = parseCompanyRefs(request.query.companies);
      const lastEventId = parseLastEventId(request.headers['last-event-id'], request.query.lastEventId);
      const admission = hub.admit(request.apiKeyId ? `key:${request.apiKeyId}` : `ip:${request.ip}`);
      let companyIds: Set<string> | undefined;
      try {
        if (companyRefs) companyIds = await resolveCompanyRefs(container.database.db, companyRefs);
        await hub.start();
      } catch (err) {
        hub.release(admission);
        throw err;
      }
      const res = reply.raw;
      reply.hijack();
      if (res.destroyed || !res.socket || res.socket.destroyed) {
        hub.release(admission); // the client left while its filters were being resolved
        return;
      }
      // Headers set so far (request id, CORS, rate limit) are kept.
      res.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), ...STREAM_HEADERS });
      res.socket?.setNoDelay(true);
      res.socket?.setKeepAlive(true, 60_000);
      const opened = Date.now();
      const stream = hub.open(admission, { sink: responseSink(res), companyIds, types, lastEventId });
      open.add(stream);
      res.once('close', () => {
        stream.close();
        open.delete(stream);
        request.log.debug({ streamMs: Date.now() - opened }, 'event stream closed');
      });
      // Opened while the server began to close: end it too, the client reconnects elsewhere.
      if (closing) hub.end([stream]);
    },
  );
}

function responseSink(res: ServerResponse): EventSink {
  return {
    write: (chunk) => {
      res.write(chunk);
    },
    get buffered() {
      return res.writableLength;
    },
    cork: () => res.cork(),
    uncork: () => res.uncork(),
    end: () => {
      // The last chunk, then the connection: a keep-alive socket left open would hold the server's close.
      res.end(() => res.socket?.destroySoon());
    },
    destroy: () => {
      res.destroy();
    },
    drainedTo: (bytes, timeoutMs) =>
      new Promise((resolve) => {
        const started = Date.now();
        const check = setInterval(() => {
          if (res.destroyed || Date.now() - started > timeoutMs) finish(false);
          else if (res.writableLength <= bytes) finish(true);
        }, 20);
        const finish = (ok: boolean) => {
          clearInterval(check);
          resolve(ok);
        };
      }),
  };
}
