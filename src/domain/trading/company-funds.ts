// The creator's money in and out of a company (docs/api/companies.md "Money in, money out"):
// - funding: where the company's USDC goes (its Safe with custody, its agents' wallets without) and the transfer
//   that puts it there, sent by the funder's own wallet (a transfer needs no allowance, so it is one transaction and
//   no permit);
// - withdrawal: the Safe transaction the card's holder signs and executes with their own wallet. The server only
//   builds it: it holds no key that can move the Safe's money, and signs nothing;
// - the move of a company created before custody: its Safe and Roles module set up (setUpCustody), then every
//   agent wallet swept into the Safe (the withdrawal's machinery). Each step goes through an outbox under a key of
//   its own, so an interrupted move, run again, finishes and sends nothing twice.
import { eq } from 'drizzle-orm';
import { type Address, formatUnits, hashTypedData, isAddressEqual, parseUnits } from 'viem';
import { requireContract } from '../../chain/contracts/addresses.ts';
import { readHoldings, transferCall } from '../../chain/contracts/wallet-actions.ts';
import { safeTxTypedData } from '../../chain/safe-tx.ts';
import { COMPANY_TOKEN_DECIMALS, USDC_DECIMALS } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import { badRequest, conflict } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { setUpCustody } from '../companies/custody.ts';
import { requireCompany } from '../companies/queries.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps } from '../deps.ts';
import { tradingCustody } from './custody.ts';
import type { WalletDeps } from './wallets.ts';
import { sweepAgentWallet, type Transfer } from './withdraw.ts';

/** The most one funding or withdrawal may name: far above any real amount, far below uint256 (no overflow). */
export const MAX_MONEY_AMOUNT = 10n ** 15n;

/** A decimal amount of a token with `decimals` places, or 400 in words. */
function amountOf(text: string, decimals: number, unit: string): bigint {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) throw badRequest(`amount must be a decimal number of ${unit}, got "${text}"`);
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > decimals) throw badRequest(`amount has more than ${decimals} decimals, ${unit}'s precision`);
  const value = parseUnits(text, decimals);
  if (value <= 0n) throw badRequest('amount must be more than 0');
  if (value > parseUnits(String(MAX_MONEY_AMOUNT), decimals)) {
    throw badRequest(`amount may be at most ${MAX_MONEY_AMOUNT} ${unit}`);
  }
  return value;
}

export interface Funding {
  companyId: string;
  /** SAFE: the company's Safe holds its money; AGENT_WALLETS: each agent trades from its own wallet. */
  custody: 'SAFE' | 'AGENT_WALLETS';
  usdc: Address;
  /** Where USDC sent to fund the company goes: the Safe, or the agents' wallets (the CFO's first). */
  recipients: { kind: 'SAFE' | 'AGENT'; address: Address; agentId: string | null; role: string | null }[];
  /** The transfer to send for `amount`, to the chosen recipient; null without an amount. */
  transaction: { to: Address; data: `0x${string}`; value: '0'; recipient: Address; amount: string } | null;
}

/**
 * Where the company's money goes and, for `amount` USDC, the transfer to send (to the Safe, or to the agent `agent`,
 * the CFO by default, for a company without custody).
 */
