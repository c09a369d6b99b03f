// A token: its price chart (1-minute, 1-hour and 1-day candles of the indexed trades, the newest closing at the
// current price the header shows), its trades as they happen, the graduation progress, the trade form
// (trade/panel.tsx), the connected wallet's position and the top holders with their share.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import type { Address } from 'viem';
import { useConnection, usePublicClient } from 'wagmi';
import { api, data } from '../api';
import { ChainTime } from '../chain-time';
import { amountOf, USDC } from '../format';
import { usePolling } from '../live';
import { useNames, Who } from '../names';
import { readToGraduation } from '../trade/chain-reads';
import { TradePanel } from '../trade/panel';
import { PositionPanel } from '../trade/position';
import { Empty, Loading, money, Page, Progress, Query, TableWrap, TxLink } from '../ui';
import { useChainInfo } from '../wallet';

const CandleChart = lazy(() => import('../chart'));
const INTERVALS = ['1m', '1h', '1d'] as const;

const route = getRouteApi('/companies/$id/token');

/** Scrolls to the trade form and moves focus to its heading (not a field: a phone would open its keyboard). */
function jumpToTrade() {
  const heading = document.getElementById('trade-h');
  heading?.scrollIntoView({ block: 'start' });
  heading?.focus({ preventScroll: true });
}

/** "3,120 USDC to graduation": what a buy must pay now for the token to leave its curve (read from the chain). */
function ToGraduation({ id, token }: { id: string; token: Address }) {
  const info = useChainInfo();
  const client = usePublicClient();
  // Under 'token': a trade event reads it again, as it does the progress bar.
  const left = useQuery({
    queryKey: ['token', id, 'to-graduation', token],
    enabled: !!client,
    queryFn: () => readToGraduation(client!, info.contracts.tokenLauncher as Address, token),
  });
  if (left.data === undefined || left.data === 0n) return null;
  // Whole USDC, rounded up: a buy of the amount shown graduates the token, never falls just short of it.
  const whole = ((left.data + 999_999n) / 1_000_000n) * 1_000_000n;
  return (
    <p className="muted" data-testid="to-graduation" data-usdc={left.data.toString()}>
      {amountOf(whole, USDC, 0)} to graduation: a buy of that much (fee included) completes the bonding curve and moves
      the token to its Uniswap v4 pool.
    </p>
  );
}

/** What a holder is, in words: the curve and the pool by what they are, an agent or company by name, else its address. */
function HolderName({
  holder,
  symbol,
  names,
}: {
  holder: { address: string; kind: 'curve' | 'pool' | 'wallet' };
  symbol: string;
  names: ReturnType<typeof useNames>;
}) {
  if (holder.kind === 'curve') {
    return <span title={holder.address}>Bonding curve (unsold ${symbol})</span>;
  }
  if (holder.kind === 'pool') return <span title={holder.address}>Uniswap v4 pool</span>;
  return <Who address={holder.address} names={names} />;
}

