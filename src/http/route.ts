// A route in one place: its auth, tag, input and answer schemas and the call that answers it, declared once with
// `route()`. The family's envelope, success status, error responses, security requirement and guards follow from
// the definition and from where it is registered: `registerRoute(app, options, def, 'internal')` under /api
// (`{ success, data }`), and, for a route that has a public twin, `registerRoute(app, options, def, 'v1')` under
// /api/v1 (`{ data, meta }`, an API key beside the route's own auth), from the same definition and the same loader.
// A route only under /api/v1 (webhooks, the token market) has a `v1` part and no internal `url`. Who may call a route,
// and the guards and security requirement that follow, are route-auth.ts's.
import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import type { Address } from 'viem';
import type { WatchedTable } from '../db/changes.ts';
import type { RecoveryPoint } from '../domain/auth/idempotency.ts';
import { blockReads } from './block-reads.ts';
import { linkNextPage, meta, ok } from './envelope.ts';
import { recoveryRecorder } from './plugins/idempotency.ts';
import type { JsonReply } from './read-cache.ts';
import { checkV1Auth, guardsOf, preValidationOf, type RouteAuth, securityOf } from './route-auth.ts';
import { internalErrors, internalOk, Meta, Pagination, v1Errors, v1Ok } from './schemas/common.ts';
import type { ApiDeps, App, RouteOptions } from './types.ts';
import { createValidatorCompiler } from './validation.ts';

export type RouteFamily = 'internal' | 'v1';

type StaticOf<S extends TSchema | undefined> = S extends TSchema ? Static<S> : undefined;

/** What a route's loader is given: its validated input, and who called. */
export interface RouteInput<
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  B extends TSchema | undefined = undefined,
> {
  params: StaticOf<P>;
  query: StaticOf<Q>;
  body: StaticOf<B>;
  /** The wallet that signed the request: always there for a `wallet` route, there when signed for `walletOptional`. */
  signer: Address | undefined;
  /** The id of the API key that authenticated a v1 request. */
  apiKeyId: string | undefined;
  /** The client's address (the proxy-aware `request.ip`). */
  client: string;
  /** The time the answer is read at, from the definition's `now` (undefined without one). */
  now: number | undefined;
  /**
   * For a write with `recover`: records what the write created, in its transaction, so a retry of its
   * Idempotency-Key is answered from it (src/http/plugins/idempotency.ts); undefined without a key.
   */
  record: ReturnType<typeof recoveryRecorder>;
}

/** Keeping a route's answers in the read cache (read-cache.ts), per block when it reads the chain. */
export interface RouteCache<P extends TSchema | undefined, Q extends TSchema | undefined> {
  /** The route's name in the cache. */
  name: string;
  /** Its v1 twin's name when the twin is kept too (in the v1 envelope, each response with its own timestamp). */
  v1?: string;
  /** Every table the read depends on (WATCHED_TABLES); none for a read of the chain alone. */
  tables: readonly WatchedTable[];
  /** Read again after this long even without a change (a figure over a moving time window). */
  maxAgeMs?: number;
  /** The answer also holds the chain's latest block: kept per block (block-reads.ts). Internal routes only. */
  perBlock?: boolean;
  /** The normalized input the answer depends on. */
  key(input: RouteInput<P, Q, any>): string;
}

/**
 * An answer as the domain builds it: the schema's string enums as any string (the schema documents the values the
 * domain gives), every other field as the schema says.
 */
export type Answer<T> = T extends string
  ? string
  : T extends readonly (infer U)[]
    ? Answer<U>[]
    : T extends object
      ? { [K in keyof T]: Answer<T[K]> }
      : T;

/** A page of a list: the items (or whatever the route's data is) and the list's `pagination`, put beside `data`. */
export interface Paged<T> {
  data: T;
  pagination: Static<typeof Pagination>;
}

