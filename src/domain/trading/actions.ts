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
  type Capability,
  dailyAllowanceLeft,
  launcherApprovalCall,
  readMaxTrade,
  roleTx,
} from '../../chain/custody.ts';
import { RETRY_SUFFIX } from '../../chain/outbox.ts';
import { chainTime } from '../../chain/time.ts';
import { COMPANY_TOKEN_DECIMALS, TRADE_DEADLINE_S, TRADE_TOOLS, USDC_DECIMALS } from '../../constants.ts';
import { rowsOf, type Tx } from '../../db/client.ts';
import { agentActions, agents } from '../../db/schema/agents.ts';
import { chainTxs } from '../../db/schema/chain.ts';
import type { companies } from '../../db/schema/companies.ts';
import { AppError } from '../../errors.ts';
import { custodyLimits } from '../companies/custody.ts';
import { requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
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
import { type Limits, limitsOf } from './limits.ts';
import { refuse, TradeRefused } from './refusal.ts';
import { whileRoundRuns } from './round-guard.ts';
import { type AgentWallet, agentOutbox, topUpGas, type WalletDeps, walletOf } from './wallets.ts';

export type TradeDeps = WalletDeps & Pick<Deps, 'now'>;

export { TradeRefused };

export { TRADE_TOOLS };
export type TradeTool = (typeof TRADE_TOOLS)[number];

/** Gas each action is estimated at against the company's daily budget (approval included). */
const GAS_ESTIMATE: Record<TradeTool, bigint> = {
  buy_token: 400_000n,
  sell_token: 400_000n,
  stake_primary: 300_000n,
  unstake_primary: 250_000n,
  harvest_emission: 150_000n,
};

/**
 * The same through the company's Roles module, which adds about 40,000 to 95,000 gas a call (docs/contracts.md
 * "Custody": a first buy 203,028 and its USDC approval 107,947; a stake up to 191,583 and its approval about 108,000).
 */
const CUSTODY_GAS_ESTIMATE: Record<TradeTool, bigint> = {
  buy_token: 450_000n,
  sell_token: 400_000n,
  stake_primary: 400_000n,
  unstake_primary: 300_000n,
  harvest_emission: 250_000n,
};

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
    const estimate = (wallet.custody ? CUSTODY_GAS_ESTIMATE : GAS_ESTIMATE)[action.tool];
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
    await tx
      .insert(agentActions)
      .values({
        key,
        companyId: action.company.id,
        agentId: wallet.agentId,
        roundId: action.roundId,
        tool: action.tool,
        tokenAddress: token?.address ?? null,
        tokenCompanyId: token?.companyId ?? null,
        notionalUsdc: notional,
        day,
        chainAt: now,
        createdAt: now,
        status: 'SENT',
      })
      .onConflictDoNothing();
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
  try {
    const request = custody
      ? async () => {
          const { gas: _, ...call } = await build();
          return roleTx(custody.roles, role, call);
        }
      : build;
    receipt = await outbox.send(`${key}:tx`, request, options);
  } catch (err) {
    // Nothing was signed (the node refused to estimate it, say): the action no longer counts toward the day.
    const [signed] = await deps.database.db
      .select({ key: chainTxs.key })
      .from(chainTxs)
      .where(eq(chainTxs.key, `${key}:tx`));
    if (!signed) await deps.database.db.update(agentActions).set({ status: 'FAILED' }).where(eq(agentActions.key, key));
    throw err;
  }
  await deps.database.db
    .update(agentActions)
    .set({ txHash: receipt.transactionHash, status: receipt.status === 'success' ? 'MINED' : 'REVERTED' })
    .where(eq(agentActions.key, key));
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

/** An action of a finished round settled to its transaction; index is its place in the round. */
export interface SettledAction {
  key: string;
  roundId: string;
  index: number;
  role: string | null;
  tool: string;
  status: 'MINED' | 'REVERTED' | 'FAILED';
  txHash: string | null;
  /** FAILED because its transaction was DROPPED (another took its nonce), not because none was signed. */
  dropped: boolean;
  /**
   * Its transaction was mined in a block a reorg orphaned and the outbox sent it again (chain_txs.note says so): the
   * hash it has now (signed anew when its nonce was taken), or FAILED with that note when sent again it would revert.
   */
  reorged: string | null;
  /** What was signed for it besides its own transaction: 'gas top-up', 'approval'. */
  signed: string[];
}

/**
 * Makes the actions of rounds no longer RUNNING follow their transactions as the outbox settled them: MINED or
 * REVERTED with the hash that ran (its out-of-gas retry's when there is one), FAILED when DROPPED or never signed
 * (no longer counting toward the day's notional). Rows are locked, so two settling replicas change each once.
 * `roundId`: that round's actions only.
 */
export async function settleActions(tx: Tx, roundId?: string): Promise<SettledAction[]> {
  type Row = { key: string; round_id: string; tool: string; role: string | null; status: string };
  type Signed = {
    tx_hash: string | null;
    signed_status: string | null;
    signed_hash: string | null;
    signed_note: string | null;
  };
  const rows = rowsOf<Row & Signed & { approved: boolean; topped: boolean }>(
    await tx.execute(sql`
      select x.key, x.round_id, x.tool, a.role, x.status, x.tx_hash, t.status as signed_status, t.hash as signed_hash,
        t.note as signed_note,
        exists (select 1 from ${chainTxs} c where c.key = x.key || ':approve') as approved,
        exists (select 1 from ${chainTxs} c where c.key = 'agent-gas:' || x.key) as topped
      from ${agentActions} x
      join decision_rounds r on r.id = x.round_id and r.status <> 'RUNNING'
      left join ${agents} a on a.id = x.agent_id
      left join lateral (
        select c.status, c.hash, c.note from ${chainTxs} c
        where c.key in (x.key || ':tx', x.key || ${`:tx${RETRY_SUFFIX}`})
        order by length(c.key) desc limit 1) t on true
      where (x.status in ('SENT', 'REVERTED')
        -- Seen mined, then orphaned by a reorg and sent again by the outbox (its note says so): the action follows
        -- the hash mined now, or fails with the note. Found through the outbox's few noted rows.
        or (x.status = 'MINED' and x.key in (
          select regexp_replace(c.key, ${`:tx(${RETRY_SUFFIX})?$`}, '') from ${chainTxs} c
          where c.note is not null and c.key like 'agent:%')))
        and x.round_id ${roundId === undefined ? sql`is not null` : sql`= ${roundId}`}
      for update of x skip locked`),
  );
  const settled: SettledAction[] = [];
  for (const r of rows) {
    const signedOk = r.signed_status === 'MINED' || r.signed_status === 'REVERTED';
    const failed =
      r.signed_status === 'DROPPED' ||
      r.signed_status === 'FAILED' ||
      (r.signed_status === null && r.status === 'SENT');
    // Its transaction still SENT: settled on a later pass.
    const status = signedOk ? (r.signed_status as 'MINED' | 'REVERTED') : failed ? 'FAILED' : undefined;
    const txHash = status === 'FAILED' ? null : r.signed_hash;
    if (status === undefined || (status === r.status && txHash === r.tx_hash)) continue;
    const signed = [...(r.topped ? ['gas top-up'] : []), ...(r.approved ? ['approval'] : [])];
    const index = Number(r.key.split(':').at(-1));
    const dropped = r.signed_status === 'DROPPED';
    settled.push({
      key: r.key,
      roundId: r.round_id,
      index,
      role: r.role,
      tool: r.tool,
      status,
      txHash,
      dropped,
      reorged: r.signed_note,
      signed,
    });
  }
  if (settled.length > 0) {
    await tx.execute(sql`
      update ${agentActions} x set status = s.status, tx_hash = s.hash
      from unnest(${`{${settled.map((s) => s.key).join(',')}}`}::text[],
        ${`{${settled.map((s) => s.status).join(',')}}`}::text[],
        ${`{${settled.map((s) => s.txHash ?? 'NULL').join(',')}}`}::text[]) as s(key, status, hash)
      where x.key = s.key`);
  }
  return settled;
}
