// One decision round (`/decisions/{id}`): what the C-suite proposed and how the CEO weighed it, what the CEO decided
// and why, each action with its outcome, the phases
// with the models that answered, and its verification in words: the hash recomputed here in the browser from the
// decision shown, the anchoring transaction and block, and what "verified" means.

import { decisionHash } from '@ai-economy/shared/decision-hash';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { api, data } from '../api';
import type { paths } from '../api-schema';
import { ChainTime, fullDate } from '../chain-time';
import { ActionItem, actionWords, Phases, type Round, RoundFailure, readable } from '../decision';
import { HashText, Page, Query, TxLink } from '../ui';
import { useChainInfo } from '../wallet';

const route = getRouteApi('/decisions/$id');

type Deliberation =
  paths['/api/decisions/{decisionId}']['get']['responses'][200]['content']['application/json']['data']['deliberation'];

/** The C-suite's proposals to the CEO, agent by agent, and the CEO's reasoning over them. */
function DeliberationPanel({ deliberation, status }: { deliberation: Deliberation; status: Round['status'] }) {
  return (
    <section aria-labelledby="deliberation-h" className="panel" data-testid="deliberation">
      <h2 id="deliberation-h">How the decision was reached</h2>
      {!deliberation.recorded ? (
        <p className="muted">
          {deliberation.pruned
            ? "Not kept: a round's proposals and reasoning are pruned some days after it ran; its decision and verification below stay."
            : status === 'RUNNING'
              ? 'The C-suite is still deliberating.'
              : status === 'FAILED'
                ? 'The round stopped before the CEO weighed the proposals.'
                : 'Not recorded: this round ran before proposals and reasoning were kept.'}
        </p>
      ) : (
        <>
          <h3 id="proposals-h">The C-suite's proposals</h3>
          {deliberation.proposals.length === 0 ? (
            <p className="muted">No agent proposed anything this round.</p>
          ) : (
            <ul className="actions-list" aria-labelledby="proposals-h" data-testid="proposals">
              {deliberation.proposals.map((p, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a round's proposals are fixed, in their recorded order.
                <li key={i} data-role={p.role}>
                  <p>
                    <strong>{p.role}</strong> proposed: {actionWords(p)}
                  </p>
                  {p.rationale && <p className="muted">Reason: {p.rationale}</p>}
                  {p.result && <p className="muted">Found: {readable(p.result)}</p>}
                </li>
              ))}
            </ul>
          )}
          <h3 id="reasoning-h">The CEO's reasoning</h3>
          <blockquote className="reasoning" aria-labelledby="reasoning-h" data-testid="ceo-reasoning">
            {deliberation.ceoReasoning}
          </blockquote>
        </>
      )}
    </section>
  );
}

/** keccak256 of the canonical JSON of { companyId, cycle, directive, actions }: what the platform hashed. */
export function recomputeHash(round: Round): `0x${string}` {
  return decisionHash({
    companyId: round.companyId,
    cycle: round.cycle,
    directive: round.ceoDecision.directive,
    actions: round.actions.map(({ role, tool, args, rationale }) => ({ role, tool, args, rationale })),
  });
}

