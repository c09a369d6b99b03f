// A route in one place: its auth, tag, input and answer schemas and the read that answers it, declared once with
// `route()`. The family's envelope, error responses, security requirement and guard follow from where it is
// registered: `registerRoute(app, options, def, 'internal')` under /api (`{ success, data }`), and, for a read that
// has a public twin, `registerRoute(app, options, def, 'v1')` under /api/v1 (`{ data, meta }`, an API key), from the
// same definition and the same loader.
import type { FastifyReply, FastifyRequest, HTTPMethods, preValidationAsyncHookHandler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { WatchedTable } from '../db/changes.ts';
import { requireApiKey, requireSecret } from './auth/index.ts';
import { blockReads } from './block-reads.ts';
import { ok, v1Body } from './envelope.ts';
import type { JsonReply } from './read-cache.ts';
import { internalErrors, internalOk, v1Errors, v1Ok } from './schemas/common.ts';
import type { ApiDeps, App, RouteOptions } from './types.ts';

/**
 * Who may call a route: anyone, a caller with an API key (`x-api-key`), or the scheduler or an operator with the
 * cron or admin secret (`Authorization: Bearer`).
 */
export type RouteAuth = 'none' | 'apiKey' | 'cronSecret';

export type RouteFamily = 'internal' | 'v1';

type StaticOf<S extends TSchema | undefined> = S extends TSchema ? Static<S> : undefined;

/** What a route's loader is given: its validated input. */
export interface RouteInput<P extends TSchema | undefined, Q extends TSchema | undefined> {
  params: StaticOf<P>;
  query: StaticOf<Q>;
}

/** Keeping the internal route's answers in the read cache (read-cache.ts), per block when it reads the chain. */
export interface RouteCache<P extends TSchema | undefined, Q extends TSchema | undefined> {
  /** The route's name in the cache. */
  name: string;
  /** Every table the read depends on (WATCHED_TABLES); none for a read of the chain alone. */
  tables: readonly WatchedTable[];
  /** The answer also holds the chain's latest block: kept per block (block-reads.ts). */
  perBlock?: boolean;
  /** The normalized input the answer depends on. */
  key(input: RouteInput<P, Q>): string;
}

export interface RouteDef<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  D extends TSchema = TSchema,
> {
  method?: HTTPMethods;
  /** The internal path, under /api. */
  url: string;
  auth: RouteAuth;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /** The answer's data: the family's envelope is put around it. */
  response: D;
  /**
   * The route checks part of its input itself first (a wallet, whose 400 BAD_REQUEST names what is wrong with it):
   * the schemas document it, `check` runs before any other validation error is answered. Internal routes only; a v1
   * twin is validated by its schemas alone.
   */
  check?: (input: RouteInput<P, Q>) => void;
  /** Runs before validation (a list parameter split into its items). */
  prepare?: (request: FastifyRequest) => void;
  /** The answer's data, read for the input (at `block` when the route's cache is per block). */
  load(deps: ApiDeps, input: RouteInput<P, Q>, block?: bigint): Promise<Static<D>>;
  /** The internal route's answers kept in the read cache. */
  cache?: RouteCache<P, Q>;
  /** The public twin under /api/v1, with an API key: the same loader, in the v1 envelope. */
  v1?: {
    /** Its path under /api/v1. */
    url: string;
    /** Its own input schemas where they differ (a checked address where the internal route parses its own). */
    params?: TSchema;
    query?: TSchema;
    /** Its description; the internal route's when absent, none when null. */
    description?: string | null;
    /** The definition's params from the twin's own (a `slug` where the internal path names a `companyId`). */
    paramsOf?: (params: never) => StaticOf<P>;
  };
}

/** A route of any input and answer, as lists of a family's routes hold them. */
export type AnyRoute = RouteDef<any, any, any>;

/** Declares a route (the identity: it gives the definition its types). */
export const route = <P extends TSchema | undefined, Q extends TSchema | undefined, D extends TSchema>(
  def: RouteDef<P, Q, D>,
): RouteDef<P, Q, D> => def;

const SECURITY: Record<RouteAuth, Record<string, string[]>[] | undefined> = {
  none: undefined,
  apiKey: [{ apiKey: [] }],
  cronSecret: [{ bearerSecret: [] }],
};

function guardOf(auth: RouteAuth, deps: ApiDeps): preValidationAsyncHookHandler | undefined {
  if (auth === 'apiKey') return requireApiKey(deps);
  if (auth === 'cronSecret') return requireSecret(deps, ['cron', 'admin']);
  return undefined;
}

function preValidationOf(
  guard: preValidationAsyncHookHandler | undefined,
  prepare: ((request: FastifyRequest) => void) | undefined,
): preValidationAsyncHookHandler {
  if (!prepare) return guard!;
  return async function prepared(this: unknown, request, reply) {
    prepare(request);
    if (guard) await guard.call(this as never, request, reply);
  };
}

/**
 * Registers `def` in `family`: its internal route under /api, or its v1 twin under the v1 plugin's prefix. Returns
 * its handler, for a hidden alias of the route (a path the router would not give the route's parameters).
 */
export function registerRoute<P extends TSchema | undefined, Q extends TSchema | undefined, D extends TSchema>(
  app: App,
  options: RouteOptions,
  def: RouteDef<P, Q, D>,
  family: RouteFamily,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const { deps } = options;
  const v1 = family === 'v1';
  if (v1 && !def.v1) throw new Error(`${def.url} has no v1 twin`);
  const auth: RouteAuth = v1 ? 'apiKey' : def.auth;
  const params = v1 ? (def.v1!.params ?? def.params) : def.params;
  const query = v1 ? (def.v1!.query ?? def.query) : def.query;
  const description = v1
    ? def.v1!.description === undefined
      ? def.description
      : def.v1!.description
    : def.description;
  const security = SECURITY[auth];
  const guard = guardOf(auth, deps);
  const paramsOf = v1 ? def.v1!.paramsOf : undefined;
  const check = v1 ? undefined : def.check;
  const inputOf = (request: FastifyRequest): RouteInput<P, Q> => {
    const input = {
      params: paramsOf ? paramsOf(request.params as never) : (request.params as StaticOf<P>),
      query: request.query as StaticOf<Q>,
    };
    if (check) {
      check(input);
      if (request.validationError) throw request.validationError;
    }
    return input;
  };

  let handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  if (v1) {
    handler = async (request) => v1Body(await def.load(deps, inputOf(request)));
  } else if (def.cache) {
    const { cache } = def;
    const cached = options.reads.route(cache.name, { tables: cache.tables });
    if (cache.perBlock) {
      const perBlock = blockReads(options.chainHead, cached);
      handler = (request, reply) => {
        const input = inputOf(request);
        return perBlock.send(reply as unknown as JsonReply<unknown>, cache.key(input), async (block) =>
          ok(await def.load(deps, input, block)),
        );
      };
    } else {
      handler = (request, reply) => {
        const input = inputOf(request);
        return cached.send(reply as unknown as JsonReply<unknown>, cache.key(input), async () =>
          ok(await def.load(deps, input)),
        );
      };
    }
  } else {
    handler = async (request) => ok(await def.load(deps, inputOf(request)));
  }

  app.route({
    method: def.method ?? 'GET',
    url: v1 ? def.v1!.url : def.url,
    ...(guard || def.prepare ? { preValidation: preValidationOf(guard, def.prepare) } : {}),
    ...(check ? { attachValidation: true } : {}),
    schema: {
      tags: [def.tag],
      summary: def.summary,
      ...(description ? { description } : {}),
      ...(security ? { security } : {}),
      ...(params ? { params } : {}),
      ...(query ? { querystring: query } : {}),
      response: v1 ? { 200: v1Ok(def.response), ...v1Errors } : { 200: internalOk(def.response), ...internalErrors },
    },
    handler,
  });
  return handler;
}
