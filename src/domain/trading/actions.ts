// What an agent does with the company's money in a decision round (docs/api/decisions.md "Trading tools"): buy or sell a
// company token through the launcher (the curve while bonding, the v4 pool after graduation), stake or unstake the
// primary token, harvest the emission. Every target comes from the contracts file or the database; a model only
// names a token by its symbol and an amount. Before anything is signed, the action is checked against the
// company's limits (limits.ts), a buy against the buy rules (buy-rules.ts), the wallet's balance and the daily gas
// budget; a check that fails refuses the
// action with its reason (TradeRefused) and nothing is sent. What passes is recorded (agent_actions) and sent
// through the agent's outbox under keys of the round and the action, so a crash at any point sends it once.
// A company with custody (custody.ts) acts from its Safe: every call, approvals included, is the agent key's
// `execTransactionWithRole` on the company's Roles module, the Safe the holder and the recipient; the module's own
// limits (the daily allowance, the largest buy) are checked here first, so they too refuse with a sentence.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { type Address, formatUnits, parseUnits, type TransactionReceipt } from 'viem';
import { requireContract } from '../../chain/contracts/addresses.ts';
import { launcherAddress } from '../../chain/contracts/launcher.ts';
import { approveCall, quoteTrade, readHoldings, stakingCall, tradeCall } from '../../chain/contracts/wallet-actions.ts';
import {
  dailyAllowanceLeft,
  launcherApprovalCall,
  type RoleCall,
  readMaxTrade,
  roleTx,
  withSafeCallReason,
} from '../../chain/custody-roles.ts';
import type { Capability } from '../../chain/custody-scopes.ts';
import { chainTime } from '../../chain/time.ts';
import { COMPANY_TOKEN_DECIMALS, TRADE_DEADLINE_S, TRADE_TOOLS, USDC_DECIMALS } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { agentActions, agents } from '../../db/schema/agents.ts';
import { chainTxs } from '../../db/schema/chain.ts';
import type { companies } from '../../db/schema/companies.ts';
import { AppError } from '../../errors.ts';
import { custodyLimits } from '../companies/custody.ts';
import { requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { markAction, recordAction } from './action-records.ts';
import {
  type BuyWindow,
  checkBuyRules,
  checkNamedBeforeLaunch,
  checkPosition,
  requireSignedSettings,
  tokenNamed,
} from './buy-checks.ts';
import { windowBroken } from './buy-window.ts';
import { type CustodyColumns, type TradingCustody, tradingCustody } from './custody.ts';
import { actionGasEstimate } from './gas-estimate.ts';
import { type Limits, limitsOf } from './limits.ts';
import { refuse, TradeRefused } from './refusal.ts';
import { whileRoundRuns } from './round-guard.ts';
import { type AgentWallet, agentOutbox, topUpGas, type WalletDeps, walletOf } from './wallets.ts';

export type TradeDeps = WalletDeps & Pick<Deps, 'now'>;

export { TradeRefused };

export { TRADE_TOOLS };
export type TradeTool = (typeof TRADE_TOOLS)[number];

export interface AgentAction {
  /** The custody columns when the caller read them (the round's company row); read here when absent. */
  company: CustodyColumns & { toolkitConfig: typeof companies.$inferSelect.toolkitConfig };
  role: string;
  tool: TradeTool;
  args: Record<string, unknown>;
  /** Unique per action: `<roundId>:<index>`. */
  key: string;
  roundId: string | null;
  /**
   * The acting agent as the caller read it (a decision round reads its world once): its wallet then needs no
   * second read; null when the round found no active agent in the role. Read here when absent.
   */
  agent?: { id: string; companyId: string | null; walletIndex: number | null; onChainAddress: string | null } | null;
  /** The wallets of the company's agents, for the position limit, as the caller read them; read here when absent. */
  teamAddresses?: Address[];
}

const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);
const tokens = (v: bigint) => formatUnits(v, COMPANY_TOKEN_DECIMALS);

/** Runs one trading action of a round; the text says what it did, with its transaction hash. */
export async function runAgentAction(deps: TradeDeps, action: AgentAction): Promise<string> {
  const agent =
    action.agent !== undefined
      ? action.agent
      : (
          await deps.database.db
            .select()
            .from(agents)
            .where(
              and(eq(agents.companyId, action.company.id), eq(agents.role, action.role), eq(agents.status, 'ACTIVE')),
            )
        )[0];
  if (!agent) return refuse(`no active ${action.role} to act`);
  if (agent.walletIndex === null || !agent.onChainAddress) return refuse(`the ${action.role} has no wallet yet`);
  await requireSignedSettings(deps, action.company.id);
  const wallet: Actor = { ...walletOf(agent), custody: await tradingCustody(deps, action.company) };
  const limits = limitsOf(action.company.toolkitConfig);
  switch (action.tool) {
    case 'buy_token':
    case 'sell_token':
      return trade(deps, action, wallet, limits);
    default:
      return stake(deps, action, wallet, limits);
  }
}

