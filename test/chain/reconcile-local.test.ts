// `cli reconcile` on the defaults of `npm start`: no CHAIN_RPC_URL nor CONTRACTS_FILE, the local chain and the
// embedded database under DATA_DIR. While the service runs, the command reads its node (the port its anvil pid file
// names); once it stopped, the command starts that chain from its saved state for the run, and stops it after. Before,
// it refused without CHAIN_RPC_URL and CONTRACTS_FILE.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningLocalChain } from '../../src/chain/anvil.ts';
import { openChain } from '../../src/chain/index.ts';
import { runCli } from '../../src/cli/main.ts';
import { loadConfig } from '../../src/config.ts';
import { runCli as runCliProcess } from '../helpers/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'reconcile-local-'));
const stateFile = path.join(dir, 'chain-state.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inProcess = async (args: string[], env: Record<string, string>) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
};

describe('cli reconcile on the defaults of npm start', () => {
  it('refuses a DATA_DIR without a local chain, saying how to make one', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'reconcile-empty-'));
    try {
      const res = await inProcess(['reconcile'], { DATA_DIR: empty });
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/the local chain under DATA_DIR=.*, which has none .*start the service once/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reads a running service's local chain, then, the service stopped, starts that chain from its state", async () => {
    // What npm start does with the chain on its defaults: anvil with state under DATA_DIR, the contracts deployed.
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.chainRpcUrl).toBeUndefined();
    const service = await openChain(config, () => {});
    try {
      const url = runningLocalChain(stateFile)!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await service.chain.publicClient.getChainId()).toBe(31337);
      const found = await runCliProcess(['reconcile'], { DATA_DIR: dir });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toMatch(
        new RegExp(
          `^Database: the embedded PGlite; chain 31337 \\(the local chain of the running service at ${url}\\)\\.$`,
          'm',
        ),
      );
      expect(found.stdout.trim().split('\n').at(-1)).toBe('The database equals a fresh index of the chain.');
    } finally {
      await service.stop();
    }
    expect(runningLocalChain(stateFile)).toBeUndefined();
    const res = await inProcess(['reconcile'], { DATA_DIR: dir });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/chain 31337 \(the local chain saved in .*chain-state\.json, started for this run\)/);
    expect(res.stdout.split('\n').at(-1)).toBe('The database equals a fresh index of the chain.');
    // The node it started is stopped again.
    expect(existsSync(`${stateFile}.pid`)).toBe(false);
  }, 120_000);
});
