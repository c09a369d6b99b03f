// The composition root: builds the service's shared parts once (database, chain, Redis, auth stores, outboxes,
// models, events, metrics), checks them at start so a bad setting fails fast, wires them into the container the
// HTTP edge, the jobs and the domain are given (each sees only its own type of it: src/domain/deps.ts,
// src/http/types.ts), and tears them down in reverse order. Nothing below imports this file.
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Chain } from './chain/client.ts';
import { openChain } from './chain/index.ts';
import { createOutbox } from './chain/outbox.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { API_KEYS_CHANNEL, createApiKeyVerifier } from './domain/auth/api-keys.ts';
import { createWalletSignatureGuard } from './domain/auth/wallet-signature.ts';
import type { ComputeProvider } from './domain/compute/provider.ts';
import { createModelProvider, type ModelProvider } from './domain/engine/models/index.ts';
import { createHdWalletProvider, loadWalletSeed, type WalletProvider } from './domain/wallets/provider.ts';
import { createRemoteWalletProvider, RemoteSignerError, shownUrl } from './domain/wallets/remote.ts';
import { createEventHub } from './http/events/hub.ts';
import type { ApiDeps } from './http/types.ts';
import { createMetrics } from './metrics.ts';
import { createTracing, type Tracing } from './tracing.ts';

/** The service's shared parts, and how to close them (in reverse order of opening). */
export interface Container extends ApiDeps {
  close(): Promise<void>;
}

export interface ContainerParts {
  database?: Database;
  chain?: { chain: Chain; stop(): Promise<void> };
  now?: () => number;
  wallets?: WalletProvider;
  compute?: ComputeProvider;
  models?: ModelProvider;
  /** The spans' destination (tests give an in-memory exporter's); from OTEL_EXPORTER_OTLP_ENDPOINT when absent. */
  tracing?: Tracing;
}

export async function createContainer(
  config: Config,
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  parts: ContainerParts = {},
): Promise<Container> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (err) {
        logger.error({ err }, 'error while shutting down');
      }
    }
  };
  try {
    const database =
      parts.database ??
      (await openDatabase({
        url: config.databaseUrl,
        dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pg'),
        poolSize: config.databasePoolSize,
        onError: (err) => logger.warn({ err: err.message }, 'database connection lost; the pool reconnects'),
      }));
    if (!parts.database) closers.push(() => database.close());
    logger.info(
      database.kind === 'pglite' ? `database: embedded PGlite under ${config.dataDir}/pg` : 'database: PostgreSQL',
    );

    let redis: Redis | undefined;
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
      redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
      await redis.connect();
      const r = redis;
      closers.push(async () => {
        r.disconnect();
      });
    }

    const opened = parts.chain ?? (await openChain(config, (msg) => logger.info(msg)));
    if (!parts.chain) closers.push(() => opened.stop());

    const now = parts.now ?? Date.now;
    const apiKeys = createApiKeyVerifier(database.db, { cacheMs: config.apiKeyCacheMs, now });
    // A key created or revoked by any process (another replica, the CLI on PostgreSQL) counts here at once. An
    // empty payload (the listening connection came back) clears too. PGlite has one process: the same in-process.
    const unlistenKeys = await database.listen(API_KEYS_CHANNEL, () => apiKeys.clear());
    closers.push(unlistenKeys);
    const outbox = createOutbox({ db: database.db, chain: opened.chain, wallet: opened.chain.platform });
    // On the local chain both keys are account 0: one outbox then, so nonces are never handed out twice.
    const sameKey = opened.chain.oracle.account.address === opened.chain.platform.account.address;
    const oracleOutbox = sameKey
      ? outbox
      : createOutbox({ db: database.db, chain: opened.chain, wallet: opened.chain.oracle });
    const events = createEventHub({
      database,
      log: logger,
      maxConnections: config.sseMaxConnections,
      maxConnectionsPerClient: config.sseMaxConnectionsPerClient,
      publicMaxConnections: config.ssePublicMaxConnections,
      heartbeatMs: config.sseHeartbeatMs,
    });
    // Stopped before the database closes (closers run in reverse).
    closers.push(() => events.stop());
    const metrics = createMetrics();
    metrics.watchStreams(events);
    const tracing = parts.tracing ?? createTracing(config);
    // Flushed before the rest closes (closers run in reverse): the last rounds' spans are sent.
    closers.push(() => tracing.shutdown());
    let wallets = parts.wallets;
    if (!wallets && config.walletProvider === 'remote' && config.walletSigner) {
      const remote = createRemoteWalletProvider({ db: database.db, signer: config.walletSigner });
      closers.push(async () => remote.close());
      const where = shownUrl(config.walletSigner.url);
      // Checked at start: a refusal (credentials, certificates) is a setting to fix and stops the start; a signer
      // that is down only delays signing, which waits for it (the outbox records nothing it could not sign).
      try {
        const held = await remote.accounts();
        logger.info(`agent wallets: remote signer ${where} (${held.length} keys)`);
      } catch (err) {
        if (!(err instanceof RemoteSignerError && err.down)) throw err;
        logger.warn(`agent wallets: ${err.message}`);
      }
      wallets = remote;
    }
    wallets ??= createHdWalletProvider(
      loadWalletSeed(config.walletMasterSeed, config.dataDir, config.nodeEnv !== 'production'),
    );
    return {
      config,
      database,
      chain: opened.chain,
      redis,
      apiKeys,
      walletSignatures: createWalletSignatureGuard(),
      outbox,
      oracleOutbox,
      wallets,
      compute: parts.compute,
      models: parts.models ?? createModelProvider(config, { log: logger, tracer: tracing.tracer }),
      tracer: tracing.tracer,
      events,
      metrics,
      lifecycle: { state: 'starting' },
      now,
      log: logger,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
