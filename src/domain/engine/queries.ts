// Reading decisions: a company's last rounds with the latest budget, and the verification of one round's hash
// against the chain (the anchor contract, then legacy ERC-8004 validation entries).
import { desc, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { lookupDecisionHash } from '../../chain/decisions.ts';
import { isChainUnavailable } from '../../chain/errors.ts';
import { AGENT_ROLES, DECISION_ROUNDS_SHOWN } from '../../constants.ts';
import type { Container } from '../../container.ts';
import { decisionBudgets, decisionRounds } from '../../db/schema/decisions.ts';
import { notFound } from '../../errors.ts';
import { requireCompany } from '../companies/queries.ts';
import { budgetView, roundView } from './views.ts';

export async function getDecisions(c: Pick<Container, 'database'>, idOrSlug: string) {
  const db = c.database.db;
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

export type VerificationMethod = 'erc8004_validation' | 'decision_anchor' | 'db_only' | 'not_anchored' | 'not_verified';

/** SPEC.md GET /api/decisions/{decisionId}/verify: the five outcome classes. */
export async function verifyDecision(c: Pick<Container, 'database' | 'chain' | 'config'>, decisionId: string) {
  const [round] = await c.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, decisionId));
  if (!round) throw notFound(`Decision ${decisionId} not found`);
  const base = { decisionId: round.id, decisionHash: round.decisionHash, anchoredTxHash: round.anchorTxHash };
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
    found = await lookupDecisionHash(c.chain, round.decisionHash as Hex);
  } catch (err) {
    if (!round.anchorTxHash) return dbOnly(base);
    return {
      ...base,
      ...(round.anchoredAt ? { anchoredAt: round.anchoredAt.toISOString() } : {}),
      onChainVerified: false,
      verificationMethod: 'not_verified' as VerificationMethod,
      reason: isChainUnavailable(err)
        ? 'the chain did not answer the verification lookup'
        : 'the verification lookup failed',
    };
  }
  const explorer = (tx: string) => `${c.chain.explorerUrl.replace(/\/$/, '')}/tx/${tx}`;
  if (found.method === 'decision_anchor') {
    return {
      ...base,
      anchoredTxHash: found.txHash ?? round.anchorTxHash,
      anchoredAt: found.anchoredAt.toISOString(),
      onChainVerified: true,
      verificationMethod: 'decision_anchor' as VerificationMethod,
      ...(found.txHash ? { explorerUrl: explorer(found.txHash) } : {}),
    };
  }
  if (found.method === 'erc8004_validation') {
    return {
      ...base,
      anchoredAt: found.validatedAt.toISOString(),
      onChainVerified: true,
      verificationMethod: 'erc8004_validation' as VerificationMethod,
    };
  }
  if (!round.anchorTxHash) return dbOnly(base);
  return {
    ...base,
    ...(round.anchoredAt ? { anchoredAt: round.anchoredAt.toISOString() } : {}),
    onChainVerified: false,
    verificationMethod: 'not_verified' as VerificationMethod,
    reason: 'the anchoring transaction is recorded but the chain holds no anchor for this hash',
  };
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
