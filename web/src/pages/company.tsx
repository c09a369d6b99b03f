// A company: its profile, its seven agents (status, wallet, ERC-8004 identity), the decision timeline with each
// round's phases, directive and actions and a badge that opens its anchoring transaction, its score history, its
// token panel, and for its creator the settings, engine, treasury and a manual round.

import { DECISION_ROUNDS_SHOWN } from '@ai-economy/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { formatUnits, parseUnits } from 'viem';
import { api, data } from '../api';
import { AgentAvatar, CompanyLogo } from '../avatars';
import { categoryLabel } from '../categories';
import { CompanyMoney, OwnerChecklist, type SetupCompany } from '../company-setup';
import { CreatorControls } from '../creator-controls';
import { RoundSummary } from '../decision';
import { companyStatus, formatNumber, snapshotName } from '../format';
import { usePolling } from '../live';
import { Positions, Signed } from '../portfolio';
import { usePlatformUnits } from '../symbols';
import { Empty, HashText, money, Page, Progress, Query } from '../ui';
import { type ChainInfo, useChainInfo } from '../wallet';

const route = getRouteApi('/companies/$id');

export default function Company() {
  const { id } = route.useParams();
  const info = useChainInfo();
  const poll = usePolling(15_000);
  const company = useQuery({
    queryKey: ['company', id],
    queryFn: () => data(api.GET('/api/companies/{id}', { params: { path: { id } } })),
  });
  return (
    <Query query={company} what="the company" skeleton="page">
      {(c) => (
        <Page title={c.name}>
          <div className="profile">
            <CompanyLogo name={c.name} slug={c.slug} logoUrl={c.logoUrl} />
            <p className="lead">{c.description ?? 'No description yet.'}</p>
          </div>
          <dl className="facts">
            <dt>Category</dt>
            <dd>{categoryLabel(c.category)}</dd>
            <dt>Status</dt>
            <dd data-testid="company-status">{companyStatus(c.status)}</dd>
            <dt>League</dt>
            <dd>{c.league === 'HUMAN' ? 'Human (directed by its owner)' : 'Machine'}</dd>
            <dt>Platform score</dt>
            <dd>{formatNumber(c.platformScore, 2, undefined, 2)}</dd>
            <dt>Card</dt>
            <dd>
              <Link to="/cards/$id" params={{ id: String(c.cardTokenId) }}>
                #{c.cardTokenId}
              </Link>
            </dd>
            <dt>Creator</dt>
            <dd>
              <HashText value={c.creatorAddress} label="creator address" />
            </dd>
          </dl>
          <OwnerChecklist company={c as SetupCompany} />
          <TokenPanel id={c.id} poll={poll} />
          <Agents agents={c.agents} />
          <Portfolio id={c.id} />
          <ScoreHistory id={c.id} />
          <Decisions id={c.id} info={info} poll={poll} />
          <CompanyMoney company={c as SetupCompany} />
          <CreatorControls company={c} />
        </Page>
      )}
    </Query>
  );
}

function TokenPanel({ id, poll }: { id: string; poll: number | false }) {
  const token = useQuery({
    queryKey: ['token', id, 'status'],
    queryFn: () => data(api.GET('/api/companies/{id}/token', { params: { path: { id } } })),
    refetchInterval: poll,
  });
  return (
    <section aria-labelledby="token-h" className="panel">
      <h2 id="token-h">Token</h2>
      <Query query={token} what="the token">
        {(t) =>
          t.status === 'PRE_PUBLIC' ? (
            <Empty>No token launched yet.</Empty>
          ) : (
            <>
              <p>
                <strong>${t.tokenSymbol}</strong> ·{' '}
                {t.status === 'GRADUATED' ? 'graduated into its Uniswap v4 pool' : 'on its bonding curve'} · price{' '}
                {money(t.price, 6)} USDC · market cap {money(t.marketCap)} USDC
              </p>
              <Progress value={t.graduationProgress} label="Graduation progress" />
              <p>
                <Link to="/companies/$id/token" params={{ id: id }}>
                  Chart and trade ${t.tokenSymbol}
                </Link>
              </p>
            </>
          )
        }
      </Query>
    </section>
  );
}

type Agent = { id: string; name: string; role: string | null; status: string };