export async function companyFunding(
  deps: Pick<Deps, 'database' | 'chain'>,
  idOrSlug: string,
  query: { amount?: string; agent?: string },
): Promise<Funding> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  const usdc = requireContract(deps.chain.contracts, 'usdc');
  const custody = await tradingCustody(deps, company);
  const team = custody
    ? []
    : await db
        .select({ id: agents.id, role: agents.role, address: agents.onChainAddress, status: agents.status })
        .from(agents)
        .where(eq(agents.companyId, company.id));
  // The CFO first: the agent that trades. Terminated agents and agents without a wallet take no money.
  const order = (role: string | null) => (role === 'CFO' ? 0 : 1);
  const recipients: Funding['recipients'] = custody
    ? [{ kind: 'SAFE', address: custody.safe, agentId: null, role: null }]
    : team
        .filter((a) => a.address && a.status !== 'TERMINATED')
        .sort((a, b) => order(a.role) - order(b.role) || String(a.role).localeCompare(String(b.role)))
        .map((a) => ({ kind: 'AGENT' as const, address: a.address as Address, agentId: a.id, role: a.role }));
  if (query.agent !== undefined) {
    if (custody) throw badRequest(`Company ${company.id} has a Safe: its money goes there, not to an agent`);
    if (!recipients.some((r) => r.agentId === query.agent)) {
      throw badRequest(`Agent ${query.agent} is not an active agent of company ${company.id} with a wallet`);
    }
  }
  let transaction: Funding['transaction'] = null;
  if (query.amount !== undefined) {
    const value = amountOf(query.amount, USDC_DECIMALS, 'USDC');
    const recipient = query.agent ? recipients.find((r) => r.agentId === query.agent) : recipients[0];
    if (!recipient) {
      throw conflict(`Company ${company.id} has no agent wallet to fund yet: deploy its C-suite first`);
    }
    const call = transferCall(usdc, recipient.address, value);
    transaction = {
      to: call.to,
      data: call.data,
      value: '0',
      recipient: recipient.address,
      amount: formatUnits(value, USDC_DECIMALS),
    };
  }
  return { companyId: company.id, custody: custody ? 'SAFE' : 'AGENT_WALLETS', usdc, recipients, transaction };
}

export interface SafeWithdrawal {
  companyId: string;
  safe: Address;
  /** The Safe's only owner (the card's CardSafeOwner): the signature is wrapped as this contract's. */
  owner: Address;
  token: Address;
  amount: string;
  to: Address;
  nonce: string;
  /** What the holder signs (EIP-712), or approves on-chain with CardSafeOwner.approveHash(safe, safeTxHash). */
  safeTxHash: `0x${string}`;
  typedData: {
    domain: { chainId: number; verifyingContract: Address };
    types: Awaited<ReturnType<typeof safeTxTypedData>>['types'];
    primaryType: 'SafeTx';
    message: {
      to: Address;
      value: string;
      data: `0x${string}`;
      operation: number;
      safeTxGas: string;
      baseGas: string;
      gasPrice: string;
      gasToken: Address;
      refundReceiver: Address;
      nonce: string;
    };
  };
}

/**
 * The Safe transaction that sends `amount` of `token` (USDC by default) from the company's Safe to `to` (the signer
 * by default), at the Safe's current nonce, for the card's holder to sign and execute. 409 for a company without
 * custody, 400 for an amount the Safe does not hold or another token than the platform's and the launched ones.
 */
export async function prepareSafeWithdrawal(
  deps: Pick<Deps, 'database' | 'chain'>,
  idOrSlug: string,
  signer: Address | undefined,
  body: { amount: string; token?: string; to?: string },
): Promise<SafeWithdrawal> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  const custody = await tradingCustody(deps, company);
  if (!custody || !company.safeOwnerAddress) {
    throw conflict(
      `Company ${company.id} has no Safe: its money is in its agents' wallets (POST /api/agents/{id}/withdraw sends an agent's to the treasury; POST /api/companies/{id}/custody moves the company into a Safe)`,
    );
  }
  const c = deps.chain.contracts;
  const usdc = requireContract(c, 'usdc');
  const token = (body.token ?? usdc) as Address;
  const known = [usdc, c.primaryToken, c.emissionToken, company.tokenAddress as Address | null].filter(
    (a): a is Address => !!a,
  );
  if (!known.some((k) => isAddressEqual(k, token))) {
    throw badRequest(
      `token ${token} is not USDC, a platform token or the company's token: withdraw it with any Safe tool`,
    );
  }
  const isUsdc = isAddressEqual(token, usdc);
  const decimals = isUsdc ? USDC_DECIMALS : COMPANY_TOKEN_DECIMALS;
  const unit = isUsdc ? 'USDC' : 'tokens';
  const value = amountOf(body.amount, decimals, unit);
  const to = (body.to ?? signer) as Address;
  if (isAddressEqual(to, custody.safe)) throw badRequest('to is the Safe itself: name where the money goes');
  const holdings = await readHoldings(deps.chain, custody.safe, [token]);
  const held = holdings.tokens.get(token) ?? 0n;
  if (value > held) {
    throw badRequest(
      `the Safe holds ${formatUnits(held, decimals)} ${isUsdc ? 'USDC' : `of token ${token}`}, less than the ${body.amount} asked`,
    );
  }
  const call = transferCall(token, to, value);
  const typed = await safeTxTypedData(deps.chain, custody.safe, { to: call.to, data: call.data });
  const m = typed.message;
  return {
    companyId: company.id,
    safe: custody.safe,
    owner: company.safeOwnerAddress as Address,
    token,
    amount: formatUnits(value, decimals),
    to,
    nonce: String(m.nonce),
    safeTxHash: hashTypedData(typed),
    typedData: {
      domain: { chainId: typed.domain.chainId, verifyingContract: typed.domain.verifyingContract },
      types: typed.types,
      primaryType: 'SafeTx',
      message: {
        to: m.to,
        value: String(m.value),
        data: m.data,
        operation: m.operation,
        safeTxGas: String(m.safeTxGas),
        baseGas: String(m.baseGas),
        gasPrice: String(m.gasPrice),
        gasToken: m.gasToken,
        refundReceiver: m.refundReceiver,
        nonce: String(m.nonce),
      },
    },
  };
}

