// Reading decisions: a company's last rounds with the latest budget, and the verification of one round's hash
// against the chain (the anchor contract, then legacy ERC-8004 validation entries).
import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { type DecisionLookup, lookupDecisionHash } from '../../chain/contracts/anchor-lookup.ts';
import { companyKey } from '../../chain/contracts/launcher.ts';
import { transactionUrl } from '../../chain/explorer.ts';
import { AGENT_ROLES, DECISION_ROUNDS_SHOWN } from '../../constants.ts';
import { agents } from '../../db/schema/agents.ts';
import { companies } from '../../db/schema/companies.ts';
import { decisionBudgets, decisionRounds } from '../../db/schema/decisions.ts';
import { isChainUnavailable, notFound } from '../../errors.ts';
import { requireCompany } from '../companies/queries.ts';
import type { Deps } from '../deps.ts';
import { budgetView, deliberationView, roundView } from './views.ts';

export async function getDecisions(deps: Pick<Deps, 'database'>, idOrSlug: string) {
  const db = deps.database.db;
  const company = await requireCompany(db, idOrSlug);
  const rounds = await db
    .select()
    .from(decisionRounds)
    .where(eq(decisionRounds.companyId, company.id))
    .orderBy(desc(decisionRounds.cycle))
    .limit(DECISION_ROUNDS_SHOWN);
  const latest = rounds[0];
  const budgets = latest ? await db.select().from(decisionBudgets).where(eq(decisionBudgets.roundId, latest.id)) : [];
  const order = (role: string) => (AGENT_ROLES as readonly string[]).indexOf(role);
  return {
    company: { id: company.id, name: company.name, category: company.category },
    rounds: rounds.map(roundView),
    latestBudget: budgets.sort((a, b) => order(a.role) - order(b.role)).map(budgetView),
  };
}

/** One round by its id, with its company (GET /api/decisions/{decisionId}). */
export async function getDecision(deps: Pick<Deps, 'database'>, decisionId: string) {
  const db = deps.database.db;
  const [row] = await db
    .select({ round: decisionRounds, company: { id: companies.id, slug: companies.slug, name: companies.name } })
    .from(decisionRounds)
    .innerJoin(companies, eq(companies.id, decisionRounds.companyId))
    .where(eq(decisionRounds.id, decisionId));
  if (!row) throw notFound(`Decision ${decisionId} not found`);
  return { company: row.company, round: roundView(row.round), deliberation: deliberationView(row.round) };
}

export type VerificationMethod = 'erc8004_validation' | 'decision_anchor' | 'db_only' | 'not_anchored' | 'not_verified';

