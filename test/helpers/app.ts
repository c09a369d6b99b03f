// Builds the whole HTTP application on a test database and a test chain, as the server does at start.
import pino, { type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Container, createContainer } from '../../src/container.ts';
import type { Database } from '../../src/db/client.ts';
import type { ComputeProvider } from '../../src/domain/compute/provider.ts';
import { createHdWalletProvider, type WalletProvider } from '../../src/domain/wallets/provider.ts';
import { buildApp } from '../../src/http/app.ts';
import { errorHandler } from '../../src/http/errors.ts';
import type { App } from '../../src/http/types.ts';
import { startTestChain, type TestChain } from './chain.ts';
import { primaryTestDatabase } from './db.ts';
import { checkResponsesAgainstDocument } from './openapi.ts';

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
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://localhost:3000',
    // The worker's anvil is shared by the file's transactions and, on a loaded two-core machine, a company's custody
    // setup (millions of gas) can take longer than the service's 5 s: a test of the timeout sets its own.
    RPC_TIMEOUT_MS: '20000',
    ...options.env,
  });
  const logger = options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const container = await createContainer(config, logger, {
    // A fixed seed: tests never write a seed file, and agent wallets are the same on every run. With
    // WALLET_PROVIDER=remote the container makes the remote signer's provider, as the service does.
    ...(config.walletProvider === 'remote'
      ? {}
      : { wallets: options.wallets ?? createHdWalletProvider(new Uint8Array(32).fill(7)) }),
    ...(options.compute ? { compute: options.compute } : {}),
    database: options.database,
    chain: { chain: options.chain.chain, stop: async () => {} },
    ...(options.now ? { now: options.now } : {}),
  });
  const app = await buildApp(container, { logger });
  // Every response the tests receive is checked against the OpenAPI document; close() fails on a mismatch.
  const responses = checkResponsesAgainstDocument(app);
  await options.extraRoutes?.(app, container);
  await app.ready();
  return {
    app,
    container,
    config,
    close: async () => {
      await app.close();
      await container.close();
      if (responses.problems.length > 0) {
        const shown = [...new Set(responses.problems)].slice(0, 20);
        throw new Error(`responses that do not match the OpenAPI document:\n${shown.join('\n')}`);
      }
    },
  };
}

export type TestAppOptions = Omit<Parameters<typeof startTestApp>[0], 'database' | 'chain'>;

/** The app of one test file with its chain and database; its fields are set once `beforeAll` has run. */
export interface TestEnv extends TestApp {
  chain: TestChain;
  database: Database;
}

/**
 * Leases the worker's chain (test/helpers/chain.ts), opens the database (the real server when TEST_DATABASE_URL is
 * set, else PGlite) and starts the app once for the test file, and hands them back after it.
 */
export function useTestApp(options: TestAppOptions & { chain?: Parameters<typeof startTestChain>[0] } = {}): TestEnv {
  const env = {} as TestEnv;
  beforeAll(async () => {
    const { chain: chainOptions, ...appOptions } = options;
    const [chain, database] = await Promise.all([startTestChain(chainOptions), primaryTestDatabase.open()]);
    Object.assign(env, { chain, database }, await startTestApp({ ...appOptions, database, chain }));
  });
  afterAll(async () => {
    await env.close?.();
    await env.database?.close();
    await env.chain?.stop();
  });
  return env;
}

/**
 * Registers test routes as the v1 family's routes are: under /api/v1 (paths relative to it), answering their errors
 * in the v1 envelope. A route registered at the root answers in the internal envelope, whatever its path.
 */
export async function underV1(app: App, routes: (v1App: App) => void): Promise<void> {
  await app.register(
    async (v1App) => {
      v1App.setErrorHandler(errorHandler('v1'));
      routes(v1App as App);
    },
    { prefix: '/api/v1' },
  );
}
