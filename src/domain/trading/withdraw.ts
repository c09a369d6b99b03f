// POST /api/agents/{id}/withdraw: the creator takes an agent's funds back to the company's treasury address. The
// agent's stake is unstaked and its emission harvested, then every platform token the wallet holds (USDC, the
// primary and emission tokens, each company token it ever traded and its own company's token) is sent to the
// treasury. Each step is a transaction of the agent's outbox keyed by the block its balances were read at, and
// what the wallet signed earlier is settled first, so a call after a crash finishes the withdrawal and sends
// nothing twice. Works for any agent with a wallet, terminated or not: funds are never stuck. The native currency
// stays: it is the platform's gas float, not the company's money.
import { eq } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { requireContract } from '../../chain/contracts/addresses.ts';
import { readHoldings, stakingCall, transferCall } from '../../chain/contracts/wallet-actions.ts';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { companies } from '../../db/schema/companies.ts';
import { traderPositions } from '../../db/schema/tokens.ts';
import { badRequest } from '../../errors.ts';
import { requireHolder } from '../agents/commands.ts';
import { getAgent } from '../agents/queries.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { agentOutbox, topUpGas, type WalletDeps, walletOf } from './wallets.ts';

export interface Transfer {
  asset: 'USDC' | 'PRIMARY' | 'EMISSION' | 'COMPANY_TOKEN';
  token: Address;
  symbol: string | null;
  /** Decimal string in the token's units. */
  amount: string;
  txHash: string;
}

export interface Withdrawal {
  agentId: string;
  treasuryAddress: string;
  unstaked: string;
  harvested: string;
  transfers: Transfer[];
}

export async function withdrawAgentFunds(
  deps: WalletDeps & Pick<Deps, 'now'>,
  agentId: string,
  signer: string,
): Promise<Withdrawal> {
  const db = deps.database.db;
  // The creator, who holds the company's card on-chain now (not only in the index).
  await requireHolder(deps, agentId, signer);
  const { agent } = await getAgent(db, agentId);
  const [company] = agent.companyId
    ? await db
        .select({ id: companies.id, treasury: companies.treasuryAddress, token: companies.tokenAddress })
        .from(companies)
        .where(eq(companies.id, agent.companyId))
    : [];
  if (!company?.treasury) {
    throw badRequest(
      company
        ? `Company "${company.id}" has no treasury address: set one (PATCH /api/companies/{id}) before withdrawing`
        : `Agent "${agentId}" belongs to no company, so there is no treasury to withdraw to`,
    );
  }
  // Inside the company's daily gas budget like every transaction the platform pays for, so an agent cannot drain the platform's gas: the unstake,
  // harvest, transfers and gas top-ups of one withdrawal, estimated at their worst.
  await requireGasBudget(deps, company.id, PLATFORM_GAS_ESTIMATES.withdrawal, 'a withdrawal');
  const treasury = company.treasury as Address;
  const swept = await sweepAgentWallet(deps, agent, { id: company.id, token: company.token }, treasury);
  return { agentId: agent.id, treasuryAddress: treasury, ...swept };
}

/**
 * Empties an agent's wallet into `destination`: its stake unstaked and its emission harvested, then every platform
 * token it holds (USDC, the primary and emission tokens, each company token it ever traded and its company's own
 * token) transferred, each step a transaction of the agent's outbox keyed by the block its balances were read at,
 * after what the wallet signed before is settled. Run again after an interruption it finishes and sends nothing
 * twice. The native gas float stays. Used by the creator's withdrawal (to the treasury) and by a company's move into
 * its Safe (to the Safe). `beforeFirstSend` runs once before the first new transaction and may refuse it (the move's
 * per-wallet gas budget check); what was signed before is settled either way.
 */