/** The acting agent's key, and the company's custody when it acts through its Safe. */
type Actor = AgentWallet & { custody: TradingCustody | null };

/** The address whose money an action spends and receives: the company's Safe, or the agent's own wallet. */
const holderOf = (actor: Actor) => actor.custody?.safe ?? actor.address;
const holderName = (actor: Actor) => (actor.custody ? "the company's Safe" : 'the wallet');

async function teamOf(deps: TradeDeps, action: AgentAction, actor: Actor): Promise<Address[]> {
  const wallets =
    action.teamAddresses ??
    (
      await deps.database.db
        .select({ address: agents.onChainAddress })
        .from(agents)
        .where(and(eq(agents.companyId, action.company.id), sql`${agents.onChainAddress} is not null`))
    ).map((a) => a.address as Address);
  // What the company's Safe holds is the team's too.
  const safe = actor.custody?.safe;
  return safe && !wallets.some((w) => w.toLowerCase() === safe.toLowerCase()) ? [...wallets, safe] : wallets;
}

/** `all` or a decimal string of 18-decimal tokens, at most `held` by `holder`; `verb` and `unit` word a refusal. */
function tokenAmount(value: unknown, held: bigint, verb: string, unit: string, holder = 'the wallet'): bigint {
  const amount = value === 'all' ? held : parseUnits(String(value), COMPANY_TOKEN_DECIMALS);
  if (amount <= 0n) return refuse(`nothing to ${verb}: the amount is 0`);
  if (amount > held) return refuse(`cannot ${verb} ${tokens(amount)} ${unit}: ${holder} holds ${tokens(held)}`);
  return amount;
}

/**
 * The checks every action shares (the day's notional, the company's gas budget), then the action's record and the
 * gas top-up; returns the action's key. The same action run again (a retry) does not count against itself.
 */
async function admit(
  deps: TradeDeps,
  action: AgentAction,
  wallet: Actor,
  limits: Limits,
  notional: bigint,
  token: { address: Address; companyId: string } | null,
  window?: BuyWindow,
): Promise<string> {
  // Dated by the chain's clock, as its round is, so the app counts every time from one clock.
  const now = new Date(Number(await chainTime(deps.chain.publicClient)) * 1000);
  const day = now.toISOString().slice(0, 10);
  const key = `agent:${action.key}`;
  if (notional > 0n) {
    const [row] = await deps.database.db
      .select({ sum: sql<string>`coalesce(sum(${agentActions.notionalUsdc}), 0)::text` })
      .from(agentActions)
      .where(
        and(
          eq(agentActions.companyId, action.company.id),
          eq(agentActions.day, day),
          inArray(agentActions.status, ['SENT', 'MINED']),
          ne(agentActions.key, key),
        ),
      );
    const used = BigInt(row?.sum ?? '0');
    if (used + notional > limits.maxDailyNotional) {
      refuse(
        `over the daily limit: ${usdc(used)} of ${usdc(limits.maxDailyNotional)} USDC traded today, this trade is ${usdc(notional)}`,
      );
    }
  }
  try {
    const estimate = actionGasEstimate(action.tool, wallet.custody !== null);
    await requireGasBudget(deps, action.company.id, estimate, action.tool);
  } catch (err) {
    if (err instanceof AppError && err.code === 'GAS_BUDGET_EXCEEDED') refuse(err.message);
    throw err;
  }
  // A windowed buy is checked and recorded under its token's lock, so two rounds never both take the last room.
  const record = async (tx: Tx) => {
    if (window && token) {
      const buy = { ...window, key, companyId: action.company.id, token: token.address, notional, now };
      const broken = await windowBroken(tx, buy);
      if (broken) refuse(broken);
    }
    await recordAction(tx, {
      key,
      companyId: action.company.id,
      agentId: wallet.agentId,
      roundId: action.roundId,
      tool: action.tool,
      token,
      notional,
      day,
      now,
    });
  };
  if (window) await deps.database.db.transaction(record);
  else await record(deps.database.db);
  await topUpGas(deps, wallet, key);
  return key;
}

/**
 * Sends `spender` an approval of `amount` first when the allowance is short, then the action's transaction; each
 * only while the action's round is RUNNING (round-guard.ts). With custody each goes through the company's Roles
 * module as `role`; a company token's approval of the launcher is LauncherApprover's (the role may approve the
 * launcher for any token that way, and for no other spender).
 */
