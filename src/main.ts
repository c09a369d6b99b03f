// Start-up: configuration, container, HTTP server, and a graceful shutdown on SIGTERM/SIGINT that stops
// accepting, drains requests in flight, then closes the database and the chain node.

import type { AddressInfo } from 'node:net';
import { artifactsMatchSources } from './chain/contract-sources.ts';
import { cardListenerProblem } from './chain/contracts/access-card.ts';
import { OWNER_DELAY_S } from './chain/deploy-owner.ts';
import { warnHotKeyPowers } from './chain/roles.ts';
import { followStream } from './chain/streams.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createContainer } from './container.ts';
import {
  DEV_ADMIN_SECRET_FILE,
  DEV_CRON_SECRET_FILE,
  developmentAdminSecret,
  developmentCronSecret,
} from './domain/auth/dev-secret.ts';
import { startEnginePool } from './domain/engine/pool.ts';
import { CHAIN_STREAMS } from './domain/streams/registry.ts';
import { startWebhookDispatcher } from './domain/webhooks/dispatch.ts';
import { buildApp } from './http/app.ts';
import { runStartupJobs, startScheduler } from './jobs/scheduler.ts';
import { createLogger } from './logger.ts';
import { countingRpcErrors, metricsExposure, serveMetrics } from './metrics.ts';
import { removeServiceFile, writeServiceFile } from './service-file.ts';

/** What the HTTP drain and the closing of the database and chain may take, beyond the engine's own grace. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel, config.logFormat);
  const devCronSecret = developmentCronSecret(config);
  if (devCronSecret) {
    config.cronSecret = devCronSecret;
    logger.info(`development CRON_SECRET: the one in ${config.dataDir}/${DEV_CRON_SECRET_FILE}`);
  }
  // The admin routes' secret of a local platform, which `npm run cli -- api-keys` reads to ask this service.
  const devAdminSecret = developmentAdminSecret(config);
  if (devAdminSecret) {
    config.adminSecret = devAdminSecret;
    logger.info(`development ADMIN_SECRET: the one in ${config.dataDir}/${DEV_ADMIN_SECRET_FILE}`);
  }
  // Contracts are compiled on install (postinstall) or by npm run build:contracts, never at start: a start on
  // artifacts older than the sources would deploy code nobody reviewed, so it stops and says what to run.
  if (!artifactsMatchSources()) {
    logger.error('the compiled contracts do not match contracts/: run npm run build:contracts, then start again');
    process.exitCode = 1;
    return;
  }

  const container = await createContainer(config, logger);
  // A card whose transfers reach no staking contract would let a borrowed card keep its boost: refuse to run on it.
  // A node that does not answer yet is not a refusal (the readiness route reports the chain).
  const listenerProblem = await cardListenerProblem(container.chain).catch((err: unknown) => {
    logger.warn({ err }, 'could not check the access card is wired to the staking contract');
    return undefined;
  });
  if (listenerProblem) {
    logger.error(`cannot start: ${listenerProblem}`);
    await container.close();
    process.exitCode = 1;
    return;
  }
  // No hot key may hold a power that changes the rules or mints: a production start says so loudly.
  if (config.nodeEnv === 'production') {
    await warnHotKeyPowers(container.chain, Number(OWNER_DELAY_S), (line) => logger.warn(line));
  }
  const app = await buildApp(container, { logger });
  if (!(await container.apiKeys.anyActive())) {
    logger.warn(
      'API authentication not yet configured: no API key exists, so the event stream is open. Create one with: npm run cli -- api-keys create --name NAME',
    );
  }

  const stopHooks: (() => void | Promise<void>)[] = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // GET /api/ready answers 503 from now on, so load balancers stop sending while requests drain.
    container.lifecycle.state = 'stopping';
    logger.info({ signal }, 'shutting down: draining requests');
    // The engine waits up to its grace for rounds at real model latency (about 20 s each), then ends them.
    const engineGraceMs = config.roles.has('engine') ? config.engineShutdownGraceMs : 0;
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, engineGraceMs + SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      for (const stop of stopHooks) await stop();
      await app.close();
      await container.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (config.roles.has('scheduler')) void runStartupJobs(container, logger);
  const scheduler = config.roles.has('scheduler') ? startScheduler(container, logger) : undefined;
  stopHooks.push(() => scheduler?.stop());
  const followerLog = countingRpcErrors(logger, container.metrics, 'indexer');
  const followers = config.roles.has('indexer')
    ? CHAIN_STREAMS.map((stream) => followStream(container, stream, { log: followerLog }))
    : [];
  for (const follower of followers) {
    if (follower) container.metrics.watchFollower(follower);
    follower?.start(config.indexerPollMs);
  }
  // Awaited, so a batch being applied commits before the database closes.
  stopHooks.push(async () => {
    await Promise.all(followers.map((f) => f?.stop()));
  });
  const engine = config.roles.has('engine')
    ? startEnginePool(
        { ...container, log: countingRpcErrors(logger, container.metrics, 'engine') },
        {
          pollMs: config.enginePollMs,
          intervalS: config.decisionIntervalS,
          maxConcurrency: config.engineConcurrency,
          shutdownGraceMs: config.engineShutdownGraceMs,
        },
      )
    : undefined;
  // Awaited, so the rounds in progress finish (or are ended as interrupted) and record before the database closes.
  stopHooks.push(async () => {
    await engine?.stop();
  });
  // Webhook deliveries (docs/api/webhooks.md): every process of the role fans out and sends its share.
  const webhooks = config.roles.has('webhooks') ? startWebhookDispatcher(container, logger) : undefined;
  // Awaited, so the attempts in flight (at most WEBHOOK_TIMEOUT_MS) are recorded before the database closes.
  stopHooks.push(async () => {
    await webhooks?.stop();
  });
  if (config.roles.has('api')) {
    // The event reader LISTENs before the first stream arrives; a database that cannot stops start-up here.
    await container.events.start();
    await app.listen({ host: config.host, port: config.port });
    logger.info(`ai-economy ${config.baseUrl} (API docs at ${config.baseUrl}/api/docs)`);
    if (container.database.kind === 'pglite') {
      // The embedded database admits this process only: local tools find the service here and ask it instead.
      const { port } = app.server.address() as AddressInfo;
      const loopback = ['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(config.host) ? '127.0.0.1' : config.host;
      writeServiceFile(config.dataDir, {
        url: `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}`,
        pid: process.pid,
      });
      stopHooks.push(() => removeServiceFile(config.dataDir));
    }
  }
  const exposure = metricsExposure(config);
  if (exposure.port !== undefined) {
    // GET /metrics alone on a port of its own: processes without the api role, and every process in production.
    const server = await serveMetrics(container.metrics, {
      host: config.host,
      port: exposure.port,
      token: config.metricsToken,
    });
    stopHooks.push(() => server.close());
    logger.info({ port: server.port }, 'metrics at /metrics');
  }
  if (exposure.hidden) logger.warn(exposure.hidden);
  if (stopping) return;
  container.lifecycle.state = 'ready';
  logger.info({ roles: [...config.roles] }, 'running');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