export async function sweepAgentWallet(
  deps: WalletDeps,
  agent: { id: string; companyId: string | null; walletIndex: number | null; onChainAddress: string | null },
  company: { id: string; token: string | null },
  destination: Address,
  options: { beforeFirstSend?: () => Promise<void> } = {},
): Promise<Omit<Withdrawal, 'agentId' | 'treasuryAddress'>> {
  const db = deps.database.db;
  // Called once, before the first new transaction (none for a wallet with nothing to sweep): the move's gas budget.
  let checked = false;
  const beforeSend = async () => {
    if (checked) return;
    checked = true;
    await options.beforeFirstSend?.();
  };
  const treasury = destination;
  const wallet = walletOf(agent);
  const outbox = await agentOutbox(deps, wallet);
  await outbox.settlePending();
  const chargedTo = [company.id];
  const c = deps.chain.contracts;
  const held = await db
    .select({ token: traderPositions.tokenAddress, symbol: companies.tokenSymbol })
    .from(traderPositions)
    .innerJoin(companies, eq(companies.id, traderPositions.companyId))
    .where(eq(traderPositions.trader, wallet.address.toLowerCase()));
  const companyTokens = new Map<Address, string | null>(held.map((h) => [h.token as Address, h.symbol]));
  if (company.token && !companyTokens.has(company.token as Address)) companyTokens.set(company.token as Address, null);

  // Keys name the block the balances were read at: a later withdrawal (or a retry after a crash, once what was
  // signed before is settled above) reads anew and makes new transactions for what is left.
  const first = await readHoldings(deps.chain, wallet.address);
  let unstaked = 0n;
  let harvested = 0n;
  if (first.staked > 0n || first.pendingEmission > 0n) {
    const key = `withdraw:${agent.id}:${first.block}`;
    await beforeSend();
    await topUpGas(deps, wallet, `${key}:stake`);
    if (first.staked > 0n) {
      const unstake = () => stakingCall(deps.chain, 'withdraw', first.staked);
      const r = await outbox.send(`${key}:unstake`, unstake, { chargedTo });
      if (r.status === 'success') unstaked = first.staked;
    }
    const r = await outbox.send(`${key}:harvest`, () => stakingCall(deps.chain, 'harvest'), { chargedTo });
    if (r.status === 'success') harvested = first.pendingEmission;
  }

  const tokens = [...companyTokens.keys()];
  const now = await readHoldings(deps.chain, wallet.address, tokens);
  const key = `withdraw:${agent.id}:${now.block}`;
  const assets: Omit<Transfer, 'txHash' | 'amount'>[] = [
    { asset: 'USDC', token: requireContract(c, 'usdc'), symbol: 'USDC' },
    ...(c.primaryToken ? [{ asset: 'PRIMARY' as const, token: c.primaryToken, symbol: null }] : []),
    ...(c.emissionToken ? [{ asset: 'EMISSION' as const, token: c.emissionToken, symbol: null }] : []),
    ...tokens.map((token) => ({ asset: 'COMPANY_TOKEN' as const, token, symbol: companyTokens.get(token) ?? null })),
  ];
  const balanceOf = (a: (typeof assets)[number]) =>
    a.asset === 'USDC'
      ? now.usdc
      : a.asset === 'PRIMARY'
        ? now.primary
        : a.asset === 'EMISSION'
          ? now.emission
          : (now.tokens.get(a.token) ?? 0n);
  const transfers: Transfer[] = [];
  const due = assets.filter((a) => balanceOf(a) > 0n);
  if (due.length > 0) {
    await beforeSend();
    await topUpGas(deps, wallet, `${key}:transfers`);
  }
  for (const a of due) {
    const amount = balanceOf(a);
    const receipt = await outbox.send(`${key}:${a.token}`, () => transferCall(a.token, treasury, amount), {
      chargedTo,
    });
    if (receipt.status !== 'success')
      throw new Error(`the transfer of ${a.token} reverted (${receipt.transactionHash})`);
    transfers.push({
      ...a,
      amount: formatUnits(amount, a.asset === 'USDC' ? USDC_DECIMALS : COMPANY_TOKEN_DECIMALS),
      txHash: receipt.transactionHash,
    });
  }
  return {
    unstaked: formatUnits(unstaked, COMPANY_TOKEN_DECIMALS),
    harvested: formatUnits(harvested, COMPANY_TOKEN_DECIMALS),
    transfers,
  };
}
