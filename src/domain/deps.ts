// What the domain is given: the service's shared parts, built once and wired by the composition root
// (src/container.ts). A domain function takes `deps` (or a Pick of it naming only what it uses); it never reaches
// for the root, Fastify or the process.
import type { Tracer } from '@opentelemetry/api';
import type { Chain } from '../chain/client.ts';
import type { Outbox } from '../chain/outbox.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Metrics } from '../metrics.ts';
import type { ComputeProvider } from './compute/provider.ts';
import type { ModelProvider } from './engine/models/index.ts';
import type { WalletProvider } from './wallets/provider.ts';

export interface Deps {
  config: Config;
  database: Database;
  chain: Chain;
  /** Exactly-once transactions signed by the platform key. */
  outbox: Outbox;
  /** Exactly-once transactions signed by the oracle key (epoch finalization and claims). */
  oracleOutbox: Outbox;
  wallets: WalletProvider;
  /** Compute machines for companies; none when no provider is configured. */
  compute: ComputeProvider | undefined;
  /** Language models of the decision engine: the configured endpoints, or the built-in deterministic model. */
  models: ModelProvider;
  /** Prometheus metrics of this process (its own registry; docs/operations.md). */
  metrics: Metrics;
  /** Spans of the decision engine (docs/operations.md "Traces"); OpenTelemetry's no-op tracer when none is exported. */
  tracer: Tracer;
  /** Milliseconds since the epoch; replaced in tests that need a fixed clock. */
  now: () => number;
  /**
   * Warnings of work that carries on past a failed step (a treasury proof deferred, a custody module not kept in
   * step, a round failed): the process logger in the service.
   */
  log?: { warn(obj: object, msg: string): void };
}

/** What a follower of chain logs needs (the indexer's streams: cards, company tokens, holders, treasuries). */
export interface LogStreamDeps {
  database: { db: Database['db'] };
  chain: Pick<Chain, 'publicClient' | 'contracts' | 'deployBlocks'>;
  config: Pick<Config, 'chainConfirmations' | 'chainFinalityDepth'>;
}