export default function Decision() {
  const { id } = route.useParams();
  const info = useChainInfo();
  const decision = useQuery({
    queryKey: ['decision', id],
    queryFn: () => data(api.GET('/api/decisions/{decisionId}', { params: { path: { decisionId: id } } })),
  });
  return (
    <Query query={decision} what="the decision" skeleton="page">
      {({ company, round, deliberation }) => (
        <Page title={`${company.name}: decision of cycle ${round.cycle}`}>
          <p className="lead">
            A decision round of{' '}
            <Link to="/companies/$id" params={{ id: company.slug }}>
              {company.name}
            </Link>
            : its C-suite proposed, its CEO decided, and the platform ran what was decided.
          </p>
          <p data-testid="decision-date">
            Decided <ChainTime at={round.createdAt} /> ({fullDate(Date.parse(round.createdAt))}, the chain's time).
          </p>
          <section aria-labelledby="directive-h" className="panel">
            <h2 id="directive-h">The CEO's directive</h2>
            {round.ceoDecision.directive ? (
              <blockquote>{round.ceoDecision.directive}</blockquote>
            ) : (
              <p className="muted">
                No directive: the round {round.status === 'FAILED' ? 'failed' : 'is still running'}.
              </p>
            )}
            {round.error && <RoundFailure round={round} />}
          </section>
          <DeliberationPanel deliberation={deliberation} status={round.status} />
          <section aria-labelledby="actions-h" className="panel">
            <h2 id="actions-h">Actions, their reasons and outcomes</h2>
            {round.actions.length === 0 ? (
              <p className="muted">The decision took no action.</p>
            ) : (
              <ul className="actions-list">
                {round.actions.map((a, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a round's actions are fixed, in their decided order.
                  <ActionItem key={i} action={a} explorer={info.explorerUrl} />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="phases-h" className="panel">
            <h2 id="phases-h">Phases and the models that answered</h2>
            <Phases round={round} />
          </section>
          <Verification round={round} />
        </Page>
      )}
    </Query>
  );
}

function Verification({ round }: { round: Round }) {
  const info = useChainInfo();
  const verify = useQuery({
    queryKey: ['decision', round.id, 'verify'],
    queryFn: () => data(api.GET('/api/decisions/{decisionId}/verify', { params: { path: { decisionId: round.id } } })),
  });
  const recomputed = round.decisionHash ? recomputeHash(round) : undefined;
  const matches = recomputed !== undefined && recomputed.toLowerCase() === round.decisionHash?.toLowerCase();
  return (
    <section aria-labelledby="verify-h" className="panel">
      <h2 id="verify-h">Verification</h2>
      {!round.decisionHash ? (
        <p>Nothing to verify: the round has no decision hash ({round.status.toLowerCase()}).</p>
      ) : (
        <ol className="verify-steps">
          <li data-testid="hash-recomputed" data-matches={matches}>
            <strong>The hash, recomputed in your browser:</strong> keccak256 of the decision shown on this page (its
            company, cycle, directive and actions, as canonical JSON) is <HashText value={recomputed!} />.{' '}
            {matches ? (
              <span className="up">It matches the hash the platform stored.</span>
            ) : (
              <span className="down">
                It does not match the stored hash <HashText value={round.decisionHash} />: what is shown is not what was
                hashed.
              </span>
            )}
          </li>
          <Query query={verify} what="the verification">
            {(v) => (
              <li data-testid="anchoring" data-verified={v.onChainVerified}>
                <strong>On the chain:</strong>{' '}
                {v.onChainVerified ? (
                  v.verificationMethod === 'decision_anchor' ? (
                    <>
                      the platform's decision anchor contract holds this hash
                      {v.anchoredAt && <> since {fullDate(Date.parse(v.anchoredAt))}</>}, written by transaction{' '}
                      {v.anchoredTxHash ? <TxLink hash={v.anchoredTxHash} explorer={info.explorerUrl} /> : 'unknown'}
                      {v.anchoredBlock !== undefined && <> in block {v.anchoredBlock.toLocaleString()}</>}. Verified.
                    </>
                  ) : (
                    <>
                      an ERC-8004 validation entry by one of the platform's validators holds this hash
                      {v.anchoredAt && <> since {fullDate(Date.parse(v.anchoredAt))}</>}. Verified.
                    </>
                  )
                ) : (
                  <>not verified: {v.reason ?? 'the chain does not hold this hash'}.</>
                )}
              </li>
            )}
          </Query>
          <li>
            <strong>What “verified” means:</strong> the decision on this page is the one the platform committed to the
            chain when the round ended. Changing a word of it afterwards would change its hash, which would no longer
            match the one on the chain. It says nothing about whether the decision was a good one.
          </li>
        </ol>
      )}
    </section>
  );
}