/** docs/api/decisions.md GET /api/decisions/{decisionId}/verify: the five outcome classes. */
export async function verifyDecision(deps: Pick<Deps, 'database' | 'chain' | 'config'>, decisionId: string) {
  const [round] = await deps.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, decisionId));
  if (!round) throw notFound(`Decision ${decisionId} not found`);
  const base = { decisionId: round.id, decisionHash: round.decisionHash, anchoredTxHash: round.anchorTxHash };
  /** A recorded anchoring the chain did not confirm (the lookup failed, or found nothing), with why. */
  const notVerified = (reason: string) => ({
    ...base,
    ...(round.anchoredAt ? { anchoredAt: round.anchoredAt.toISOString() } : {}),
    onChainVerified: false,
    verificationMethod: 'not_verified' as VerificationMethod,
    reason,
  });
  if (!round.decisionHash) {
    return {
      ...base,
      onChainVerified: false,
      verificationMethod: 'not_anchored' as VerificationMethod,
      reason:
        round.status === 'COMPLETE'
          ? 'the decision has no hash'
          : `the round is ${round.status}; nothing to verify yet`,
    };
  }
  let found: Awaited<ReturnType<typeof lookupDecisionHash>>;
  try {
    const proof = round.anchorRoot && round.anchorProof ? (round.anchorProof as Hex[]) : undefined;
    found = await lookupDecisionHash(deps.chain, round.decisionHash as Hex, {
      ...(proof ? { batch: { companyKey: companyKey(round.companyId), proof } } : {}),
      // Legacy entries: requested by the owner of the agents' identities, the platform.
      requester: deps.chain.platform.account.address,
    });
  } catch (err) {
    if (!round.anchorTxHash) return dbOnly(base);
    return notVerified(
      isChainUnavailable(err) ? 'the chain did not answer the verification lookup' : 'the verification lookup failed',
    );
  }
  if (found.method === 'decision_anchor') {
    const anchoredTxHash = found.txHash ?? round.anchorTxHash;
    return {
      ...base,
      anchoredTxHash,
      anchoredAt: found.anchoredAt.toISOString(),
      anchoredBlock: Number(found.blockNumber),
      onChainVerified: true,
      verificationMethod: 'decision_anchor' as VerificationMethod,
      // An absolute link, or null when the chain has no explorer (or no transaction is known).
      explorerUrl: anchoredTxHash ? transactionUrl(deps.chain.explorerUrl, anchoredTxHash) : null,
      ...(found.merkleRoot && found.merkleProof
        ? {
            merkle: {
              companyKey: found.companyKey.toLowerCase(),
              root: found.merkleRoot.toLowerCase(),
              proof: found.merkleProof.map((p) => p.toLowerCase()),
            },
          }
        : {}),
    };
  }
  if (found.method === 'erc8004_validation') {
    if (await trustedValidation(deps, round, found)) {
      return {
        ...base,
        anchoredAt: found.validatedAt.toISOString(),
        onChainVerified: true,
        verificationMethod: 'erc8004_validation' as VerificationMethod,
      };
    }
    const untrusted =
      'a validation entry holds this hash, but not for an agent of this company that existed by the round, so it proves nothing';
    if (!round.anchorTxHash) return { ...dbOnly(base), reason: `the decision is not anchored on-chain; ${untrusted}` };
    return {
      ...base,
      onChainVerified: false,
      verificationMethod: 'not_verified' as VerificationMethod,
      reason: untrusted,
    };
  }
  if (!round.anchorTxHash) return dbOnly(base);
  return notVerified('the anchoring transaction is recorded but the chain holds no anchor for this hash');
}

/**
 * Which validators count is the validation registry's rule, read from the registry itself: its allow-list (set by
 * its owner, the platform's timelock) admits only the validators it names, and `getValidationStatus` shows an answer
 * only while its validator is allowed and has not been removed since it answered (a removal retracts its answers),
 * so the look-up found a standing answer by an allowed validator, and a third party reading the registry gets the
 * same. The route adds what the registry cannot know: the agent is one of the round's company, registered in this
 * registry no later than the round (to the second).
 */
async function trustedValidation(
  deps: Pick<Deps, 'database' | 'chain'>,
  round: typeof decisionRounds.$inferSelect,
  found: Extract<DecisionLookup, { method: 'erc8004_validation' }>,
): Promise<boolean> {
  const registry = deps.chain.contracts.identityRegistry;
  if (!registry) return false;
  const [agent] = await deps.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(
        eq(agents.companyId, round.companyId),
        eq(agents.erc8004TokenId, found.agentId.toString()),
        eq(agents.trustRegistryAddress, registry),
        // The round is dated by the chain's clock, in whole seconds; the agent by the service's, to the millisecond:
        // compared at the chain's resolution, an agent created in the round's own second existed by it.
        lte(sql`date_trunc('second', ${agents.createdAt})`, round.createdAt),
      ),
    )
    .limit(1);
  return agent !== undefined;
}

function dbOnly(base: { decisionId: string; decisionHash: string | null; anchoredTxHash: string | null }) {
  return {
    ...base,
    anchoredTxHash: null,
    onChainVerified: false,
    verificationMethod: 'db_only' as VerificationMethod,
    reason: 'the decision is hashed but not yet anchored on-chain',
  };
}
