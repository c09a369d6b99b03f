// Home: the Fortune List of the latest snapshot, both leagues, filtered by category, with the running epoch's
// countdown. Ranks move live: a score event refetches the list, and each row shows how far it moved.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { COMPANY_CATEGORIES } from '../../../src/constants';
import { api, data } from '../api';
import { amountOf } from '../format';
import { usePolling } from '../live';
import type { Category, League } from '../router';
import { usePlatformUnits } from '../symbols';
import { Empty, Page, Query, TableWrap } from '../ui';

const route = getRouteApi('/');
const label = (c: string) =>
  c
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/^\w/, (x) => x.toUpperCase());

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

export function Home() {
  const { league, category } = route.useSearch();
  const navigate = route.useNavigate();
  const poll = usePolling(15_000);
  const units = usePlatformUnits();
  const list = useQuery({
    queryKey: ['fortune', category ?? 'all'],
    queryFn: () =>
      data(api.GET('/api/fortune-list', { params: { query: { limit: 100, ...(category ? { category } : {}) } } })),
    refetchInterval: poll,
  });
  const epoch = useQuery({ queryKey: ['epoch'], queryFn: () => data(api.GET('/api/epochs/current')) });
  // Where each company stood before the last refetch: the list shows how far a score event moved it.
  const previous = useRef(new Map<string, number>());
  const [moves, setMoves] = useState(new Map<string, number>());
  useEffect(() => {
    if (!list.data) return;
    const next = new Map(list.data.companies.map((e) => [e.company.id, e.rank]));
    const moved = new Map<string, number>();
    for (const [id, rank] of next) {
      const before = previous.current.get(id);
      if (before !== undefined && before !== rank) moved.set(id, before - rank);
    }
    previous.current = next;
    setMoves(moved);
  }, [list.data]);
  // A filter replaces the history entry: Back leaves the list instead of stepping through every choice made.
  const setFilter = (search: { league?: League; category?: Category }) =>
    void navigate({ search: (s) => ({ ...s, ...search }), replace: true });
  return (
    <Page
      title="Fortune List"
      actions={
        epoch.data && (
          <p className="epoch">
            Epoch {epoch.data.epochNumber} ends in <Countdown seconds={epoch.data.nextEpochIn} /> · reward pool{' '}
            {amountOf(BigInt(epoch.data.rewardPool), units.primary, 0)}
          </p>
        )
      }
    >
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
                {label(c)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Query query={list} what="the Fortune List">
        {(d) => {
          const rows = d.companies.filter((e) => !league || e.company.league === league);
          if (rows.length === 0) return <Empty>{d.message ?? 'No company is ranked here yet.'}</Empty>;
          return (
            <TableWrap label="The Fortune List">
              <table className="fortune">
                <caption>
                  Snapshot of {d.epoch.slice(0, 10)} UTC (scores of the day before). {rows.length} compan
                  {rows.length === 1 ? 'y' : 'ies'}.
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Rank</th>
                    <th scope="col">Company</th>
                    <th scope="col">League</th>
                    <th scope="col">Category</th>
                    <th scope="col" className="num">
                      Score
                    </th>
                    <th scope="col" className="num">
                      Trading
                    </th>
                    <th scope="col" className="num">
                      Volume
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((e) => {
                    const move = moves.get(e.company.id);
                    return (
                      <tr key={e.company.id} data-company={e.company.slug}>
                        <td>
                          {e.rank}
                          {move !== undefined && (
                            <span className={move > 0 ? 'up' : 'down'}>
                              {move > 0 ? ` ▲${move}` : ` ▼${-move}`}
                              <span className="sr-only">{move > 0 ? ` (up ${move})` : ` (down ${-move})`}</span>
                            </span>
                          )}
                        </td>
                        <td>
                          <Link to="/companies/$id" params={{ id: e.company.slug }}>
                            {e.company.name}
                          </Link>
                          {e.company.tokenSymbol && <span className="muted"> ${e.company.tokenSymbol}</span>}
                        </td>
                        <td>{e.company.league === 'HUMAN' ? 'Human' : 'Machine'}</td>
                        <td>{label(e.company.category)}</td>
                        <td className="num">{e.score.overall.toFixed(2)}</td>
                        <td className="num">{e.score.tradingScore.toFixed(1)}</td>
                        <td className="num">{e.score.volumeScore.toFixed(1)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableWrap>
          );
        }}
      </Query>
    </Page>
  );
}