async function send(
  deps: TradeDeps,
  wallet: Actor,
  action: AgentAction,
  role: Capability,
  approval: { token: Address; spender: Address; amount: bigint; allowance: bigint } | undefined,
  build: () => Promise<{ to: Address; data: `0x${string}`; gas?: bigint; gasFloor?: bigint }>,
): Promise<TransactionReceipt> {
  const key = `agent:${action.key}`;
  const outbox = await agentOutbox(deps, wallet);
  const chargedTo = wallet.companyId ? [wallet.companyId] : [];
  const options = { chargedTo, ...(action.roundId && { beforeSign: whileRoundRuns(action.roundId) }) };
  const custody = wallet.custody;
  if (approval && approval.allowance < approval.amount) {
    const launcher = launcherAddress(deps.chain);
    const usdcAddress = requireContract(deps.chain.contracts, 'usdc');
    const approve = () =>
      !custody
        ? approveCall(approval.token, approval.spender, approval.amount)
        : roleTx(
            custody.roles,
            role,
            approval.spender === launcher && approval.token.toLowerCase() !== usdcAddress.toLowerCase()
              ? launcherApprovalCall(deps.chain.contracts, approval.token, approval.amount)
              : approveCall(approval.token, approval.spender, approval.amount),
          );
    const approved = await outbox.send(`${key}:approve`, approve, options);
    if (approved.status !== 'success') throw new Error(`the approval reverted (${approved.transactionHash})`);
  }
  let receipt: TransactionReceipt;
  let call: RoleCall | undefined;
  try {
    const request = custody
      ? async () => {
          const { gas: _, ...built } = await build();
          call = built;
          return roleTx(custody.roles, role, built);
        }
      : build;
    receipt = await outbox.send(`${key}:tx`, request, options);
  } catch (err) {
    // Nothing was signed (the node refused to estimate it, say): the action no longer counts toward the day.
    const [signed] = await deps.database.db
      .select({ key: chainTxs.key })
      .from(chainTxs)
      .where(eq(chainTxs.key, `${key}:tx`));
    if (!signed) await markAction(deps.database.db, key, { status: 'FAILED' });
    throw custody && call ? await withSafeCallReason(deps.chain, custody.safe, call, err) : err;
  }
  await markAction(deps.database.db, key, {
    txHash: receipt.transactionHash,
    status: receipt.status === 'success' ? 'MINED' : 'REVERTED',
  });
  return receipt;
}

const outcome = (receipt: TransactionReceipt, done: string) =>
  receipt.status === 'success'
    ? `${done}, tx ${receipt.transactionHash}`
    : `reverted on-chain (nothing changed but the gas), tx ${receipt.transactionHash}`;

async function trade(deps: TradeDeps, action: AgentAction, wallet: Actor, limits: Limits): Promise<string> {
  const target = await tokenNamed(deps, action.args.token);
  await checkNamedBeforeLaunch(deps, action, target);
  const isBuy = action.tool === 'buy_token';
  const usdcAddress = requireContract(deps.chain.contracts, 'usdc');
  const launcher = launcherAddress(deps.chain);
  const spent = isBuy ? usdcAddress : target.address;
  const holder = holderOf(wallet);
  const holdings = await readHoldings(deps.chain, holder, [target.address], [{ token: spent, spender: launcher }]);
  const held = holdings.tokens.get(target.address) ?? 0n;
  let amountIn: bigint;
  if (isBuy) {
    amountIn = parseUnits(String(action.args.usdc), USDC_DECIMALS);
    if (amountIn <= 0n) refuse('nothing to buy: the amount is 0');
    if (amountIn > holdings.usdc)
      refuse(`cannot spend ${usdc(amountIn)} USDC: ${holderName(wallet)} holds ${usdc(holdings.usdc)}`);
    const cap = (holdings.usdc * BigInt(limits.maxTradeBps)) / 10_000n;
    if (amountIn > cap) {
      refuse(
        `over the per-trade limit: at most ${usdc(cap)} USDC (${limits.maxTradeBps / 100}% of the ${wallet.custody ? "Safe's" : "wallet's"} ${usdc(holdings.usdc)})`,
      );
    }
    if (wallet.custody) await checkModuleLimits(deps, action, wallet.custody, amountIn);
  } else {
    amountIn = tokenAmount(action.args.amount, held, 'sell', target.symbol, holderName(wallet));
  }
  const quoted = await quoteTrade(deps.chain, isBuy ? 'buy' : 'sell', target.address, amountIn);
  if (quoted <= 0n) refuse(`the launcher quotes nothing for this ${isBuy ? 'buy' : 'sale'}`);
  const notional = isBuy ? amountIn : quoted;
  let window: BuyWindow | undefined;
  if (isBuy) {
    const team = await teamOf(deps, action, wallet);
    await checkPosition(deps, target, team, quoted, limits);
    window = await checkBuyRules(deps, action, target, amountIn, team);
  }
  const minOut = (quoted * BigInt(10_000 - limits.maxSlippageBps)) / 10_000n;
  await admit(deps, action, wallet, limits, notional, target, window);
  const receipt = await send(
    deps,
    wallet,
    action,
    'trade',
    { token: spent, spender: launcher, amount: amountIn, allowance: holdings.allowances.get(`${spent}|${launcher}`)! },
    async () => {
      const deadline = (await chainTime(deps.chain.publicClient)) + TRADE_DEADLINE_S;
      return tradeCall(deps.chain, isBuy ? 'buy' : 'sell', target.address, amountIn, minOut, deadline);
    },
  );
  return outcome(
    receipt,
    isBuy
      ? `bought about ${tokens(quoted)} ${target.symbol} for ${usdc(amountIn)} USDC (at least ${tokens(minOut)})`
      : `sold ${tokens(amountIn)} ${target.symbol} for about ${usdc(quoted)} USDC (at least ${usdc(minOut)})`,
  );
}