function Agents({ agents }: { agents: Agent[] }) {
  return (
    <section aria-labelledby="agents-h" className="panel">
      <h2 id="agents-h">Agents</h2>
      {agents.length === 0 ? (
        <Empty>No agents hired yet: the creator deploys the C-suite.</Empty>
      ) : (
        <ul className="agents">
          {agents.map((a) => (
            <li key={a.id} data-agent-status={a.status}>
              <AgentAvatar id={a.id} name={a.name} size={28} /> <strong>{a.role ?? 'Agent'}</strong> {a.name}{' '}
              <span className={`badge ${a.status.toLowerCase()}`}>{a.status}</span>{' '}
              <Link to="/agents/$id" params={{ id: a.id }}>
                identity, wallet and actions
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ScoreHistory({ id }: { id: string }) {
  const history = useQuery({
    queryKey: ['scores', id],
    queryFn: () => data(api.GET('/api/companies/{id}/scores', { params: { path: { id }, query: { limit: 90 } } })),
  });
  return (
    <section aria-labelledby="scores-h" className="panel">
      <h2 id="scores-h">Score history</h2>
      <Query query={history} what="the score history">
        {(h) => {
          if (h.snapshots.length === 0) return <Empty>No daily snapshot has scored this company yet.</Empty>;
          const points = [...h.snapshots].reverse();
          const max = Math.max(1, ...points.map((p) => p.overall));
          const width = 600;
          const step = points.length > 1 ? width / (points.length - 1) : 0;
          const line = points
            .map((p, i) => `${(i * step).toFixed(1)},${(100 - (p.overall / max) * 95).toFixed(1)}`)
            .join(' ');
          const latest = h.snapshots[0]!;
          return (
            <figure>
              <svg
                viewBox={`0 0 ${width} 100`}
                className="spark"
                role="img"
                aria-label={`Overall score over ${points.length} snapshots, latest ${latest.overall.toFixed(2)}`}
              >
                {points.length === 1 ? (
                  <circle cx={width / 2} cy={100 - (points[0]!.overall / max) * 95} r="4" fill="currentColor" />
                ) : (
                  <polyline points={line} fill="none" stroke="currentColor" strokeWidth="2" />
                )}
              </svg>
              <figcaption>
                Latest: {snapshotName(latest.date)}, taken at midnight UTC after it: overall{' '}
                {formatNumber(latest.overall, 2, undefined, 2)}, rank {latest.rank}
                {'; '}treasury {formatNumber(latest.treasuryScore)}, trading {formatNumber(latest.tradingScore)}, volume{' '}
                {formatNumber(latest.volumeScore)}, activity {formatNumber(latest.activityScore)}, completeness{' '}
                {formatNumber(latest.completenessScore)}.
              </figcaption>
            </figure>
          );
        }}
      </Query>
    </section>
  );
}

function Decisions({ id, info, poll }: { id: string; info: ChainInfo; poll: number | false }) {
  const decisions = useQuery({
    queryKey: ['decisions', id],
    queryFn: () => data(api.GET('/api/companies/{id}/decisions', { params: { path: { id } } })),
    refetchInterval: poll,
  });
  return (
    <section aria-labelledby="decisions-h" className="panel">
      <h2 id="decisions-h">Decisions</h2>
      <Query query={decisions} what="the decisions" skeleton="table">
        {(d) =>
          d.rounds.length === 0 ? (
            <Empty>No decision round has run yet.</Empty>
          ) : (
            <>
              <p className="muted">
                {d.rounds.length === DECISION_ROUNDS_SHOWN
                  ? `The ${DECISION_ROUNDS_SHOWN} most recent rounds, newest first; older rounds are not listed here.`
                  : `Every round so far, newest first.`}
              </p>
              <ol className="timeline">
                {d.rounds.map((r) => (
                  <RoundSummary key={r.id} round={r} explorer={info.explorerUrl} />
                ))}
              </ol>
            </>
          )
        }
      </Query>
    </section>
  );
}

function Portfolio({ id }: { id: string }) {
  const units = usePlatformUnits();
  const portfolio = useQuery({
    queryKey: ['company-portfolio', id],
    queryFn: () => data(api.GET('/api/companies/{id}/portfolio', { params: { path: { id } } })),
  });
  return (
    <section aria-labelledby="portfolio-h" className="panel">
      <h2 id="portfolio-h">Portfolio and PnL</h2>
      <Query query={portfolio} what="the portfolio" skeleton="table">
        {(p) => {
          const theirs = p.agents.flatMap((a) => a.positions);
          const totals = (
            <>
              realised PnL <Signed value={p.totals.realizedPnlUsdc} /> USDC · unrealised PnL if sold now{' '}
              <Signed value={p.totals.exitUnrealizedPnlUsdc} /> USDC (at the prices{' '}
              <Signed value={p.totals.unrealizedPnlUsdc} />)
            </>
          );
          if (!p.safe)
            return (
              <>
                <p data-testid="company-totals">
                  The agents' wallets hold {money(p.totals.exitValueUsdc)} USDC if their company tokens were sold now (
                  {money(p.totals.valueUsdc)} USDC at the tokens' prices) · {totals}
                </p>
                <Positions positions={theirs} />
              </>
            );
          // Custody: the company's money and positions are in its Safe, the trader the chain sees; what its agents'
          // own wallets still hold (from before custody) is said beside it.
          const safe = p.safe;
          const agentsUsdc = p.agents.reduce((sum, a) => sum + parseUnits(a.balances?.usdc ?? '0', 6), 0n);
          const tokens = [
            safe.balances && parseUnits(safe.balances.primary, 18) > 0n
              ? `${money(safe.balances.primary)} ${units.primary.symbol}`
              : null,
            safe.balances && parseUnits(safe.balances.emission, 18) > 0n
              ? `${money(safe.balances.emission)} ${units.emission.symbol}`
              : null,
          ].filter((t) => t !== null);
          return (
            <>
              <p data-testid="company-totals">
                The company's Safe holds {money(safe.balances?.usdc ?? '0')} USDC
                {tokens.length > 0 && `, ${tokens.join(' and ')}`}
                {safe.positions.length > 0 &&
                  ` and ${safe.positions.length} company-token ${safe.positions.length === 1 ? 'position' : 'positions'}`}
                {agentsUsdc > 0n && `; its agents' wallets hold ${money(formatUnits(agentsUsdc, 6))} USDC more`}. In
                all, {money(p.totals.exitValueUsdc)} USDC if its company tokens were sold now (
                {money(p.totals.valueUsdc)} USDC at the tokens' prices) · {totals}
              </p>
              <Positions positions={safe.positions} />
              {theirs.length > 0 && (
                <>
                  <h3>Still in the agents' own wallets</h3>
                  <Positions positions={theirs} />
                </>
              )}
            </>
          );
        }}
      </Query>
    </section>
  );
}
