// The identity pipeline of an agent (deploy-suite): a wallet from the wallet provider, an ERC-8004 identity
// registered by the platform, and the agent wallet proven to the registry with the wallet's own EIP-712
// signature. Every step checks what is already done first, and on-chain steps go through the outbox, so
// running the pipeline again (after a failure, a crash, or concurrently) finishes it without doing anything twice.

import { eq } from 'drizzle-orm';
import { type Address, isAddressEqual } from 'viem';
import {
  agentWalletOf,
  agentWalletTypedData,
  identityRegistryAddress,
  registerCall,
  registeredAgentId,
  setAgentWalletCall,
} from '../../chain/contracts/identity.ts';
import { describeChainError } from '../../chain/revert.ts';
import { chainTime } from '../../chain/time.ts';
import { agents } from '../../db/schema/agents.ts';
import { isChainUnavailable } from '../../errors.ts';
import { markActive, markFailed, recordIdentity, recordWallet, takeWalletIndex } from '../agents/store.ts';
import type { Deps } from '../deps.ts';

export type PipelineDeps = Pick<Deps, 'chain' | 'database' | 'outbox' | 'wallets' | 'config'>;

export interface PipelineResult {
  status: 'ACTIVE' | 'FAILED';
  errors: string[];
}

/** Seconds the agent-wallet signature stays valid; the registry accepts at most 300. */
const WALLET_PROOF_TTL_S = 240n;

export const agentRegistrationUri = (baseUrl: string, agentId: string) =>
  `${baseUrl}/api/agents/${agentId}/registration.json`;

/**
 * A message safe to show the caller and to store: no RPC URLs or request bodies from deep inside viem, custom errors
 * decoded, and no text PostgreSQL refuses.
 */
function describe(err: unknown): string {
  if (isChainUnavailable(err)) return 'the chain RPC did not answer; deploy-suite retries this agent';
  return describeChainError(err);
}

/** A company agent's identity is paid for by its company's budget; a stand-alone agent's by the platform. */
const chargedTo = (agent: { companyId: string | null }) => (agent.companyId ? [agent.companyId] : []);

export async function provisionAgent(deps: PipelineDeps, agentId: string): Promise<PipelineResult> {
  const db = deps.database.db;
  try {
    // 1. Wallet: a fresh BIP-32 index from the sequence, taken once (the WHERE makes a concurrent run a no-op).
    await takeWalletIndex(db, agentId);
    const [agent] = await db.select().from(agents).where(eq(agents.id, agentId));
    if (!agent) throw new Error(`agent ${agentId} vanished`);
    const walletIndex = agent.walletIndex!;
    const wallet = await deps.wallets.addressOf(walletIndex);
    if (agent.onChainAddress === null) {
      await recordWallet(db, agentId, wallet);
    }

    // 2. ERC-8004 identity, registered by the platform with the agent's registration file as its URI.
    const registry = identityRegistryAddress(deps.chain);
    let tokenId: bigint;
    if (agent.erc8004TokenId === null) {
      const receipt = await deps.outbox.send(
        `agent-register:${agentId}`,
        () => registerCall(deps.chain, agentRegistrationUri(deps.config.baseUrl, agentId)),
        { chargedTo: chargedTo(agent) },
      );
      if (receipt.status !== 'success') throw new Error(`identity registration reverted (${receipt.transactionHash})`);
      tokenId = registeredAgentId(receipt, registry);
      await recordIdentity(db, agentId, tokenId, registry);
    } else {
      tokenId = BigInt(agent.erc8004TokenId);
    }

    // 3. The registry's agentWallet: proven by the agent wallet's own signature, unless it already is.
    await proveAgentWallet(deps, registry, tokenId, walletIndex, wallet, agent);

    await markActive(db, agentId);
    return { status: 'ACTIVE', errors: [] };
  } catch (err) {
    const errors = [describe(err)];
    await markFailed(db, agentId, errors);
    return { status: 'FAILED', errors };
  }
}

async function proveAgentWallet(
  deps: PipelineDeps,
  registry: Address,
  tokenId: bigint,
  walletIndex: number,
  wallet: Address,
  agent: { id: string; companyId: string | null },
) {
  const agentId = agent.id;
  const read = () => agentWalletOf(deps.chain, tokenId);
  if (isAddressEqual(await read(), wallet)) return;
  const owner = deps.chain.platform.account.address;
  // The registry checks the deadline against its block's time, so it is counted from the chain's clock.
  const deadline = (await chainTime(deps.chain.publicClient)) + WALLET_PROOF_TTL_S;
  const signature = await deps.wallets.signTypedData(
    walletIndex,
    agentWalletTypedData(registry, deps.chain.chainId, tokenId, wallet, owner, deadline),
  );
  // Keyed by deadline: a proof that expired before it was mined is replaced by a new one, and setting the same
  // wallet twice changes nothing, so a retry is always safe.
  const receipt = await deps.outbox.send(
    `agent-wallet:${agentId}:${deadline}`,
    () => setAgentWalletCall(deps.chain, { tokenId, wallet, deadline, signature }),
    { chargedTo: chargedTo(agent) },
  );
  if (receipt.status !== 'success' && !isAddressEqual(await read(), wallet)) {
    throw new Error(`setting the agent wallet reverted (${receipt.transactionHash})`);
  }
}
