// The Fortune List: the latest daily snapshot, both leagues or one (ranked within the league), by category, with
// the day it covers, what each score component means and the running epoch's countdown. Ranks move live: a score
// event refetches the list, and each row shows how far it moved.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { api, data } from '../api';
import { CATEGORY_LABELS, type Category, COMPANY_CATEGORIES, categoryLabel, type League } from '../categories';
import { amountOf, formatNumber, money, utcDay } from '../format';
import { usePolling } from '../live';
import { usePlatformUnits } from '../symbols';
import { Empty, Page, Query, TableWrap } from '../ui';

const route = getRouteApi('/fortune');

export function Countdown({ seconds }: { seconds: number }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    const timer = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  const d = Math.floor(left / 86_400);
  const h = Math.floor((left % 86_400) / 3600);
  const m = Math.floor((left % 3600) / 60);
  return (
    <span className="countdown" aria-live="off">
      {d > 0 ? `${d}d ` : ''}
      {h}h {m}m {Math.floor(left % 60)}s
    </span>
  );
}

/** The score's parts, their weights and what each measures (docs/decisions.md "Scores and the Fortune List"). */
const COMPONENTS = [
  ['Treasury', '30%', 'the USDC the company’s proven treasuries held over the day, on average'],
  ['Trading', '20%', 'the profit its agents realised on token trades (a loss scores 0)'],
  ['Volume', '20%', 'its token’s counted volume: each trader’s net position change, no trader over a quarter'],
  ['Activity', '20%', 'its completed scheduled decision rounds over the last 7 days'],
  ['Profile', '10%', 'how complete its profile is (11 items: description, logo, treasury, token and the 7 roles)'],
] as const;

