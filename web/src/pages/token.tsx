// A token: its price chart (1-minute, 1-hour and 1-day candles of the indexed trades), its trades as they happen,
// the graduation progress, and buying and selling with a quote, a slippage cap and a deadline (through the
// launcher: the curve while bonding, the v4 pool once graduated).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { type Address, erc20Abi, formatUnits, parseUnits } from 'viem';
import { usePublicClient, useReadContract } from 'wagmi';
import { TokenLauncherAbi } from '../../../src/chain/generated/abis';
import { api, data, humanError } from '../api';
import { usePolling } from '../live';
import { Empty, Loading, money, Page, Progress, Query, short, TxLink } from '../ui';
import { type ChainInfo, useChainInfo, useTransactions } from '../wallet';

const CandleChart = lazy(() => import('../chart'));
const INTERVALS = ['1m', '1h', '1d'] as const;

const route = getRouteApi('/companies/$id/token');

export default function Token() {
  const { id } = route.useParams();
  const info = useChainInfo();
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
  return (
    <Query query={status} what="the token">
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
            <Progress value={t.graduationProgress} label="Graduation progress" />
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
              <Query query={candles} what="the chart">
                {(c) =>
                  c.candles.length === 0 ? (
                    <Empty>No trade yet.</Empty>
                  ) : (
                    <Suspense fallback={<Loading what="the chart" />}>
                      <CandleChart candles={c.candles} label={`${t.tokenSymbol} price, ${interval} candles`} />
                    </Suspense>
                  )
                }
              </Query>
            </section>
            <Trade token={t.tokenAddress as Address} symbol={t.tokenSymbol} info={info} companyId={id} />
            <section className="panel" aria-labelledby="trades-h">
              <h2 id="trades-h">Trades</h2>
              <Query query={trades} what="the trades">
                {(d) =>
                  d.trades.length === 0 ? (
                    <Empty>No trade yet.</Empty>
                  ) : (
                    <div className="table-wrap">
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
                              <td>{new Date(x.time).toLocaleTimeString()}</td>
                              <td className={x.side === 'buy' ? 'up' : 'down'}>{x.side}</td>
                              <td className="num">{money(x.tokenAmount)}</td>
                              <td className="num">{money(x.usdcAmount)}</td>
                              <td className="num">{money(x.price, 6)}</td>
                              <td>
                                <code title={x.trader}>{short(x.trader)}</code>
                              </td>
                              <td>
                                <TxLink hash={x.txHash} explorer={info.explorerUrl} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
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

function Trade({
  token,
  symbol,
  info,
  companyId,
}: {
  token: Address;
  symbol: string;
  info: ChainInfo;
  companyId: string;
}) {
  const launcher = info.contracts.tokenLauncher as Address;
  const usdc = info.contracts.usdc as Address;
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const [amount, setAmount] = useState('10');
  const [slippage, setSlippage] = useState('1');
  const [deadline, setDeadline] = useState('10');
  const [message, setMessage] = useState<string | undefined>();
  const { send, pending, ready, address } = useTransactions();
  const client = usePublicClient();
  const queries = useQueryClient();
  const decimals = side === 'buy' ? 6 : 18;
  let amountIn = 0n;
  try {
    amountIn = amount ? parseUnits(amount, decimals) : 0n;
  } catch {
    amountIn = 0n;
  }
  const quote = useReadContract({
    address: launcher,
    abi: TokenLauncherAbi,
    functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell',
    args: [token, amountIn],
    query: { enabled: amountIn > 0n },
  });
  const out = quote.data as bigint | undefined;
  const slipBps = Math.round(Number(slippage) * 100);
  const minOut =
    out !== undefined && slipBps >= 0 && slipBps <= 5000 ? (out * BigInt(10_000 - slipBps)) / 10_000n : undefined;
  async function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(undefined);
    try {
      if (!client || minOut === undefined || amountIn <= 0n) throw new Error('Enter an amount with a quote first.');
      // The quote on screen may be a trade old: the minimum is taken from a fresh one, just before signing.
      const fresh = (await client.readContract({
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: side === 'buy' ? 'quoteBuy' : 'quoteSell',
        args: [token, amountIn],
      })) as bigint;
      const least = (fresh * BigInt(10_000 - slipBps)) / 10_000n;
      const block = await client.getBlock();
      const until = block.timestamp + BigInt(Math.max(1, Math.round(Number(deadline) * 60)));
      const spent = side === 'buy' ? usdc : token;
      await send('Approve', { address: spent, abi: erc20Abi, functionName: 'approve', args: [launcher, amountIn] });
      const hash = await send(side === 'buy' ? 'Buy' : 'Sell', {
        address: launcher,
        abi: TokenLauncherAbi,
        functionName: side,
        args: [token, amountIn, least, until],
      });
      setMessage(`${side === 'buy' ? 'Bought' : 'Sold'}: transaction ${hash.slice(0, 10)}… mined.`);
      await Promise.all([queries.invalidateQueries({ queryKey: ['token', companyId] }), quote.refetch()]);
    } catch (err) {
      setMessage(humanError(err));
    }
  }
  return (
    <section className="panel" aria-labelledby="trade-h">
      <h2 id="trade-h">Trade</h2>
      <form onSubmit={submit} className="trade-form">
        <fieldset className="segmented">
          <legend className="sr-only">Side</legend>
          <button type="button" aria-pressed={side === 'buy'} onClick={() => setSide('buy')}>
            Buy
          </button>
          <button type="button" aria-pressed={side === 'sell'} onClick={() => setSide('sell')}>
            Sell
          </button>
        </fieldset>
        <label>
          {side === 'buy' ? 'USDC to spend' : `${symbol} to sell`}
          <input
            name="amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            pattern="^[0-9]+(\.[0-9]+)?$"
            required
          />
        </label>
        <label>
          Slippage (%)
          <input name="slippage" inputMode="decimal" value={slippage} onChange={(e) => setSlippage(e.target.value)} />
        </label>
        <label>
          Deadline (minutes)
          <input name="deadline" inputMode="numeric" value={deadline} onChange={(e) => setDeadline(e.target.value)} />
        </label>
        <p className="quote" aria-live="polite">
          {out === undefined
            ? amountIn > 0n
              ? quote.isError
                ? humanError(quote.error)
                : 'Quoting…'
              : 'Enter an amount.'
            : `You get about ${money(formatUnits(out, side === 'buy' ? 18 : 6), 6)} ${side === 'buy' ? symbol : 'USDC'} (at least ${money(formatUnits(minOut ?? 0n, side === 'buy' ? 18 : 6), 6)}).`}
        </p>
        <button type="submit" disabled={!ready || !!pending || minOut === undefined}>
          {pending
            ? `${pending}…`
            : ready
              ? side === 'buy'
                ? `Buy ${symbol}`
                : `Sell ${symbol}`
              : 'Connect a wallet to trade'}
        </button>
        {address && <p className="muted">Trading as {short(address)}</p>}
        {message && <output className="notice">{message}</output>}
      </form>
    </section>
  );
}