/** The public twin under /api/v1: the same loader, in the v1 envelope, with an API key beside the route's own auth. */
export interface RouteTwin {
  /** Its path under /api/v1. */
  url: string;
  /** Its own input schemas where they differ (a checked address where the internal route parses its own). */
  params?: TSchema;
  query?: TSchema;
  /** Its summary and description; the internal route's when absent (no description when null). */
  summary?: string;
  description?: string | null;
  /** The definition's params from the twin's own (a `slug` where the internal path names a `companyId`). */
  paramsOf?: (params: never) => unknown;
}

export interface RouteDef<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  D extends TSchema = TSchema,
  B extends TSchema | undefined = TSchema | undefined,
  Pg extends boolean = boolean,
> {
  method?: HTTPMethods;
  /** The internal path, under /api; none for a route only under /api/v1. */
  url?: string;
  /** The internal route's auth; its v1 twin adds the API key. */
  auth: RouteAuth | ((deps: ApiDeps) => RouteAuth);
  tag: string;
  /** The summary; for an auth chosen by the configuration, the summary of the auth chosen. */
  summary: string | ((auth: RouteAuth) => string);
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The status of a success; 200 when absent. */
  status?: 200 | 201;
  /**
   * The answer's data: the family's envelope is put around it (with the `pagination` beside it for a page), except
   * for a `bare` route, which answers the data as it is.
   */
  response: D;
  /** The answer is a page of a list: the loader answers `{ data, pagination }`. */
  page?: Pg;
  /** The answer is sent without an envelope (a document of a standard, e.g. an ERC-8004 registration file). */
  bare?: boolean;
  /** Headers of a success. */
  headers?: Record<string, string>;
  /** Every invalid field of the input named at once, not only the first (a form). */
  allErrors?: boolean;
  /**
   * The route checks part of its input itself first (a wallet, whose 400 BAD_REQUEST names what is wrong with it):
   * the schemas document it, `check` runs before any other validation error is answered. Internal routes only; a v1
   * twin is validated by its schemas alone.
   */
  check?: (input: RouteInput<P, Q, B>) => void;
  /** Runs before validation (a list parameter split into its items). */
  prepare?: (request: FastifyRequest) => void;
  /** The time the answer depends on (the chain's day), read once a request, before the cache key and the loader. */
  now?: (deps: ApiDeps) => Promise<number>;
  /** The answer's data, read or written for the input (at `block` when the route's cache is per block). */
  load(
    deps: ApiDeps,
    input: RouteInput<P, Q, B>,
    block?: bigint,
  ): Promise<Answer<Pg extends true ? Paged<Static<D>> : Static<D>>>;
  /**
   * A write keyed by an Idempotency-Key that may have committed is answered again from what it created: `kind` names
   * what `input.record` records, `answer` builds the answer's data from it (src/http/plugins/idempotency.ts).
   */
  recover?: { kind: string; answer(deps: ApiDeps, point: RecoveryPoint): Promise<Answer<Static<D>>> };
  /** The route's answers kept in the read cache. */
  cache?: RouteCache<P, Q>;
  /** The public twin under /api/v1 (the route itself, for a route only under /api/v1). */
  v1?: RouteTwin;
}

/** A route of any input and answer, as lists of a family's routes hold them. */
export type AnyRoute = RouteDef<any, any, any, any, any>;

/**
 * State a route keeps for one app (a list's counted totals): made on first use for each app's dependencies, so the
 * apps a test process builds, each on its own data, share nothing.
 */
export function perApp<T>(make: (deps: ApiDeps) => T): (deps: ApiDeps) => T {
  const kept = new WeakMap<ApiDeps, T>();
  return (deps) => {
    let state = kept.get(deps);
    if (state === undefined) {
      state = make(deps);
      kept.set(deps, state);
    }
    return state;
  };
}

/** Declares a route (the identity: it gives the definition its types). */
export const route = <
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  D extends TSchema,
  B extends TSchema | undefined = undefined,
  Pg extends boolean = false,
>(
  def: RouteDef<P, Q, D, B, Pg>,
): RouteDef<P, Q, D, B, Pg> => def;