export interface CustodyMove {
  companyId: string;
  custody: { safe: Address; roles: Address; owner: Address };
  /** What each agent wallet sent into the Safe on this run (nothing for one already empty). */
  swept: { agentId: string; role: string | null; unstaked: string; harvested: string; transfers: Transfer[] }[];
}

/** Statuses of a company whose suite is deployed (before it, deploy-suite sets custody up itself). */
const MOVABLE = ['PRIVATE', 'PUBLIC'];

/**
 * Moves a company created before custody into a Safe of its own: its Safe and Roles module are set up (or the setup
 * an interruption left is finished), then each agent wallet is swept into the Safe. Once the custody is recorded the
 * agents act through the Safe, so money still in an agent wallet is only waiting for the sweep: a run after an
 * interruption settles what was signed, reads the balances again and sends what is left, once. Running it on a
 * company already moved sweeps what reached the agent wallets since (usually nothing). Each wallet's sweep is inside
 * the company's daily gas budget (429 GAS_BUDGET_EXCEEDED before a wallet that would pass it; the wallets before it
 * stay swept, and the request run again, the next day at the latest, finishes).
 */
export async function moveToCustody(
  deps: WalletDeps & Pick<Deps, 'now'>,
  idOrSlug: string,
  signer: Address | undefined,
): Promise<CustodyMove> {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  if (deps.config.companyCustody !== 'safe') {
    throw conflict('This platform does not set companies up with a Safe (COMPANY_CUSTODY is not "safe")');
  }
  if (!MOVABLE.includes(company.status)) {
    throw conflict(
      `Company ${company.id} is ${company.status}: finish setting it up (POST /api/companies/{id}/deploy-suite), which gives it its Safe`,
    );
  }
  const custody = await setUpCustody(deps, company);
  if (!custody) throw new Error(`custody of company ${company.id} was not set up`);
  const team = await db.select().from(agents).where(eq(agents.companyId, company.id));
  const swept: CustodyMove['swept'] = [];
  for (const agent of team) {
    if (agent.walletIndex === null || !agent.onChainAddress) continue;
    // Inside the company's daily gas budget, as an agent's withdrawal is (so a move cannot drain the platform's gas),
    // checked per wallet that has something to sweep: seven wallets at their worst are more than a day's default
    // budget, and the wallets swept before a 429 stay swept, so the same request the next day finishes the move.
    const result = await sweepAgentWallet(deps, agent, { id: company.id, token: company.tokenAddress }, custody.safe, {
      beforeFirstSend: () =>
        requireGasBudget(
          deps,
          company.id,
          PLATFORM_GAS_ESTIMATES.withdrawal,
          `sweeping agent ${agent.id}'s wallet into the Safe (the move's wallets swept already stay swept; the same request finishes the rest)`,
        ),
    });
    if (result.transfers.length > 0 || result.unstaked !== '0' || result.harvested !== '0') {
      swept.push({ agentId: agent.id, role: agent.role, ...result });
    }
  }
  return { companyId: company.id, custody, swept };
}
