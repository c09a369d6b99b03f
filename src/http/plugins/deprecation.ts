// Deprecated routes (docs/api/README.md "Stability"): a route whose config holds `deprecated: { since, sunset, link }`
// answers every request, errors included, with
//   Deprecation: @<unix seconds>                (RFC 9745: since when it is deprecated)
//   Sunset: <HTTP-date>                         (RFC 8594: when it may stop answering)
//   Link: <link>; rel="deprecation"             (RFC 9745: the notice, in docs/api/changelog.md)
// and its OpenAPI operation is marked `deprecated: true` with the dates in its description (and the headers listed by
// exactOpenApi, src/http/openapi.ts). One flag, so the document and the answers cannot disagree.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from './route-hooks.ts';

export interface Deprecation {
  /** When it was deprecated: an ISO 8601 date or time (UTC). */
  since: string;
  /** When it may be removed: an ISO 8601 date or time, at least DEPRECATION_MIN_DAYS after `since`. */
  sunset: string;
  /** The notice: an absolute URL or a path of this service (docs/api/changelog.md's entry). */
  link: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is deprecated: see src/http/plugins/deprecation.ts. */
    deprecated?: Deprecation;
  }
}

/** The shortest time between deprecating something of v1 and removing it (docs/api/README.md "Stability"). */
export const DEPRECATION_MIN_DAYS = 90;
const DAY_MS = 86_400_000;

/** The three headers of a deprecation; throws (at start-up) for dates that break the policy. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const since = Date.parse(d.since);
  const sunset = Date.parse(d.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset)) {
    throw new Error(`deprecation: since "${d.since}" and sunset "${d.sunset}" must be ISO 8601 dates`);
  }
  if (sunset - since < DEPRECATION_MIN_DAYS * DAY_MS) {
    throw new Error(
      `deprecation: the sunset (${d.sunset}) must be at least ${DEPRECATION_MIN_DAYS} days after ${d.since}`,
    );
  }
  if (!d.link || /[<>\s]/.test(d.link)) throw new Error(`deprecation: "${d.link}" is not a link`);
  return {
    deprecation: `@${Math.floor(since / 1000)}`,
    sunset: new Date(sunset).toUTCString(),
    link: `<${d.link}>; rel="deprecation"`,
  };
}

/** Adds `value` to the reply's Link header, after the links already there (RFC 8288 allows several). */
export function appendLink(reply: Pick<FastifyReply, 'getHeader' | 'header'>, value: string) {
  const prior = reply.getHeader('link');
  reply.header('link', prior ? `${String(prior)}, ${value}` : value);
}

type Hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/**
 * Watches the routes registered after it (register it before @fastify/swagger is registered, so the operation is marked
 * before the document reads it) and gives each deprecated one its headers and its `deprecated: true`.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const d = route.config?.deprecated;
      if (!d) return;
      const { link, ...dated } = deprecationHeaders(d);
      // A copy: a schema object may be shared with routes that are not deprecated.
      const schema = { ...route.schema } as Record<string, unknown>;
      const notice = `Deprecated since ${d.since}; may be removed after ${d.sunset} (${d.link}).`;
      route.schema = {
        ...schema,
        deprecated: true,
        description: schema.description ? `${notice} ${schema.description}` : notice,
      };
      const mark: Hook = (_request, reply, done) => {
        reply.headers(dated);
        appendLink(reply, link!);
        done();
      };
      addRouteHook(route, 'onRequest', mark, 'first');
    });
  },
  { name: 'deprecation' },
);
