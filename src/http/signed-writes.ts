// The wallet-signed writes offered twice from one definition: under /api in the internal envelope (the web app's
// routes, as they always were) and under /api/v1 in the v1 envelope with an API key beside the signature
// (docs/api/README.md "v1 writes"). Both call the same domain function and take the same body, parameters,
// Idempotency-Key and recovery; only the path, the envelope and the v1 family's API key differ.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TObject, type TSchema, Type } from 'typebox';
import type { RecoveryPoint } from '../domain/auth/idempotency.ts';
import { requireApiKey, requireWallet } from './auth/index.ts';
import { meta, ok } from './envelope.ts';
import { internalErrors, v1Errors, v1Ok } from './schemas/common.ts';
import type { ApiDeps, App } from './types.ts';

/** The request a signed write's handler sees: its parameters and body as the schemas give them, and the signer. */
export type SignedRequest<P extends TSchema, B extends TSchema> = FastifyRequest<{
  Params: Static<P>;
  Body: Static<B>;
}> & { signer?: FastifyRequest['signer'] };

export interface SignedWrite<P extends TSchema = TSchema, B extends TSchema = TSchema> {
  method: 'POST' | 'PUT' | 'PATCH';
  /** The path after `/api` (and after `/api/v1` for the twin), e.g. `/companies/:id/token`. */
  path: string;
  /** The status of a success. */
  status: 200 | 201;
  tags: string[];
  summary: string;
  description?: string;
  params?: P;
  body?: B;
  /** The internal answer's schema, `internalOk(data)`: the v1 twin answers its `data` in the v1 envelope. */
  response: TObject;
  /** The answer's data built again from a recovery point (src/http/plugins/idempotency.ts), for routes that record one. */
  recover?: (recovery: RecoveryPoint) => Promise<unknown>;
  /** The domain call: the answer's data. */
  run(request: SignedRequest<P, B>): Promise<unknown>;
}

/** Declares a signed write (the generic parameters tie the handler's request to the schemas). */
export const signedWrite = <P extends TSchema, B extends TSchema>(route: SignedWrite<P, B>): SignedWrite =>
  route as unknown as SignedWrite;

export type WriteFamily = 'internal' | 'v1';

/**
 * Registers `route` for one family: the internal route at `/api<path>` (wallet signature), or the v1 twin at
 * `<path>` inside the /api/v1 plugin (API key, then the wallet signature).
 */
export function registerSignedWrite(app: App, deps: ApiDeps, route: SignedWrite, family: WriteFamily) {
  const v1 = family === 'v1';
  // v1 names a company `{slug}` in every path, its id or its slug alike (as the v1 reads): the twin of
  // `/companies/:id/token` is `/companies/:slug/token`, and its handler sees the value as `id` again.
  const params = v1 && route.params ? slugParams(route.params) : route.params;
  const path = v1 ? route.path.replace(/:id(?=\/|$)/, ':slug') : route.path;
  const wrap = v1 ? (data: unknown) => ({ data, meta: meta() }) : ok;
  const dataSchema = (route.response.properties as Record<string, TSchema>).data!;
  const wallet = requireWallet(deps);
  const recover = route.recover;
  app.route({
    method: route.method,
    url: v1 ? path : `/api${path}`,
    preValidation: v1 ? [requireApiKey(deps), wallet] : wallet,
    ...(recover
      ? {
          config: {
            idempotentRecovery: async (point: RecoveryPoint) => ({
              status: route.status,
              payload: wrap(await recover(point)),
            }),
          },
        }
      : {}),
    schema: {
      tags: route.tags,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      security: v1 ? [{ apiKey: [], wallet: [] }] : [{ wallet: [] }],
      ...(params ? { params } : {}),
      ...(route.body ? { body: route.body } : {}),
      response: v1
        ? { [route.status]: v1Ok(dataSchema), ...v1Errors }
        : { [route.status]: route.response, ...internalErrors },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      if (v1 && params !== route.params) {
        const { slug, ...rest } = request.params as Record<string, string>;
        request.params = { ...rest, id: slug };
      }
      return reply.status(route.status).send(wrap(await route.run(request as SignedRequest<TSchema, TSchema>)));
    },
  });
}

/** `params` with its company `id` named `slug` (the same schema: an id or a slug); `params` itself without one. */
function slugParams(params: TSchema): TSchema {
  const properties = (params as TObject).properties as Record<string, TSchema> | undefined;
  if (!properties?.id) return params;
  const { id, ...rest } = properties;
  return Type.Object({ slug: id, ...rest });
}
