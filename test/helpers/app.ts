// Builds the whole HTTP application on a test database and a test chain, as the server does at start.
import pino, { type Logger } from 'pino';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import type { Database } from '../../src/db/client.ts';
import type { ComputeProvider } from '../../src/domain/compute/provider.ts';
import { createHdWalletProvider, type WalletProvider } from '../../src/domain/wallets/provider.ts';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/types.ts';
import type { TestChain } from './chain.ts';

export interface TestApp {
  app: App;
  container: Container;
  config: Config;
  close(): Promise<void>;
}

export async function startTestApp(options: {
  database: Database;
  chain: TestChain;
  env?: Record<string, string>;
  now?: () => number;
  /** Registers extra routes (e.g. a probe behind a guard) before the app is ready. */
  extraRoutes?: (app: App, container: Container) => void | Promise<void>;
  wallets?: WalletProvider;
  compute?: ComputeProvider;
  /** The logger of the container and the app; a silent one (or TEST_LOG_LEVEL) when absent. */
  logger?: Logger;
}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', BASE_URL: 'http://localhost:3000', ...options.env });
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const container = await createContainer(config, logger, {
    // A fixed seed: tests never write a seed file, and agent wallets are the same on every run.
    wallets: options.wallets ?? createHdWalletProvider(new Uint8Array(32).fill(7)),
    ...(options.compute ? { compute: options.compute } : {}),
    database: options.database,
    chain: { chain: options.chain.chain, stop: async () => {} },
    ...(options.now ? { now: options.now } : {}),
  });
  const app = await buildApp(container, { logger });
  await options.extraRoutes?.(app, container);
  await app.ready();
  return {
    app,
    container,
    config,
    close: async () => {
      await app.close();
      await container.close();
    },
  };
}