/** The token's largest holders and their share of the supply (the holder stream's balances). */
function TopHolders({ id, symbol, poll }: { id: string; symbol: string; poll: number | false }) {
  // Under 'token': a trade event reads it again.
  const holders = useQuery({
    queryKey: ['token', id, 'holders'],
    queryFn: () =>
      data(api.GET('/api/companies/{id}/token/holders', { params: { path: { id }, query: { limit: 10 } } })),
    refetchInterval: poll,
  });
  const names = useNames((holders.data?.holders ?? []).map((h) => h.address));
  return (
    <section className="panel" aria-labelledby="holders-h">
      <h2 id="holders-h">Top holders</h2>
      <Query query={holders} what="the holders" skeleton="table">
        {(d) =>
          d.holders.length === 0 ? (
            <Empty>No holder indexed yet.</Empty>
          ) : (
            <>
              <p className="muted" data-testid="holder-count">
                {d.holderCount.toLocaleString('en-US')} {d.holderCount === 1 ? 'address holds' : 'addresses hold'} $
                {symbol}; the largest {d.holders.length} below, with their share of the {money(d.supply, 0)} tokens.
              </p>
              <TableWrap label="Top holders">
                <table className="holders">
                  <thead>
                    <tr>
                      <th scope="col">Holder</th>
                      <th scope="col" className="num holder-tokens">
                        Tokens
                      </th>
                      <th scope="col" className="num">
                        Share
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.holders.map((h) => (
                      <tr key={h.address} data-holder={h.address} data-kind={h.kind}>
                        <td>
                          <HolderName holder={h} symbol={symbol} names={names} />
                        </td>
                        <td className="num holder-tokens">{money(h.balance)}</td>
                        <td className="num" data-share={h.sharePercent}>
                          {h.sharePercent}%
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableWrap>
            </>
          )
        }
      </Query>
    </section>
  );
}

export default function Token() {
  const { id } = route.useParams();
  const info = useChainInfo();
  const { address: wallet } = useConnection();
  const poll = usePolling(10_000);
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>('1m');
  const status = useQuery({
    queryKey: ['token', id, 'status'],
    queryFn: () => data(api.GET('/api/companies/{id}/token', { params: { path: { id } } })),
    refetchInterval: poll,
  });
  const candles = useQuery({
    queryKey: ['token', id, 'candles', interval],
    queryFn: () =>
      data(api.GET('/api/companies/{id}/token/candles', { params: { path: { id }, query: { interval, limit: 300 } } })),
    refetchInterval: poll,
  });
  const trades = useQuery({
    queryKey: ['token', id, 'trades'],
    queryFn: () =>
      data(api.GET('/api/companies/{id}/token/trades', { params: { path: { id }, query: { page: 1, limit: 20 } } })),
    refetchInterval: poll,
  });
  // Traders that are agents or companies, named ("Spot Sprinters' CFO").
  const names = useNames((trades.data?.trades ?? []).map((x) => x.trader));
  return (
    <Query query={status} what="the token" skeleton="page">
      {(t) =>
        t.status === 'PRE_PUBLIC' ? (
          <Page title="Token">
            <Empty>
              This company has not launched a token yet.{' '}
              <Link to="/companies/$id" params={{ id: id }}>
                Back to the company
              </Link>
            </Empty>
          </Page>
        ) : (
          <Page title={`${t.name} ($${t.tokenSymbol})`}>
            <p className="lead">
              Price <strong data-testid="price">{money(t.price, 6)}</strong> USDC · market cap {money(t.marketCap)} USDC
              · {t.status === 'GRADUATED' ? 'trades in its Uniswap v4 pool' : 'on its bonding curve'} ·{' '}
              <Link to="/companies/$id" params={{ id: id }}>
                company
              </Link>
            </p>
            {/* On a phone the trade form is below the chart: one tap takes the thumb there. */}
            <p className="phone-only">
              <button type="button" className="jump" onClick={jumpToTrade}>
                Trade ${t.tokenSymbol} ↓
              </button>
            </p>
            <Progress
              value={t.graduationProgress}
              label="Graduation progress"
              traded={t.status === 'GRADUATED' || !trades.data || trades.data.trades.length > 0}
            />
            {t.status === 'BONDING' && <ToGraduation id={id} token={t.tokenAddress as Address} />}
            <section className="panel" aria-labelledby="chart-h">
              <div className="page-head">
                <h2 id="chart-h">Price</h2>
                <fieldset className="segmented">
                  <legend className="sr-only">Candle interval</legend>
                  {INTERVALS.map((i) => (
                    <button key={i} type="button" aria-pressed={interval === i} onClick={() => setInterval(i)}>
                      {i}
                    </button>
                  ))}
                </fieldset>
              </div>
              <Query query={candles} what="the chart" skeleton="chart">
                {(c) =>
                  c.candles.length === 0 ? (
                    <Empty>No trade yet.</Empty>
                  ) : (
                    <Suspense fallback={<Loading what="the chart" size="chart" />}>
                      <CandleChart
                        candles={c.candles}
                        price={t.price}
                        label={`${t.tokenSymbol} price, ${interval} candles`}
                      />
                    </Suspense>
                  )
                }
              </Query>
            </section>
            <TradePanel
              contracts={{
                launcher: info.contracts.tokenLauncher as Address,
                usdc: info.contracts.usdc as Address,
                token: t.tokenAddress as Address,
              }}
              symbol={t.tokenSymbol}
            />
            {wallet && (
              <PositionPanel
                companyId={id}
                token={{ address: t.tokenAddress as Address, unit: { symbol: t.tokenSymbol, decimals: 18 } }}
                wallet={wallet}
                price={t.price}
                launcher={info.contracts.tokenLauncher as Address}
              />
            )}
            <TopHolders id={id} symbol={t.tokenSymbol} poll={poll} />
            <section className="panel" aria-labelledby="trades-h">
              <h2 id="trades-h">Trades</h2>
              <Query query={trades} what="the trades" skeleton="table">
                {(d) =>
                  d.trades.length === 0 ? (
                    <Empty>No trade yet.</Empty>
                  ) : (
                    <TableWrap label="Trades">
                      <table className="trades">
                        <thead>
                          <tr>
                            <th scope="col">Time</th>
                            <th scope="col">Side</th>
                            <th scope="col" className="num">
                              Tokens
                            </th>
                            <th scope="col" className="num">
                              USDC
                            </th>
                            <th scope="col" className="num">
                              Price
                            </th>
                            <th scope="col">Trader</th>
                            <th scope="col">Tx</th>
                          </tr>
                        </thead>
                        <tbody>
                          {d.trades.map((x) => (
                            <tr key={`${x.txHash}:${x.logIndex}`} data-trade={x.txHash}>
                              <td>
                                <ChainTime at={x.time} />
                              </td>
                              <td className={x.side === 'buy' ? 'up' : 'down'}>{x.side}</td>
                              <td className="num">{money(x.tokenAmount)}</td>
                              <td className="num">{money(x.usdcAmount)}</td>
                              <td className="num">{money(x.price, 6)}</td>
                              <td>
                                <Who address={x.trader} names={names} />
                              </td>
                              <td>
                                <TxLink hash={x.txHash} explorer={info.explorerUrl} />
                                {!x.finalized && (
                                  <span
                                    className="muted"
                                    data-unfinalized
                                    title="Its block is not finalized yet: a chain reorg can still remove it. Scores and rewards count a trade once its block is finalized."
                                  >
                                    {' '}
                                    · not final
                                  </span>
                                )}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </TableWrap>
                  )
                }
              </Query>
            </section>
          </Page>
        )
      }
    </Query>
  );
}
