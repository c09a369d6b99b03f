// `npm run cli -- keys`: who holds every power of the deployed contracts, read from the chain (src/chain/roles.ts).
// With CHAIN_RPC_URL it reads CONTRACTS_FILE's chain; without it, the local chain of the service running on
// DATA_DIR (its node's port is the service's, so the service's GET /api/chain names it). Marks every owner's power
// a key of this configuration (PLATFORM_PRIVATE_KEY, ORACLE_PRIVATE_KEY) holds: it should hold none.
import { type Address, createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devAccount, makeViemChain } from '../chain/client.ts';
import { type ContractAddresses, readContractsFile } from '../chain/contracts/addresses.ts';
import { OWNER_DELAY_S } from '../chain/deploy-owner.ts';
import { deployBlocksOf } from '../chain/index.ts';
import { hotKeyProblems, readRoles } from '../chain/roles.ts';
import type { Config } from '../config.ts';
import { readServiceFile } from '../service-file.ts';
import { CliFailure } from './api-key-stores.ts';

async function chainOf(config: Config) {
  if (config.chainRpcUrl) {
    const file = config.contractsFile ? readContractsFile(config.contractsFile) : undefined;
    if (!file) throw new CliFailure(`keys: CONTRACTS_FILE ${config.contractsFile ?? '(unset)'} does not exist`);
    return {
      rpcUrl: config.chainRpcUrl,
      chainId: file.chainId,
      contracts: file.contracts,
      deployBlocks: deployBlocksOf(file),
    };
  }
  const service = readServiceFile(config.dataDir);
  const answer = service
    ? await fetch(`${service.url}/api/chain`)
        .then((r) => r.json() as Promise<{ data?: { chainId: number; rpcUrl?: string; contracts: ContractAddresses } }>)
        .catch(() => undefined)
    : undefined;
  const data = answer?.data;
  if (!data?.rpcUrl) {
    throw new CliFailure(
      `keys: no CHAIN_RPC_URL, and no service runs the local chain of ${config.dataDir}: start it (npm start), or set CHAIN_RPC_URL and CONTRACTS_FILE`,
    );
  }
  return { rpcUrl: data.rpcUrl, chainId: data.chainId, contracts: data.contracts, deployBlocks: undefined };
}

export async function runKeys(config: Config, json: boolean, out: (line: string) => void): Promise<void> {
  const target = await chainOf(config);
  const publicClient = createPublicClient({
    chain: makeViemChain(target.chainId, target.rpcUrl),
    transport: http(target.rpcUrl, { timeout: config.rpcTimeoutMs }),
  });
  const report = await readRoles({ publicClient, contracts: target.contracts, deployBlocks: target.deployBlocks });
  const keyOf = (key: `0x${string}` | undefined): Address =>
    key ? privateKeyToAccount(key).address : devAccount(0).address;
  const hotKeys = [...new Set([keyOf(config.platformPrivateKey), keyOf(config.oraclePrivateKey)])];
  const problems = hotKeyProblems(report, hotKeys, Number(OWNER_DELAY_S));
  if (json) {
    out(JSON.stringify({ chainId: target.chainId, hotKeys, ...report, problems }, null, 2));
    return;
  }
  out(`Chain ${target.chainId}. The service's keys: ${hotKeys.join(', ')}.`);
  if (report.ownerDelaySeconds !== null) {
    out(
      `Timelock ${target.contracts.timelock}: delay ${report.ownerDelaySeconds} s (${report.ownerDelaySeconds / 86_400} days).`,
    );
  }
  const hot = new Set(hotKeys);
  for (const p of report.powers) {
    const mark = hot.has(p.holder)
      ? p.daily
        ? '  (service key, daily)'
        : '  <- SERVICE KEY: should not hold this'
      : '';
    out(
      `  ${p.contract.padEnd(19)} ${(p.daily ? 'daily' : 'owner').padEnd(6)} ${p.power.padEnd(48)} ${p.holder}${mark}`,
    );
  }
  out(
    problems.length === 0 ? "No key of the service holds an owner's power." : `Problems:\n  ${problems.join('\n  ')}`,
  );
}