/**
 * The twin of a route whose path names a company `:id`: v1 names a company `{slug}` in every path, its id or its slug
 * alike (as the v1 reads), with the same schema; the loader sees the value as `id` again.
 */
export function slugTwin(url: string, params: TObject, twin: Omit<RouteTwin, 'url' | 'params' | 'paramsOf'> = {}) {
  const { id, ...rest } = params.properties as Record<string, TSchema>;
  if (!id || !url.includes(':slug')) throw new Error(`slugTwin: ${url} names no company`);
  return {
    url,
    params: Type.Object({ slug: id, ...rest }),
    paramsOf: ({ slug, ...others }: { slug: string }) => ({ ...others, id: slug }),
    ...twin,
  } satisfies RouteTwin;
}

/**
 * The answer's schema of `def` in `family`, made once a definition: the response serializers are kept by schema
 * object (serialization.ts), so an app built again reuses them.
 */
const answers = new WeakMap<AnyRoute, Partial<Record<RouteFamily, TSchema>>>();
function answerOf(def: AnyRoute, family: RouteFamily): TSchema {
  let kept = answers.get(def);
  if (!kept) {
    kept = {};
    answers.set(def, kept);
  }
  const made = kept[family] ?? envelopeSchemaOf(def, family);
  kept[family] = made;
  return made;
}

function envelopeSchemaOf(def: AnyRoute, family: RouteFamily): TSchema {
  if (def.bare) return def.response;
  if (family === 'v1') {
    return def.page ? Type.Object({ data: def.response, pagination: Pagination, meta: Meta }) : v1Ok(def.response);
  }
  return def.page
    ? Type.Object({ success: Type.Literal(true), data: def.response, pagination: Pagination })
    : internalOk(def.response);
}

/** The family's envelope around a loader's answer (`timestamp`: a kept v1 body's placeholder). */
function envelopeOf(def: AnyRoute, family: RouteFamily): (answer: any, timestamp?: string) => unknown {
  if (def.bare) return (answer) => answer;
  if (family === 'v1')
    return def.page ? (page, at) => ({ ...page, meta: meta(at) }) : (data, at) => ({ data, meta: meta(at) });
  return def.page ? (page) => ({ success: true as const, ...page }) : ok;
}

const allErrorsCompiler = createValidatorCompiler({ allErrors: true });

/**
 * Registers `def` in `family`: its internal route under /api, or its v1 twin under the v1 plugin's prefix. Returns
 * its handler, for a hidden alias of the route (a path the router would not give the route's parameters).
 */
export function registerRoute<
  P extends TSchema | undefined,
  Q extends TSchema | undefined,
  D extends TSchema,
  B extends TSchema | undefined,
  Pg extends boolean,
