// The activity feed: the recent past first (GET /api/events/recent, the newest events the service holds), then every
// platform event as it happens (decision rounds, trades, scores, seasons) from the event stream; a trader that is an
// agent or a company is named ("Spot Sprinters' CFO"), not shown as an address.

import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, data } from '../api';
import { ChainTime, WallTime } from '../chain-time';
import { clip, formatAmount, snapshotName, USDC } from '../format';
import { type PlatformEvent, useLive } from '../live';
import { type AddressName, useNames, Who } from '../names';
import { usePlatformUnits } from '../symbols';
import { RECENT_EVENTS as RECENT } from '../ticker';
import { Empty, Page, Query } from '../ui';

/**
 * When it happened: a trade at its block's time on the chain's clock (the time the token page shows for it) when
 * the event carries it, anything else when the service published it (the event's wall-clock stamp, on the wall
 * clock: each time is measured against the clock that made it).
 */
function EventTime({ event }: { event: PlatformEvent }) {
  const blockTime = (event.data as { blockTime?: unknown }).blockTime;
  return typeof blockTime === 'string' ? <ChainTime at={blockTime} /> : <WallTime at={event.timestamp} />;
}

/**
 * An event in words, the same for the live stream and the recent past. `primary` is the primary token's symbol
 * (an epoch's reward pool is paid in it).
 */
function describe(e: PlatformEvent, primary: string, companies: Map<string, string>): string {
  const d = e.data as Record<string, string | number | undefined>;
  switch (e.type) {
    case 'trade': {
      // A correction (docs/api/events.md "Reorgs"): the chain reorganised and this log left it.
      const undone = (e.data as { removed?: unknown }).removed === true ? 'Undone by a chain reorg: ' : '';
      if (d.kind === 'launch') return `${undone}$${d.tokenSymbol} launched on its bonding curve`;
      if (d.kind === 'graduation') return `${undone}$${d.tokenSymbol} graduated to its Uniswap v4 pool`;
      // Base units (docs/api/events.md "Amounts"): tokens with 18 decimals, USDC (6) per whole token.
      return `${undone}${d.side === 'buy' ? 'Bought' : 'Sold'} ${formatAmount(BigInt(d.amount ?? 0), 18, 2)} $${d.tokenSymbol} at ${formatAmount(BigInt(d.price ?? 0), USDC.decimals, 6)} USDC`;
    }
    case 'decision':
      return `Decision round ${d.cycle}: ${clip(String(d.directive ?? ''), 140)}`;
    case 'score': {
      const name = e.companyId ? companies.get(e.companyId) : undefined;
      return `${name ? `${name}: score` : 'Score'} ${d.platformScore ?? ''}${d.rank ? `, rank ${d.rank}` : ''}`;
    }
    case 'season':
      // docs/api/events.md "Event data": a daily score snapshot, or a reward epoch finalized on-chain.
      if (d.kind === 'snapshot') {
        const toward = typeof d.epoch === 'number' ? `, counting toward reward epoch ${d.epoch}` : '';
        const date = typeof d.date === 'string' ? `${snapshotName(d.date)}: ` : '';
        return `Daily snapshot taken. ${date}${d.companies ?? 0} ${d.companies === 1 ? 'company' : 'companies'} ranked${toward}`;
      }
      if (d.kind === 'epoch_finalized') {
        const pool = formatAmount(BigInt(d.rewardPool ?? 0), 18, 2);
        return `Reward epoch ${d.epoch} finalized: ${pool} ${primary} for ${d.participantCount ?? 0} ${d.participantCount === 1 ? 'company' : 'companies'} to claim`;
      }
      return `Season event: ${String(d.kind ?? 'unnamed')}`;
    default:
      return `${String(e.type)} event`;
  }
}

/** The names of the companies whose score events are shown, by id (a score event carries only the company's id). */
function useCompanyNames(events: PlatformEvent[]): Map<string, string> {
  const ids = [...new Set(events.flatMap((e) => (e.type === 'score' && e.companyId ? [e.companyId] : [])))].slice(
    0,
    50,
  );
  const read = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['company-name', id],
      staleTime: 5 * 60_000,
      queryFn: () => data(api.GET('/api/companies/{id}', { params: { path: { id } } })),
    })),
  });
  return new Map(read.flatMap((q, i) => (q.data ? [[ids[i]!, q.data.name] as [string, string]] : [])));
}

const traderOf = (e: PlatformEvent) =>
  e.type === 'trade' && typeof e.data.trader === 'string' ? (e.data.trader as string) : undefined;

/** Newest first, each event once: the live ones (heard since the app opened) and the recent past read on arrival. */
function merge(live: PlatformEvent[], recent: PlatformEvent[]): PlatformEvent[] {
  const byId = new Map<string, PlatformEvent>();
  for (const e of [...live, ...recent]) if (!byId.has(e.id)) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0));
}

function Feed({ events, names }: { events: PlatformEvent[]; names: Map<string, AddressName> }) {
  const primary = usePlatformUnits().primary.symbol;
  const companies = useCompanyNames(events);
  return (
    <ol className="feed" aria-live="polite">
      {events.map((e) => {
        const trader = traderOf(e);
        return (
          <li key={e.id} data-event={e.type}>
            <EventTime event={e} /> <span className={`badge ${e.type}`}>{e.type}</span>{' '}
            {e.companyId ? (
              <Link to="/companies/$id" params={{ id: e.companyId }}>
                {describe(e, primary, companies)}
              </Link>
            ) : (
              describe(e, primary, companies)
            )}
            {trader && (
              <>
                {' '}
                by <Who address={trader} names={names} />
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}

export default function Activity() {
  const { connected, events } = useLive();
  const recent = useQuery({
    queryKey: ['events', 'recent'],
    queryFn: () => data(api.GET('/api/events/recent', { params: { query: { limit: RECENT } } })),
  });
  const shown = merge(events, (recent.data ?? []) as PlatformEvent[]).slice(0, 100);
  const names = useNames(shown.map(traderOf));
  return (
    <Page title="Live activity">
      <output className="muted">
        {connected
          ? 'Live: the latest events, and new ones as they happen.'
          : 'Connecting to the event stream… The latest events are shown meanwhile.'}
      </output>
      <Query query={recent} what="the latest events" skeleton="table">
        {() =>
          shown.length === 0 ? (
            <Empty>Nothing has happened on the platform yet.</Empty>
          ) : (
            <Feed events={shown} names={names} />
          )
        }
      </Query>
    </Page>
  );
}
