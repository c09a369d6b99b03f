// The board's ticker: the latest trades of every token, newest first, as they happen (the event stream's trades on
// top of the newest events the service holds, GET /api/events/recent), each naming its trader when it is an agent or
// a company.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, data } from './api';
import { ChainTime } from './chain-time';
import { formatAmount, USDC } from './format';
import { type PlatformEvent, useLive } from './live';
import { useNames, Who } from './names';

/** The same read the Activity page opens on (one request for both). */
export const RECENT_EVENTS = 50;
const SHOWN = 8;

const isTrade = (e: PlatformEvent) => e.type === 'trade' && e.data.kind === 'trade' && e.data.removed !== true;

export function Ticker() {
  const { events } = useLive();
  const recent = useQuery({
    queryKey: ['events', 'recent'],
    queryFn: () => data(api.GET('/api/events/recent', { params: { query: { limit: RECENT_EVENTS } } })),
  });
  const seen = new Set<string>();
  const trades = [...events, ...((recent.data ?? []) as PlatformEvent[])]
    .filter((e) => isTrade(e) && !seen.has(e.id) && seen.add(e.id))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))
    .slice(0, SHOWN);
  const names = useNames(trades.map((e) => e.data.trader as string));
  if (trades.length === 0) return null;
  return (
    <section className="ticker" aria-label="Latest trades">
      <h2 className="ticker-title">Latest trades</h2>
      <ol>
        {trades.map((e) => {
          const d = e.data as Record<string, string>;
          return (
            <li key={e.id} data-side={d.side}>
              <span className={d.side === 'buy' ? 'up' : 'down'}>{d.side === 'buy' ? 'Buy' : 'Sell'}</span>{' '}
              {e.companyId ? (
                <Link to="/companies/$id/token" params={{ id: e.companyId }}>
                  ${d.tokenSymbol}
                </Link>
              ) : (
                `$${d.tokenSymbol}`
              )}{' '}
              {formatAmount(BigInt(d.usdcAmount ?? '0'), USDC.decimals, 2)} USDC by{' '}
              <Who address={d.trader!} names={names} />
              {typeof d.blockTime === 'string' && (
                <>
                  {' '}
                  <span className="muted">
                    <ChainTime at={d.blockTime} />
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
