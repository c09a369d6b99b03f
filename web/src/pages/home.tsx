// Home: the token board, what a visitor sees first. Every launched token with its price, market cap, 24-hour change
// and volume, bonding progress, holders and age; tabs New / About to graduate / Graduated; sorted by any column and
// searched by name or symbol, all of it in the address (`?tab=&sort=&dir=&q=`), so a board can be linked and Back
// leaves it rather than stepping through each keystroke or click. The API lists tokens newest first only: the board
// reads them all (board.ts says why that is bounded) and sorts and searches here.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { api, data } from '../api';
import '../board.css';
import {
  ABOUT_TO_GRADUATE_PCT,
  BOARD_MAX_PAGES,
  BOARD_PAGE_SIZE,
  BOARD_SORTS,
  BOARD_TABS,
  type BoardSort,
  type BoardTab,
  type BoardToken,
  boardRows,
  FIRST_DIR,
  SORT_LABELS,
  type SortDir,
  TAB_DEFAULT_SORT,
  TAB_LABELS,
  TAB_STATUS,
} from '../board';
import { age, formatDecimal, formatNumber, signedPercent } from '../format';
import { usePolling } from '../live';
import { Ticker } from '../ticker';
import { Empty, Page, Query, TableWrap } from '../ui';

const route = getRouteApi('/');

/** How long the search waits after the last keystroke before it writes the address. */
const SEARCH_DEBOUNCE_MS = 300;

/** Every launched token of one status, page after page by the API's cursor. */
async function allTokens(status: 'BONDING' | 'GRADUATED'): Promise<{ tokens: BoardToken[]; complete: boolean }> {
  const tokens: BoardToken[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < BOARD_MAX_PAGES; page++) {
    const result = await api.GET('/api/tokens', {
      params: { query: { limit: BOARD_PAGE_SIZE, status, ...(cursor ? { cursor } : {}) } },
    });
    const items = await data(Promise.resolve(result));
    tokens.push(...items);
    const next = result.data?.pagination.nextCursor;
    if (!next) return { tokens, complete: true };
    cursor = next;
  }
  return { tokens, complete: false };
}

const usdc = (value: string | null, places: number) => {
  if (value === null) return '—';
  return formatDecimal(value, places) ?? value;
};

function Change({ value }: { value: number | null }) {
  const text = signedPercent(value);
  return <span className={value === null || value === 0 ? undefined : value > 0 ? 'up' : 'down'}>{text}</span>;
}

function BondingBar({ token }: { token: BoardToken }) {
  // An untraded token's market cap is already a share of the threshold (its curve's virtual reserves): it reads 0%
  // until its first trade.
  const traded = token.lastTradeAt !== null || token.graduationProgress >= 100;
  const pct = traded ? Math.max(0, Math.min(100, token.graduationProgress)) : 0;
  return (
    <span className="bonding" title={traded ? undefined : 'No trade yet'}>
      <span
        className="bonding-bar"
        role="progressbar"
        aria-label={`${token.tokenSymbol} bonding progress`}
        aria-valuenow={Math.round(pct)}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <span style={{ width: `${pct}%` }} />
      </span>
      {formatNumber(pct, 1)}%
    </span>
  );
}

