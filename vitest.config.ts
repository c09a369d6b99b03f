import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-each-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share their worker's process: viem, drizzle, Fastify, PGlite's WebAssembly and `src` are loaded once a
    // worker instead of once a file (test/README.md "How the suite runs"; test/setup-each-file.ts resets what a
    // process keeps across files).
    isolate: false,
    // Three workers on two cores: the slowest files wait on child processes, browsers and the chain more than they
    // compute, and a third worker fills that time (docs/benchmarks.md "Test suite").
    maxWorkers: 3,
    sequence: { sequencer: SlowFilesFirst },
  },
});
