// Before any test file: compiles the contracts (a no-op when the sources did not change) and starts the broker of
// what test files share (test/helpers/broker.ts: a chain per worker, migrated database templates); after the run,
// stops its nodes and drops its templates.
import type { TestProject } from 'vitest/node';
import { buildContracts } from '../scripts/build-contracts.ts';
import { startTestBroker } from './helpers/broker.ts';

export default async function setup(project: TestProject) {
  buildContracts();
  const broker = await startTestBroker();
  project.provide('testBroker', broker.url);
  return () => broker.stop();
}