/**
 * A buy through the company's Roles module, checked against the module's own limits before anything is signed: the
 * largest buy it holds now (the company's limits pushed to it, readMaxTrade; the settings' own figure when it cannot
 * be read) and what its daily allowance holds now, refills included.
 */
async function checkModuleLimits(deps: TradeDeps, action: AgentAction, custody: TradingCustody, amountIn: bigint) {
  const maxTrade =
    (await readMaxTrade(deps.chain, deps.chain.contracts, custody.roles)) ??
    custodyLimits(action.company.toolkitConfig).maxTrade;
  if (amountIn > maxTrade) {
    refuse(`over the company's on-chain per-trade cap: at most ${usdc(maxTrade)} USDC a buy through its Roles module`);
  }
  const now = await chainTime(deps.chain.publicClient);
  const left = await dailyAllowanceLeft(deps.chain, custody.roles, now);
  if (amountIn > left) {
    refuse(
      `over the company's on-chain daily allowance: ${usdc(left)} USDC left today on its Roles module, this trade is ${usdc(amountIn)}`,
    );
  }
}

async function stake(deps: TradeDeps, action: AgentAction, wallet: Actor, limits: Limits): Promise<string> {
  const primary = requireContract(deps.chain.contracts, 'primaryToken');
  const staking = requireContract(deps.chain.contracts, 'staking');
  const holder = holderOf(wallet);
  const holdings = await readHoldings(deps.chain, holder, [], [{ token: primary, spender: staking }]);
  if (action.tool === 'harvest_emission') {
    if (holdings.pendingEmission === 0n) refuse('no emission to harvest');
    await admit(deps, action, wallet, limits, 0n, null);
    const receipt = await send(deps, wallet, action, 'stake', undefined, async () =>
      stakingCall(deps.chain, 'harvest'),
    );
    return outcome(receipt, `harvested about ${tokens(holdings.pendingEmission)} of the emission token`);
  }
  if (action.tool === 'unstake_primary') {
    const amount = tokenAmount(
      action.args.amount,
      holdings.staked,
      'unstake',
      'staked primary tokens',
      holderName(wallet),
    );
    await admit(deps, action, wallet, limits, 0n, null);
    const receipt = await send(deps, wallet, action, 'stake', undefined, async () =>
      stakingCall(deps.chain, 'withdraw', amount),
    );
    return outcome(receipt, `unstaked ${tokens(amount)} of the primary token`);
  }
  const amount = tokenAmount(action.args.amount, holdings.primary, 'stake', 'primary tokens', holderName(wallet));
  const cap = (holdings.primary * BigInt(limits.maxTradeBps)) / 10_000n;
  if (amount > cap) {
    refuse(
      `over the per-trade limit: at most ${tokens(cap)} of the primary token (${limits.maxTradeBps / 100}% of the ${wallet.custody ? "Safe's" : "wallet's"} ${tokens(holdings.primary)})`,
    );
  }
  await admit(deps, action, wallet, limits, 0n, null);
  const receipt = await send(
    deps,
    wallet,
    action,
    'stake',
    { token: primary, spender: staking, amount, allowance: holdings.allowances.get(`${primary}|${staking}`)! },
    async () => stakingCall(deps.chain, 'deposit', amount),
  );
  return outcome(receipt, `staked ${tokens(amount)} of the primary token`);
}
