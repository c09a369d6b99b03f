// The live activity feed: every platform event as it happens (decision rounds, trades, scores, seasons), from the
// event stream.

import { Link } from '@tanstack/react-router';
import { ChainTime, ServiceTime } from '../chain-time';
import { formatAmount, USDC } from '../format';
import { type PlatformEvent, useLive } from '../live';
import { Empty, Page, short } from '../ui';

/**
 * When it happened: a trade at its block's time on the chain's clock (the time the token page shows for it) when
 * the event carries it, anything else when the service recorded it.
 */
function EventTime({ event }: { event: PlatformEvent }) {
  const blockTime = (event.data as { blockTime?: unknown }).blockTime;
  return typeof blockTime === 'string' ? <ChainTime at={blockTime} /> : <ServiceTime at={event.timestamp} />;
}

function describe(e: ReturnType<typeof useLive>['events'][number]): string {
  const d = e.data as Record<string, string | number | undefined>;
  switch (e.type) {
    case 'trade': {
      // A correction (docs/api/events.md "Reorgs"): the chain reorganised and this log left it.
      const undone = (e.data as { removed?: unknown }).removed === true ? 'Undone by a chain reorg: ' : '';
      if (d.kind === 'launch') return `${undone}$${d.tokenSymbol} launched on its bonding curve`;
      if (d.kind === 'graduation') return `${undone}$${d.tokenSymbol} graduated to its Uniswap v4 pool`;
      // Base units (docs/api/events.md "Amounts"): tokens with 18 decimals, USDC (6) per whole token.
      return `${undone}${d.side === 'buy' ? 'Bought' : 'Sold'} ${formatAmount(BigInt(d.amount ?? 0), 18, 2)} $${d.tokenSymbol} at ${formatAmount(BigInt(d.price ?? 0), USDC.decimals, 6)} USDC by ${short(String(d.trader))}`;
    }
    case 'decision':
      return `Decision round ${d.cycle}: ${String(d.directive ?? '').slice(0, 140)}`;
    case 'score':
      return `Score ${d.platformScore ?? ''}${d.rank ? `, rank ${d.rank}` : ''}`;
    default:
      return `Season: ${JSON.stringify(d).slice(0, 140)}`;
  }
}

export default function Activity() {
  const { connected, events } = useLive();
  return (
    <Page title="Live activity">
      <output className="muted">
        {connected ? 'Live: events appear as they happen.' : 'Connecting to the event stream…'}
      </output>
      {events.length === 0 ? (
        <Empty>Nothing has happened since you opened this page.</Empty>
      ) : (
        <ol className="feed" aria-live="polite">
          {events.map((e) => (
            <li key={e.id} data-event={e.type}>
              <EventTime event={e} /> <span className={`badge ${e.type}`}>{e.type}</span>{' '}
              {e.companyId ? (
                <Link to="/companies/$id" params={{ id: e.companyId }}>
                  {describe(e)}
                </Link>
              ) : (
                describe(e)
              )}
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}