>(
  app: App,
  options: RouteOptions,
  def: RouteDef<P, Q, D, B, Pg>,
  family: RouteFamily,
): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  const method = def.method ?? 'GET';
  // A write's domain call logs with the service's logger (a chain step retried, a round failed).
  const deps: ApiDeps = method === 'GET' ? options.deps : { ...options.deps, log: app.log };
  const v1 = family === 'v1';
  if (v1 && !def.v1) throw new Error(`${def.url} has no v1 twin`);
  if (!v1 && !def.url) throw new Error(`${def.v1!.url} is a v1 route only`);
  // A route only under /api/v1 is its own twin: its schemas and texts are the definition's.
  const twin = v1 && def.url ? def.v1 : undefined;
  const ownAuth = typeof def.auth === 'function' ? def.auth(options.deps) : def.auth;
  if (v1) checkV1Auth(ownAuth, def.v1!.url);
  const params = twin?.params ?? def.params;
  const query = twin?.query ?? def.query;
  const summary = twin?.summary ?? (typeof def.summary === 'function' ? def.summary(ownAuth) : def.summary);
  const description = twin?.description === undefined ? def.description : twin.description;
  const security = securityOf(ownAuth, v1);
  const guards = guardsOf(ownAuth, v1, options.deps);
  const paramsOf = twin?.paramsOf;
  const check = v1 ? undefined : def.check;
  const status = def.status ?? 200;
  const wrap = envelopeOf(def, family);
  const inputOf = async (request: FastifyRequest): Promise<RouteInput<P, Q, B>> => {
    const input: RouteInput<P, Q, B> = {
      params: paramsOf ? (paramsOf(request.params as never) as StaticOf<P>) : (request.params as StaticOf<P>),
      query: request.query as StaticOf<Q>,
      body: request.body as StaticOf<B>,
      signer: request.signer,
      apiKeyId: request.apiKeyId,
      client: request.ip,
      now: def.now ? await def.now(deps) : undefined,
      record: def.recover ? recoveryRecorder(request, def.recover.kind) : undefined,
    };
    if (check) {
      check(input);
      if (request.validationError) throw request.validationError;
    }
    return input;
  };
  const headers = def.headers ? Object.entries(def.headers) : [];

  let handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  const cacheName = def.cache && (v1 ? (twin ? def.cache.v1 : def.cache.name) : def.cache.name);
  if (def.cache && cacheName) {
    const { cache } = def;
    // What a kept answer cannot carry: its own status or headers (the read cache answers 200 with its ETag), or a
    // block for a v1 twin (kept per block only under /api).
    if (status !== 200 || headers.length > 0 || (v1 && cache.perBlock)) {
      throw new Error(
        `${def.url ?? def.v1!.url}: a cached route answers 200 with no headers of its own, per block under /api only`,
      );
    }
    const cached = options.reads.route(cacheName, {
      tables: cache.tables,
      ...(cache.maxAgeMs === undefined ? {} : { maxAgeMs: cache.maxAgeMs }),
    });
    if (v1) {
      // Kept with a placeholder timestamp: each response gets its own time (read-cache.ts).
      handler = async (request, reply) => {
        const input = await inputOf(request);
        return cached.sendV1(reply as unknown as JsonReply<unknown>, cache.key(input), async (timestamp) =>
          wrap(await def.load(deps, input), timestamp),
        );
      };
    } else if (cache.perBlock) {
      const perBlock = blockReads(options.chainHead, cached);
      handler = async (request, reply) => {
        const input = await inputOf(request);
        return perBlock.send(reply as unknown as JsonReply<unknown>, cache.key(input), async (block) =>
          wrap(await def.load(deps, input, block)),
        );
      };
    } else {
      handler = async (request, reply) => {
        const input = await inputOf(request);
        return cached.send(reply as unknown as JsonReply<unknown>, cache.key(input), async () =>
          wrap(await def.load(deps, input)),
        );
      };
    }
  } else {
    handler = async (request, reply) => {
      const body = wrap(await def.load(deps, await inputOf(request)));
      for (const [name, value] of headers) reply.header(name, value);
      return reply.code(status).send(body);
    };
  }

  const { recover } = def;
  const preValidation = preValidationOf(guards, def.prepare);
  // A list that pages by cursor links its next page (RFC 8288), from the body the route sends.
  const linked = def.page && query !== undefined && 'cursor' in ((query as TObject).properties ?? {});
  app.route({
    method,
    url: v1 ? def.v1!.url : def.url!,
    ...(preValidation ? { preValidation } : {}),
    ...(linked ? { onSend: linkNextPage } : {}),
    ...(check ? { attachValidation: true } : {}),
    ...(def.allErrors ? { validatorCompiler: allErrorsCompiler } : {}),
    ...(recover
      ? {
          config: {
            idempotentRecovery: async (point: RecoveryPoint) => ({
              status,
              payload: wrap(await recover.answer(deps, point)),
            }),
          },
        }
      : {}),
    schema: {
      tags: [def.tag],
      summary,
      ...(description ? { description } : {}),
      ...(security ? { security } : {}),
      ...(params ? { params } : {}),
      ...(query ? { querystring: query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { [status]: answerOf(def as AnyRoute, family), ...(v1 ? v1Errors : internalErrors) },
    },
    handler,
  });
  return handler;
}
