// The checks of a buy or sale's target before anything is signed (actions.ts): the token a symbol names, that it
// is the token the directive naming it meant when its text was signed, the position limit, and the buy rules (buy-rules.ts) unless the
// creator's signed directive names the token, whose cross-round part (buy-window.ts) is checked where the buy is
// recorded.
import { and, eq, ne, sql } from 'drizzle-orm';
import { type Address, formatUnits } from 'viem';
import { readMarket } from '../../chain/contracts/launcher.ts';
import { tokenBalances } from '../../chain/contracts/wallet-actions.ts';
import { chainTime } from '../../chain/time.ts';
import { USDC_DECIMALS } from '../../constants.ts';
import { companies, type ToolkitConfig } from '../../db/schema/companies.ts';
import { frontRunDirective, signedDirectiveNames } from '../companies/directive-tokens.ts';
import { type BuyTarget, buyRuleBroken, buyRulesOf, liquidityOf, platformCapOf } from './buy-rules.ts';
import type { WindowedBuy } from './buy-window.ts';
import type { Limits } from './limits.ts';
import { refuse } from './refusal.ts';
import type { WalletDeps } from './wallets.ts';

type Target = BuyTarget;
type TradeDeps = WalletDeps;
/** What these checks read of an agent action (actions.ts AgentAction). */
type AgentAction = { company: { id: string; toolkitConfig: ToolkitConfig | null } };
const usdc = (v: bigint) => formatUnits(v, USDC_DECIMALS);

/**
 * Refuses every action of a company while any money-relevant setting was last set without the creator's signature
 * (companies.unsigned_settings): an unsigned directive, model or toolkit never moves money, in any mode,
 * however trading was turned on later.
 */
export async function requireSignedSettings(deps: TradeDeps, companyId: string) {
  const [row] = await deps.database.db
    .select({ unsigned: companies.unsignedSettings })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (row && row.unsigned.length > 0) {
    refuse(
      `the company's ${row.unsigned.join(', ')} were last set without the creator's signature: its agents move no money until the creator signs them (PATCH /api/companies/{id}, signed)`,
    );
  }
}

/** The rules across rounds and companies a buy is recorded under (buy-window.ts), unless the directive names it. */
export type BuyWindow = Pick<WindowedBuy, 'symbol' | 'cap' | 'liquidity'>;

/** A launched token of the platform by its symbol; refused otherwise. */
export async function tokenNamed(deps: TradeDeps, symbol: unknown): Promise<Target> {
  if (typeof symbol !== 'string') return refuse('no token named');
  const rows = await deps.database.db
    .select({
      address: companies.tokenAddress,
      companyId: companies.id,
      publicAt: companies.tokenPublicAt,
      status: companies.tokenStatus,
    })
    .from(companies)
    .where(
      and(
        sql`lower(${companies.tokenSymbol}) = lower(${symbol})`,
        eq(companies.tokenSymbolDuplicate, false),
        ne(companies.tokenStatus, 'PRE_PUBLIC'),
      ),
    )
    .limit(2);
  if (!rows[0]?.address) return refuse(`${symbol} is not a launched token of the platform`);
  // Symbols are unique ignoring case (a unique index; older duplicates are named by slug or address only): a name
  // that could still mean two tokens trades neither.
  if (rows.length > 1) return refuse(`${symbol} names more than one token of the platform`);
  const row = rows[0];
  return {
    address: row.address as Address,
    symbol,
    companyId: row.companyId,
    publicAt: row.publicAt,
    graduated: row.status === 'GRADUATED',
  };
}

/** The directive fields of the company the directive checks read (directive-tokens.ts DirectiveOwner). */
const directiveColumns = {
  creatorAddress: companies.creatorAddress,
  ceoPrompt: companies.ceoPrompt,
  ceoPromptSigner: companies.ceoPromptSigner,
  ceoPromptTokens: companies.ceoPromptTokens,
  masterDirective: companies.masterDirective,
  masterDirectiveSigner: companies.masterDirectiveSigner,
  masterDirectiveTokens: companies.masterDirectiveTokens,
};

/**
 * The buy rules (buy-rules.ts), unless the creator's current signed directive names the token, by the address its
 * symbol resolved to when the creator signed that text: then the buy is the owner's own call, within the hard limits.
 */
export async function checkBuyRules(
  deps: TradeDeps,
  action: AgentAction,
  target: Target,
  amountIn: bigint,
  team: Address[],
): Promise<BuyWindow | undefined> {
  const [owner] = await deps.database.db
    .select(directiveColumns)
    .from(companies)
    .where(eq(companies.id, action.company.id));
  if (owner && signedDirectiveNames(owner, target)) return undefined;
  const now = new Date(Number(await chainTime(deps.chain.publicClient)) * 1000);
  const rules = buyRulesOf(action.company.toolkitConfig);
  const liquidity = await liquidityOf(deps.chain, target);
  const buyer = { companyId: action.company.id, team };
  const broken = await buyRuleBroken(deps, rules, buyer, target, amountIn, now, liquidity);
  if (broken) refuse(broken);
  return { symbol: target.symbol, cap: platformCapOf(liquidity), liquidity };
}

/**
 * A token a directive of the company mentions, but that its symbol did not mean when the directive's text was set, is
 * not the token the directive meant: whoever launched it first, or afterwards, front-ran the directive. Refused. The
 * address is fixed when the text is set (directive-tokens.ts); no edit of another field re-dates it.
 */
export async function checkNamedBeforeLaunch(deps: TradeDeps, action: AgentAction, target: Target) {
  const [owner] = await deps.database.db
    .select(directiveColumns)
    .from(companies)
    .where(eq(companies.id, action.company.id));
  const front = owner && frontRunDirective(owner, target);
  if (front) {
    refuse(
      `${target.symbol} (${target.address}) is not the token the directive names: when its text was set, ${target.symbol} meant ${front.meant ?? 'no launched token'}; the creator signs the text again to name this one`,
    );
  }
}

/** The value of the company's agents' holdings of the token after the buy, against the position limit. */
export async function checkPosition(deps: TradeDeps, target: Target, team: Address[], bought: bigint, limits: Limits) {
  const [market, balances] = await Promise.all([
    readMarket(deps.chain, target.address),
    tokenBalances(deps.chain, target.address, team),
  ]);
  const after = balances.reduce((sum, b) => sum + b, bought);
  const value = (after * market.price) / 10n ** 18n;
  if (value > limits.maxPosition) {
    refuse(
      `over the position limit: the company's agents would hold ${usdc(value)} USDC of ${target.symbol}, at most ${usdc(limits.maxPosition)}`,
    );
  }
}
