// Launching a company's token (docs/api/tokens.md POST /api/companies/{id}/token). The request is recorded first (name,
// symbol, the CREATE2 address the token will have, the threshold), then `launch` goes through the exactly-once
// outbox, then the company moves PRE_PUBLIC -> BONDING and PUBLIC. A crash anywhere in between is finished by
// the outbox's settling, the indexer (which applies the TokenLaunched log by that address) and
// repairTokenLaunches (which runs the same completion again): nothing is launched twice, nothing is lost.

import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { Address } from 'viem';
import {
  companyKey,
  findLaunch,
  launchCall,
  launcherAddress,
  launchIn,
  predictTokenAddress,
} from '../../chain/contracts/launcher.ts';
import { beginJournal } from '../../chain/journal.ts';
import { blockTime } from '../../chain/time.ts';
import { TOKEN_NAME_MAX } from '../../constants.ts';
import type { Tx } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { companies } from '../../db/schema/companies.ts';
import { badRequest, conflict } from '../../errors.ts';
import { requireCardHolder } from '../cards/holder.ts';
import { type CompanyRow, requireCompany } from '../companies/queries.ts';
import { recordLaunchRequest } from '../companies/store.ts';
import { PLATFORM_GAS_ESTIMATES, requireGasBudget } from '../costs/gas-budget.ts';
import type { Deps as DomainDeps } from '../deps.ts';
import { companyTokens } from './company-tokens.stream.ts';
import { applyLaunches } from './launches.ts';
import { tokenStatusOf } from './queries.ts';

type Deps = Pick<DomainDeps, 'chain' | 'database' | 'outbox' | 'now' | 'config'>;

export interface LaunchInput {
  name: string;
  symbol: string;
}

/** Launches the company's token for its creator; returns the token's status as the route answers it. */
export async function launchToken(deps: Deps, idOrSlug: string, signer: Address | undefined, input: LaunchInput) {
  const db = deps.database.db;
  let company = await requireCompany(db, idOrSlug);
  await requireCardHolder(deps, company, signer);
  if (Buffer.byteLength(input.name, 'utf8') > TOKEN_NAME_MAX) {
    throw badRequest(
      `Token name is ${Buffer.byteLength(input.name, 'utf8')} bytes in UTF-8; at most ${TOKEN_NAME_MAX}`,
    );
  }
  checkLaunchable(company, input);
  const launcher = launcherAddress(deps.chain);
  if (company.tokenLaunchRequestedAt === null) {
    await requireSymbolFree(db, company.id, input.symbol);
    await requireGasBudget(deps, company.id, PLATFORM_GAS_ESTIMATES.tokenLaunch, 'a token launch');
    const threshold = BigInt(deps.config.graduationThresholdUsd) * 1_000_000n;
    const recorded = await recordLaunchRequest(db, company.id, {
      tokenName: input.name,
      tokenSymbol: input.symbol,
      tokenAddress: predictTokenAddress(launcher, companyKey(company.id), input.name, input.symbol),
      tokenGraduationThreshold: threshold,
      tokenLaunchRequestedAt: new Date(deps.now()),
    }).catch((err) => {
      // Another company's launch took the symbol between the check and here.
      if (uniqueViolation(err) === 'companies_token_symbol_unique') throw symbolTaken(input.symbol);
      throw err;
    });
    // Lost a race with a concurrent launch request: go on only if it asked for the same token.
    company = recorded ?? (await requireCompany(db, company.id));
    checkLaunchable(company, input);
  }
  await completeLaunch(deps, company);
  // What the route answers: the token as it is now (its company read once more, after the launch moved it).
  return tokenStatusOf(deps, await requireCompany(db, company.id));
}

const symbolTaken = (symbol: string) =>
  conflict(`The symbol ${symbol} is taken: symbols are unique among the platform's tokens, ignoring case`);

/** 409 CONFLICT when another company's token (launched or launching) has the symbol, ignoring case. */
async function requireSymbolFree(db: Tx, companyId: string, symbol: string) {
  const [taken] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        sql`lower(${companies.tokenSymbol}) = lower(${symbol})`,
        eq(companies.tokenSymbolDuplicate, false),
        ne(companies.id, companyId),
      ),
    )
    .limit(1);
  if (taken) throw symbolTaken(symbol);
}

/** 409 unless the company can (still) launch this token: not launched, and no other launch in flight. */
function checkLaunchable(company: CompanyRow, input: LaunchInput) {
  if (company.tokenStatus !== 'PRE_PUBLIC') {
    throw conflict(
      `Company ${company.slug} already launched its token ${company.tokenSymbol}; a company has one token`,
    );
  }
  if (
    company.tokenLaunchRequestedAt !== null &&
    (company.tokenName !== input.name || company.tokenSymbol !== input.symbol)
  ) {
    throw conflict(
      `A launch of ${company.tokenName} (${company.tokenSymbol}) is already in progress for ${company.slug}; repeat that request to finish it`,
    );
  }
}

/**
 * Sends the recorded launch (once, through the outbox) and moves the company to BONDING from its receipt. Safe to
 * run again at any point: the outbox returns the mined receipt, and the update only moves a PRE_PUBLIC company.
 */
export async function completeLaunch(deps: Deps, company: CompanyRow): Promise<void> {
  if (company.tokenStatus !== 'PRE_PUBLIC' || !company.tokenLaunchRequestedAt) return;
  const key = companyKey(company.id);
  const receipt = await deps.outbox.send(
    `token-launch:${company.id}`,
    () =>
      launchCall(deps.chain, {
        key,
        name: company.tokenName!,
        symbol: company.tokenSymbol!,
        creator: company.creatorAddress as Address,
        graduationThreshold: company.tokenGraduationThreshold!,
      }),
    { chargedTo: [company.id] },
  );
  const launch = launchIn(deps.chain, receipt) ?? (await findLaunch(deps.chain, key));
  if (!launch)
    throw new Error(`launch of ${company.tokenSymbol} for ${company.id} reverted in ${receipt.transactionHash}`);
  const launchedAt = await blockTime(deps.chain.publicClient, launch.blockNumber);
  // One transaction: the move and its `launch` event commit together, journaled as the token stream's own write of
  // the launch's block, so a reorg that orphans it undoes the move (src/chain/journal.ts).
  await deps.database.db.transaction(async (tx) => {
    await beginJournal(tx, companyTokens.name, { from: launch.blockNumber, to: launch.blockNumber });
    await applyLaunches(tx, [
      {
        token: launch.token,
        graduationThreshold: launch.graduationThreshold,
        txHash: launch.txHash,
        blockNumber: launch.blockNumber,
        logIndex: launch.logIndex,
        blockTime: launchedAt,
      },
    ]);
  });
}

/** Finishes launches left in flight (a crash, a chain outage) at start and every minute. */
export async function repairTokenLaunches(deps: Deps, { olderThanMs = 30_000, limit = 100 } = {}): Promise<number> {
  const pending = await deps.database.db
    .select()
    .from(companies)
    .where(
      and(
        eq(companies.tokenStatus, 'PRE_PUBLIC'),
        lt(companies.tokenLaunchRequestedAt, new Date(deps.now() - olderThanMs)),
      ),
    )
    .orderBy(sql`${companies.tokenLaunchRequestedAt}`)
    .limit(limit);
  for (const company of pending) await completeLaunch(deps, company);
  return pending.length;
}