function SortHeader({
  column,
  sort,
  dir,
  onSort,
}: {
  column: BoardSort;
  sort: BoardSort;
  dir: SortDir;
  onSort: (column: BoardSort) => void;
}) {
  const active = column === sort;
  return (
    <th scope="col" className="num" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" className="sort" onClick={() => onSort(column)}>
        {SORT_LABELS[column]}
        <span aria-hidden="true">{active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** The board's order in words: "newest first", "highest market cap first". */
function orderPhrase(sort: BoardSort, dir: SortDir): string {
  if (sort === 'age') return dir === 'asc' ? 'newest first' : 'oldest first';
  return `${dir === 'asc' ? 'lowest' : 'highest'} ${SORT_LABELS[sort].toLowerCase()} first`;
}

export function Home() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const tab: BoardTab = search.tab ?? 'new';
  const order = search.sort ? { sort: search.sort, dir: search.dir ?? FIRST_DIR[search.sort] } : TAB_DEFAULT_SORT[tab];
  const poll = usePolling(15_000);
  const status = TAB_STATUS[tab];
  // Under 'token', so a trade event (live.tsx) refreshes the board as it does a token's page.
  const tokens = useQuery({
    queryKey: ['token', 'board', status],
    queryFn: () => allTokens(status),
    refetchInterval: poll,
  });

  // The search box: typed freely, written to the address once typing pauses, replacing the entry.
  const [text, setText] = useState(search.q ?? '');
  // What the box last wrote to the address: only another change of the address (Back, a link) replaces what is
  // typed, so a key pressed while the address is being written is not lost.
  const written = useRef(search.q);
  useEffect(() => {
    if (search.q !== written.current) {
      written.current = search.q;
      setText(search.q ?? '');
    }
  }, [search.q]);
  useEffect(() => {
    const q = text.trim() === '' ? undefined : text.trim();
    if (q === search.q) return;
    const timer = setTimeout(() => {
      written.current = q;
      void navigate({ search: (s) => ({ ...s, q }), replace: true, resetScroll: false });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, search.q, navigate]);

  const onSort = (column: BoardSort) => {
    const dir: SortDir = column === order.sort ? (order.dir === 'asc' ? 'desc' : 'asc') : FIRST_DIR[column];
    void navigate({ search: (s) => ({ ...s, sort: column, dir }), replace: true, resetScroll: false });
  };
  const searchId = useId();
  const sortId = useId();

  return (
    <Page title="Token board">
      <p className="lead intro">
        ai-economy is a market of companies run by AI agents, each with its own token: browse and trade the tokens here,
        follow the best companies on the <Link to="/fortune">Fortune List</Link>, or{' '}
        <Link to="/mint">mint an access card</Link> to start a company of your own.
      </p>
      <Ticker />
      <nav className="tabs" aria-label="Token lists">
        {BOARD_TABS.map((t) => (
          <Link
            key={t}
            to="/"
            search={(s) => ({ q: s.q, tab: t === 'new' ? undefined : t })}
            aria-current={t === tab ? 'page' : undefined}
            className={t === tab ? 'tab current' : 'tab'}
            activeOptions={{ includeSearch: false }}
          >
            {TAB_LABELS[t]}
          </Link>
        ))}
      </nav>
      <div className="board-search">
        <label htmlFor={searchId}>Search by name or symbol</label>
        <input
          id={searchId}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="NEURAL, Alpha Co…"
          autoComplete="off"
          maxLength={100}
          spellCheck={false}
        />
      </div>
      <div className="board-sort">
        <label htmlFor={sortId}>Sort by</label>
        <select
          id={sortId}
          value={`${order.sort}:${order.dir}`}
          onChange={(e) => {
            const [sort, dir] = e.target.value.split(':') as [BoardSort, SortDir];
            void navigate({ search: (s) => ({ ...s, sort, dir }), replace: true, resetScroll: false });
          }}
        >
          {BOARD_SORTS.flatMap((c) =>
            (['desc', 'asc'] as const).map((dir) => (
              <option key={`${c}:${dir}`} value={`${c}:${dir}`}>
                {orderPhrase(c, dir).replace(/^./, (l) => l.toUpperCase())}
              </option>
            )),
          )}
        </select>
      </div>
      <Query query={tokens} what="the tokens" skeleton="table">
        {(d) => {
          const rows = boardRows(d.tokens, { tab, q: search.q, sort: order.sort, dir: order.dir });
          if (d.tokens.length === 0) {
            return (
              <Empty>
                {tab === 'graduated' ? (
                  'No token has graduated yet: a token graduates to its Uniswap pool when its market cap reaches the threshold.'
                ) : (
                  <>
                    No token is on its bonding curve right now (a company’s creator launches its token from the company
                    page); the tokens that left it are under{' '}
                    <Link to="/" search={{ tab: 'graduated' }}>
                      Graduated
                    </Link>
                    .
                  </>
                )}
              </Empty>
            );
          }
          if (rows.length === 0) {
            return (
              <Empty>
                {search.q
                  ? `No token here matches “${search.q}”.`
                  : `No token is about to graduate: none has reached ${ABOUT_TO_GRADUATE_PCT}% of its graduation market cap.`}
              </Empty>
            );
          }
          return (
            <TableWrap label="Tokens">
              <table className="board" data-sort={order.sort} data-dir={order.dir}>
                <caption>
                  {formatNumber(rows.length, 0)} token{rows.length === 1 ? '' : 's'},{' '}
                  {orderPhrase(order.sort, order.dir)}; amounts in USDC
                  {!d.complete && ` (the newest ${formatNumber(d.tokens.length, 0)} tokens only)`}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Token</th>
                    {BOARD_SORTS.map((c) => (
                      <SortHeader key={c} column={c} sort={order.sort} dir={order.dir} onSort={onSort} />
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((t) => (
                    <tr key={t.id} data-symbol={t.tokenSymbol}>
                      <th scope="row">
                        <Link to="/companies/$id/token" params={{ id: t.slug }}>
                          {t.name}
                        </Link>{' '}
                        <span className="muted">${t.tokenSymbol}</span>
                      </th>
                      <td className="num" data-col="price" data-label={SORT_LABELS.price}>
                        {usdc(t.price, 6)}
                      </td>
                      <td className="num" data-col="marketCap" data-label={SORT_LABELS.marketCap}>
                        {usdc(t.marketCap, 0)}
                      </td>
                      <td className="num" data-col="change" data-label={SORT_LABELS.change}>
                        <Change value={t.priceChange24h} />
                      </td>
                      <td className="num" data-col="volume" data-label={SORT_LABELS.volume}>
                        {usdc(t.volume24h, 2)}
                      </td>
                      <td className="num" data-col="progress" data-label={SORT_LABELS.progress}>
                        <BondingBar token={t} />
                      </td>
                      <td className="num" data-col="holders" data-label={SORT_LABELS.holders}>
                        {formatNumber(t.holderCount, 0)}
                      </td>
                      <td className="num" data-col="age" data-label={SORT_LABELS.age}>
                        {age(t.ageSeconds)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          );
        }}
      </Query>
    </Page>
  );
}
