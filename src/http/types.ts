// The Fastify instance type every route module receives (TypeBox schemas give request and reply types), and what
// the HTTP edge is given: the domain's dependencies plus the API's own parts (Redis, API keys, the event streams'
// fan-out, the lifecycle).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { ApiKeyVerifier } from '../domain/auth/api-keys.ts';
import type { WalletSignatureGuard } from '../domain/auth/wallet-signature.ts';
import type { Deps } from '../domain/deps.ts';
import type { ChainHead } from './block-reads.ts';
import type { EventHub } from './events/hub.ts';
import type { ReadCache } from './read-cache.ts';

/** Start-up state read by GET /api/ready: main.ts moves it to ready once its roles started, to stopping at shutdown. */
export type LifecycleState = 'starting' | 'ready' | 'stopping';

/** What the HTTP edge is given: the domain's `Deps` and the API's own parts; src/deps.ts builds them. */
export interface ApiDeps extends Deps {
  redis: Redis | undefined;
  apiKeys: ApiKeyVerifier;
  /** The wallet signatures' code cache and per-client count of failed ERC-1271 checks. */
  walletSignatures: WalletSignatureGuard;
  /** Fan-out of platform events to the open event streams; reads once started (by main.ts, or the first stream). */
  events: EventHub;
  lifecycle: { state: LifecycleState };
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface RouteOptions {
  deps: ApiDeps;
  /** The read routes' kept bodies (read-cache.ts). */
  reads: ReadCache;
  /** The chain's latest block, read once per request burst and reused by conditional reads (block-reads.ts). */
  chainHead: ChainHead;
}
