// Times as a person reads them: "3 min ago", with the full date and time zone on hover. Every time is measured
// against the chain's clock, which on the local chain can run days ahead of the wall clock (trades carry their
// block's time; rounds and agents' actions are dated by the chain's clock when the service records them): measured
// against the device's clock, the newest trade would read as the oldest and every round "just now".
// One source for the whole app: the service's reading of the chain's clock (GET /api/chain `now`), taken at start
// and every 15 s, running on between reads. It needs no wallet and no node of the browser's own, so every page and
// every visitor counts from the same clock.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, data } from './api';

const READ_EVERY_MS = 15_000;
const TICK_MS = 10_000;

/** Re-renders every `ms` so relative times move on. */
function useTick(ms = TICK_MS) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

interface Reading {
  chainMs: number;
  readAt: number;
}
/** The reading taken with the chain's description at start (main.tsx), so the first render already counts right. */
let first: Reading | undefined;
export function seedChainClock(now: string | undefined): void {
  const chainMs = now ? Date.parse(now) : Number.NaN;
  if (Number.isFinite(chainMs)) first = { chainMs, readAt: Date.now() };
}

/**
 * The chain's time now, in ms: the service's last reading of the chain's clock plus the time since it was read.
 * While no reading was ever had (the service did not answer), the device's clock.
 */
export function useChainNow(): number {
  useTick();
  const latest = useQuery({
    queryKey: ['chain-time'],
    queryFn: async (): Promise<Reading> => {
      const info = await data(api.GET('/api/chain'));
      return { chainMs: Date.parse(info.now), readAt: Date.now() };
    },
    initialData: first,
    initialDataUpdatedAt: first?.readAt,
    refetchInterval: READ_EVERY_MS,
    staleTime: READ_EVERY_MS,
    // A failed read keeps the last one: the clock runs on from it.
    retry: false,
  });
  return latest.data ? latest.data.chainMs + (Date.now() - latest.data.readAt) : Date.now();
}

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto', style: 'short' });

/** "just now", "3 min ago", "2 hr ago", "4 days ago" for `ms` before `now`. */
export function ago(ms: number, now: number): string {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return relative.format(-Math.round(hours / 24), 'day');
}

/** The full date, time and time zone of `ms`, in the reader's zone. */
export const fullDate = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });

/** `at` relative to `now`, the full date and zone on hover. */
function Relative({ at, now }: { at: string; now: number }) {
  const ms = Date.parse(at);
  return (
    <time dateTime={at} title={fullDate(ms)}>
      {ago(ms, now)}
    </time>
  );
}

/** A time the chain stamped, relative to the chain's clock; the full date and zone on hover. */
export function ChainTime({ at }: { at: string }) {
  return <Relative at={at} now={useChainNow()} />;
}

/**
 * A time the service stamped (a decision round, an agent's action): the service dates them by the chain's clock too
 * (the engine's `economyNow`), so they count from the same clock as trades do. One clock on every page.
 */
export const ServiceTime = ChainTime;

/**
 * A time the database stamped with the wall clock (a platform event's `timestamp`: when the service published it),
 * relative to the device's clock. Measured against the chain's clock, which the local chain may run days ahead, an
 * event published a minute ago read "6 days ago".
 */
export function WallTime({ at }: { at: string }) {
  useTick();
  return <Relative at={at} now={Date.now()} />;
}
