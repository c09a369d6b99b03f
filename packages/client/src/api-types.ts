// The types of the v1 API the client is written against, derived from the generated schema (schema.ts): the
// platform events, the error envelope, the v1 lists a client pages through, and the writes a wallet signs.
import type { components, paths } from './schema.js';
import type { WalletSigner } from './wallet.js';

export type Schemas = components['schemas'];
/** A platform event of the stream, typed by `type` (and season events by `data.kind`). */
export type PlatformEvent =
  | Schemas['DecisionEvent']
  | Schemas['TradeEvent']
  | Schemas['ScoreEvent']
  | Schemas['SeasonEvent'];
export type EventType = PlatformEvent['type'];
export type V1Error = Schemas['V1Error'];

/** The 200 JSON body of a GET path. */
export type Body200<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer B } } } };
}
  ? B
  : never;
/** The query parameters of a GET path. */
type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
/** The v1 lists: GET paths without path parameters whose answer has `pagination`. */
export type ListPath = {
  [P in keyof paths]: [Body200<P>] extends [never]
    ? never
    : Body200<P> extends { pagination: unknown }
      ? paths[P] extends { get: { parameters: { path?: never } } }
        ? P
        : never
      : never;
}[keyof paths];
export type ListQuery<P extends ListPath> = QueryOf<P>;
export type ListPage<P extends ListPath> = Body200<P>;
export type ListItem<P extends ListPath> = Body200<P> extends { data: (infer I)[] } ? I : never;

export type WriteMethod = 'post' | 'put' | 'patch';
type OperationOf<M extends WriteMethod, P extends keyof paths> = NonNullable<paths[P][M]>;
type HeadersOf<Op> = Op extends { parameters: { header?: infer H } } ? NonNullable<H> : never;
/** The v1 writes a wallet signs: those taking an Idempotency-Key. */
export type SignedWritePath<M extends WriteMethod> = {
  [P in keyof paths]: [paths[P][M]] extends [undefined]
    ? never
    : [HeadersOf<OperationOf<M, P>>] extends [never]
      ? never
      : 'Idempotency-Key' extends keyof HeadersOf<OperationOf<M, P>>
        ? P
        : never;
}[keyof paths];
type PathParamsOf<M extends WriteMethod, P extends keyof paths> = OperationOf<M, P> extends {
  parameters: { path: infer T };
}
  ? T extends Record<string, unknown>
    ? T
    : never
  : never;
type BodyOf<M extends WriteMethod, P extends keyof paths> = OperationOf<M, P> extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type SuccessOf<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;
/** The `data` of a signed write's success. */
export type WriteData<M extends WriteMethod, P extends keyof paths> = SuccessOf<
  OperationOf<M, P>['responses']
> extends {
  data: infer D;
}
  ? D
  : never;

export type WriteInit<M extends WriteMethod, P extends keyof paths> = {
  /** The card holder's account (a viem account fits). */
  signer: WalletSigner;
  /** Retries send this key again; a new UUID when absent (read it back from the result). */
  idempotencyKey?: string;
  signal?: AbortSignal;
} & ([PathParamsOf<M, P>] extends [never] ? { params?: never } : { params: PathParamsOf<M, P> }) &
  ([BodyOf<M, P>] extends [never] ? { body?: never } : { body: BodyOf<M, P> });

export interface WriteResult<D> {
  data: D;
  status: number;
  /** The key the write was sent under: send it again to get the same answer for 24 hours. */
  idempotencyKey: string;
  /** true when the answer is the stored first answer (a retry of a write that had happened). */
  replayed: boolean;
  /** How many times it was sent. */
  attempts: number;
}