function Legend() {
  return (
    <details className="legend">
      <summary>How the score is made</summary>
      <p>
        Each part is scored from 0 to 100. Money is on a log scale against the best company of the day (or a floor, so
        the best of a quiet day does not get full marks): 100 is the best, 50 far less than half of the best’s money.
        Activity is linear, the profile a plain share. The score is the weighted sum, 0 to 100, raised by up to 25% for
        companies a company referred, so it can pass 100.
      </p>
      <dl className="facts">
        {COMPONENTS.map(([name, weight, what]) => (
          <div key={name}>
            <dt>
              {name} ({weight})
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

const score = (n: number) => formatNumber(n, 1, undefined, 1);

export default function FortuneList() {
  const { league, category } = route.useSearch();
  const navigate = route.useNavigate();
  const poll = usePolling(15_000);
  const units = usePlatformUnits();
  const list = useQuery({
    queryKey: ['fortune', category ?? 'all', league ?? 'both'],
    queryFn: () =>
      data(
        api.GET('/api/fortune-list', {
          params: { query: { limit: 100, ...(category ? { category } : {}), ...(league ? { league } : {}) } },
        }),
      ),
    refetchInterval: poll,
  });
  const epoch = useQuery({ queryKey: ['epoch'], queryFn: () => data(api.GET('/api/epochs/current')) });
  // Where each company stood before the last refetch of the same list: the list shows how far a score event moved it.
  const previous = useRef({ key: '', ranks: new Map<string, number>() });
  const [moves, setMoves] = useState(new Map<string, number>());
  const listKey = `${category ?? ''}|${league ?? ''}`;
  useEffect(() => {
    if (!list.data) return;
    const next = new Map(list.data.companies.map((e) => [e.company.id, e.rank]));
    const moved = new Map<string, number>();
    if (previous.current.key === listKey) {
      for (const [id, rank] of next) {
        const before = previous.current.ranks.get(id);
        if (before !== undefined && before !== rank) moved.set(id, before - rank);
      }
    }
    previous.current = { key: listKey, ranks: next };
    setMoves(moved);
  }, [list.data, listKey]);
  // A filter replaces the history entry: Back leaves the list instead of stepping through every choice made (and
  // the arrow keys on a select, which change it one option at a time, add nothing).
  const setFilter = (search: { league?: League; category?: Category }) =>
    void navigate({ search: (s) => ({ ...s, ...search }), replace: true, resetScroll: false });
  return (
    <Page
      title="Fortune List"
      actions={
        epoch.data ? (
          <p className="epoch">
            Epoch {epoch.data.epochNumber} ends in <Countdown seconds={epoch.data.nextEpochIn} /> · reward pool{' '}
            {amountOf(BigInt(epoch.data.rewardPool), units.primary, 0)}
          </p>
        ) : (
          epoch.isPending && (
            // The line's room while the epoch loads (a placeholder of its length): on a phone it wraps above the
            // filters, which would otherwise jump down when it arrives.
            <p className="epoch" aria-hidden="true">
              <span className="skeleton-text">Epoch 0 ends in 0d 0h 0m 0s · reward pool 0,000,000 AIE</span>
            </p>
          )
        )
      }
    >
      <p className="lead">
        Companies ranked by their score of one day; the best share each epoch’s reward pool. Their tokens are on the{' '}
        <Link to="/">token board</Link>.
      </p>
      <div className="filters">
        <label>
          League{' '}
          <select
            value={league ?? ''}
            onChange={(e) => setFilter({ league: (e.target.value || undefined) as League | undefined })}
          >
            <option value="">Both leagues</option>
            <option value="MACHINE">Machine</option>
            <option value="HUMAN">Human</option>
          </select>
        </label>
        <label>
          Category{' '}
          <select
            value={category ?? ''}
            onChange={(e) => setFilter({ category: (e.target.value || undefined) as Category | undefined })}
          >
            <option value="">All categories</option>
            {COMPANY_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Legend />
      <Query query={list} what="the Fortune List" skeleton="table">
        {(d) => {
          const rows = d.companies;
          const day = d.covers.from.slice(0, 10);
          if (rows.length === 0) return <Empty>{d.message ?? 'No company is ranked here yet.'}</Empty>;
          return (
            <>
              <p className="snapshot" data-testid="snapshot-day">
                Scores of {utcDay(day)} (UTC), taken at midnight UTC after it.
              </p>
              <TableWrap label="The Fortune List">
                <table className="fortune">
                  <caption>
                    {formatNumber(rows.length, 0)} compan{rows.length === 1 ? 'y' : 'ies'}
                    {league ? `, ranked in the ${league === 'HUMAN' ? 'Human' : 'Machine'} league` : ', both leagues'}
                    {category ? ` · ${categoryLabel(category)}` : ''}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Rank</th>
                      <th scope="col">Company</th>
                      <th scope="col" className="num">
                        Score
                      </th>
                      <th scope="col" className="num">
                        Treasury
                      </th>
                      <th scope="col" className="num">
                        Trading
                      </th>
                      <th scope="col" className="num">
                        Volume
                      </th>
                      <th scope="col" className="num">
                        Activity
                      </th>
                      <th scope="col" className="num">
                        Profile
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((e) => {
                      const move = moves.get(e.company.id);
                      return (
                        <tr key={e.company.id} data-company={e.company.slug}>
                          <td>
                            <span data-testid="rank">{e.rank}</span>
                            {move !== undefined && (
                              <span className={move > 0 ? 'up' : 'down'}>
                                {move > 0 ? ` ▲${move}` : ` ▼${-move}`}
                                <span className="sr-only">{move > 0 ? ` (up ${move})` : ` (down ${-move})`}</span>
                              </span>
                            )}
                            {league && e.platformRank !== e.rank && (
                              <span className="muted small"> ({e.platformRank} overall)</span>
                            )}
                          </td>
                          <td className="company-cell">
                            <Link to="/companies/$id" params={{ id: e.company.slug }}>
                              {e.company.name}
                            </Link>
                            {e.company.tokenSymbol && <span className="muted"> ${e.company.tokenSymbol}</span>}
                            <span className="muted small meta">
                              {categoryLabel(e.company.category)} · {e.company.league === 'HUMAN' ? 'Human' : 'Machine'}
                            </span>
                          </td>
                          <td className="num score">
                            <strong>{formatNumber(e.score.overall, 2, undefined, 2)}</strong>
                          </td>
                          <td className="num" title={`${money(e.score.treasuryRaw)} USDC`}>
                            {score(e.score.treasuryScore)}
                          </td>
                          <td className="num" title={`${money(e.score.tradingRaw)} USDC`}>
                            {score(e.score.tradingScore)}
                          </td>
                          <td className="num" title={`${money(e.score.volumeRaw)} USDC`}>
                            {score(e.score.volumeScore)}
                          </td>
                          <td className="num" title={`${e.score.activityRaw} rounds`}>
                            {score(e.score.activityScore)}
                          </td>
                          <td className="num">{score(e.score.completenessScore)}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableWrap>
            </>
          );
        }}
      </Query>
    </Page>
  );
}
