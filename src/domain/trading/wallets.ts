// Agent wallets as signers (docs/api/agents.md "Custody"): each agent's key comes from the wallet provider (derived
// from WALLET_MASTER_SEED by default, an MPC service behind the same interface), and every transaction it signs goes
// through an outbox of its own address, so it is recorded signed before it is broadcast and sent once across
// crashes. The platform sponsors the gas: a wallet below half of AGENT_GAS_FLOOR_WEI is topped up to it by the
// platform key, and the gas of every agent transaction counts against its company's daily gas budget.
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import { onChain } from '../../chain/errors.ts';
import { createOutbox, type Outbox } from '../../chain/outbox.ts';
import { agents } from '../../db/schema/agents.ts';
import { chainTxs } from '../../db/schema/chain.ts';
import { badRequest } from '../../errors.ts';
import type { Deps } from '../deps.ts';

export type WalletDeps = Pick<Deps, 'database' | 'chain' | 'wallets' | 'outbox' | 'config'>;

export interface AgentWallet {
  agentId: string;
  companyId: string | null;
  address: Address;
  walletIndex: number;
}

const outboxes = new WeakMap<object, WeakMap<object, Map<string, Outbox>>>();

/**
 * The outbox signing as the agent wallet, made once per chain, database and address. Nonces are handed out under
 * a database lock per address, so outboxes of one address in several processes never collide.
 */
export async function agentOutbox(deps: WalletDeps, wallet: AgentWallet): Promise<Outbox> {
  let byDatabase = outboxes.get(deps.chain);
  if (!byDatabase) {
    byDatabase = new WeakMap();
    outboxes.set(deps.chain, byDatabase);
  }
  let byAddress = byDatabase.get(deps.database);
  if (!byAddress) {
    byAddress = new Map();
    byDatabase.set(deps.database, byAddress);
  }
  const known = byAddress.get(wallet.address);
  if (known) return known;
  const account = await deps.wallets.accountOf(wallet.walletIndex);
  if (account.address.toLowerCase() !== wallet.address.toLowerCase()) {
    throw new Error(`wallet ${wallet.walletIndex} of agent ${wallet.agentId} signs as another address`);
  }
  const outbox = createOutbox({ db: deps.database.db, chain: deps.chain, wallet: deps.chain.walletOf(account) });
  byAddress.set(wallet.address, outbox);
  return outbox;
}

/** The wallet of an agent, or 400 when it has none (its identity was never completed). */
export function walletOf(agent: {
  id: string;
  companyId: string | null;
  walletIndex: number | null;
  onChainAddress: string | null;
}): AgentWallet {
  if (agent.walletIndex === null || !agent.onChainAddress) {
    throw badRequest(`Agent "${agent.id}" has no wallet yet: its identity was not completed`);
  }
  return {
    agentId: agent.id,
    companyId: agent.companyId,
    address: agent.onChainAddress as Address,
    walletIndex: agent.walletIndex,
  };
}

/**
 * Tops the wallet up to the gas floor when it holds less than half of it, once per `key` (a platform transaction
 * charged to the company). Returns the amount sent (0 when none was needed).
 */
export async function topUpGas(deps: WalletDeps, wallet: AgentWallet, key: string): Promise<bigint> {
  const floor = deps.config.agentGasFloorWei;
  const [sent] = await deps.database.db
    .select({ key: chainTxs.key })
    .from(chainTxs)
    .where(eq(chainTxs.key, `agent-gas:${key}`));
  if (!sent) {
    const balance = await onChain(() => deps.chain.publicClient.getBalance({ address: wallet.address }));
    if (balance * 2n >= floor) return 0n;
  }
  const receipt = await deps.outbox.send(
    `agent-gas:${key}`,
    async () => {
      const balance = await deps.chain.publicClient.getBalance({ address: wallet.address });
      return { to: wallet.address, data: '0x', value: floor > balance ? floor - balance : 0n };
    },
    { chargedTo: wallet.companyId ? [wallet.companyId] : [] },
  );
  if (receipt.status !== 'success') throw new Error(`the gas top-up of agent ${wallet.agentId} reverted`);
  return floor;
}

/**
 * After a reorg: what agent wallets saw mined in a block above `finalized` that left the chain is sent again, once
 * (Outbox.recheckMined). Returns how many transactions were orphaned.
 */
export async function recheckAgentWallets(deps: WalletDeps, finalized: bigint): Promise<number> {
  const signers = await deps.database.db
    .selectDistinct({
      id: agents.id,
      companyId: agents.companyId,
      walletIndex: agents.walletIndex,
      onChainAddress: agents.onChainAddress,
    })
    .from(chainTxs)
    .innerJoin(agents, sql`lower(${agents.onChainAddress}) = lower(${chainTxs.fromAddress})`)
    .where(
      and(
        isNotNull(agents.walletIndex),
        sql`(${chainTxs.status} = 'REORGED' or (${chainTxs.status} in ('MINED', 'REVERTED') and ${chainTxs.blockNumber} > ${finalized}))`,
      ),
    );
  let orphaned = 0;
  for (const agent of signers) {
    orphaned += (await (await agentOutbox(deps, walletOf(agent))).recheckMined(finalized)).length;
  }
  return orphaned;
}

/**
 * Re-broadcasts and settles what agent wallets signed but did not see mined (a crash between signing and
 * broadcasting, an outage): run with the platform's outbox on the scheduler. Returns how many were pending.
 */
export async function settleAgentWallets(deps: WalletDeps): Promise<number> {
  const pending = await deps.database.db
    .selectDistinct({
      id: agents.id,
      companyId: agents.companyId,
      walletIndex: agents.walletIndex,
      onChainAddress: agents.onChainAddress,
    })
    .from(chainTxs)
    .innerJoin(agents, sql`lower(${agents.onChainAddress}) = lower(${chainTxs.fromAddress})`)
    .where(and(eq(chainTxs.status, 'SENT'), isNotNull(agents.walletIndex)));
  let settled = 0;
  for (const agent of pending) {
    settled += await (await agentOutbox(deps, walletOf(agent))).settlePending();
  }
  return settled;
}
