// Live updates from GET /api/events (EventSource), the public read-only stream for the app (no key, so no page logs a
// 401 once API keys exist): one stream for the app, the last events kept for the activity
// feed, and the queries an event makes stale refetched (a trade moves its token's chart, trades and progress, the
// portfolios and agents that hold it; a round its company's timeline, agents and portfolio; a score the Fortune List). When the stream cannot open (its per-address cap is reached), pages poll instead.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

export interface PlatformEvent {
  id: string;
  type: 'decision' | 'trade' | 'score' | 'season';
  companyId: string | null;
  data: Record<string, unknown>;
  timestamp: string;
}

interface Live {
  /** True while the stream is open; pages poll while it is not. */
  connected: boolean;
  events: PlatformEvent[];
}

const LiveContext = createContext<Live>({ connected: false, events: [] });
const KEPT = 100;
const TYPES = ['decision', 'trade', 'score', 'season'] as const;

export function LiveProvider({ children }: { children: ReactNode }) {
  const queries = useQueryClient();
  const [live, setLive] = useState<Live>({ connected: false, events: [] });
  useEffect(() => {
    const source = new EventSource('/api/events');
    let opened = false;
    source.addEventListener('connected', () => {
      // The stream opened again after it dropped (the service stopped and came back): whatever happened meanwhile was
      // not heard, and a page that kept what it showed while the service was away (marked "not up to date") stops
      // polling now, so every query is read again.
      if (opened) void queries.invalidateQueries();
      opened = true;
      setLive((l) => ({ ...l, connected: true }));
    });
    source.onerror = () => setLive((l) => ({ ...l, connected: source.readyState === EventSource.OPEN }));
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as PlatformEvent;
      // A resume starts at the oldest event still missing (a late commit), so some come twice: keep one.
      setLive((l) =>
        l.events.some((e) => e.id === event.id) ? l : { connected: true, events: [event, ...l.events].slice(0, KEPT) },
      );
      // Pages key their queries by the id or slug in their address: a company's event refreshes what is on screen.
      if (event.type === 'trade') {
        void queries.invalidateQueries({ queryKey: ['token'] });
        // A position is read from the indexed trades: it moves when the trade is indexed, a moment after it is mined.
        void queries.invalidateQueries({ queryKey: ['position'] });
        // The trade form's quote and balances are chain reads: read again, so the minimum on screen is the latest
        // (another wallet's buy moves the price) and a second tab's balance follows a trade made in the first.
        void queries.invalidateQueries({ queryKey: ['quote'] });
        void queries.invalidateQueries({ queryKey: ['holdings'] });
        // What a trade moves elsewhere: a company's portfolio and PnL (its agents hold tokens marked at the price), an
        // agent's balances, positions and actions, a wallet's trades and PnL over time.
        for (const key of ['company-portfolio', 'agent', 'wallet-trades']) {
          void queries.invalidateQueries({ queryKey: [key] });
        }
      }
      if (event.type === 'decision') {
        // A round's actions: the timeline, the agents' actions and balances, the company's portfolio and status.
        for (const key of ['decisions', 'agent', 'company-portfolio', 'company']) {
          void queries.invalidateQueries({ queryKey: [key] });
        }
      }
      if (event.type === 'score' || event.type === 'season') {
        void queries.invalidateQueries({ queryKey: ['fortune'] });
        void queries.invalidateQueries({ queryKey: ['epoch'] });
      }
    };
    for (const type of TYPES) source.addEventListener(type, onEvent);
    return () => source.close();
  }, [queries]);
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}

export const useLive = () => useContext(LiveContext);

/** How often a page refetches: never while the stream is open, every `ms` while it is not. */
export function usePolling(ms = 10_000): number | false {
  return useLive().connected ? false : ms;
}
