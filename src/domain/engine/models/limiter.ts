// Calls in flight per provider: each endpoint (a provider's own, or the gateway for one provider's models) gets at
// most `max` calls at once. A 429 halves its limit and pauses it for the Retry-After (or a back-off), and each run
// of successes as long as the limit adds one back (additive increase, multiplicative decrease, as TCP does), so a
// provider that pushes back gets fewer calls while the others keep their pace.

export interface ProviderLimiter {
  /** Waits for a slot of `key`; the returned function gives it back. Rejects with the signal's reason on abort. */
  acquire(key: string, signal?: AbortSignal): Promise<() => void>;
  /** `key` answered 429: fewer calls at once, and none for `pauseMs`. */
  rateLimited(key: string, pauseMs: number): void;
  /** `key` answered: after a run of successes as long as the limit, one more call at once. */
  succeeded(key: string): void;
  /** The current limit and calls in flight of `key` (for metrics and tests). */
  state(key: string): { limit: number; inFlight: number; waiting: number; pausedForMs: number };
  /** Opens the lane `key` before its first call, so it counts in `total` (a lane calls may be spread to). */
  open(key: string): void;
  /** Every lane's limits, calls in flight and calls waiting, summed: what the engine can send at once. */
  total(): ProviderLoad;
}

/** Calls at once over every lane of a provider: their limits (halved by 429s), in flight, waiting; and the lanes. */
export interface ProviderLoad {
  limit: number;
  inFlight: number;
  waiting: number;
  lanes: number;
}

interface Lane {
  limit: number;
  inFlight: number;
  successes: number;
  pausedUntil: number;
  waiters: { grant: () => void; signal: AbortSignal | undefined; onAbort: () => void }[];
  timer: NodeJS.Timeout | undefined;
}

export function createProviderLimiter(max: number, now: () => number = Date.now): ProviderLimiter {
  const lanes = new Map<string, Lane>();
  const lane = (key: string) => {
    let l = lanes.get(key);
    if (!l) {
      l = { limit: max, inFlight: 0, successes: 0, pausedUntil: 0, waiters: [], timer: undefined };
      lanes.set(key, l);
    }
    return l;
  };

  const drain = (l: Lane) => {
    const wait = l.pausedUntil - now();
    if (wait > 0) {
      if (!l.timer && l.waiters.length > 0) {
        l.timer = setTimeout(() => {
          l.timer = undefined;
          drain(l);
        }, wait);
        l.timer.unref?.();
      }
      return;
    }
    while (l.inFlight < l.limit && l.waiters.length > 0) {
      const next = l.waiters.shift()!;
      next.signal?.removeEventListener('abort', next.onAbort);
      l.inFlight++;
      next.grant();
    }
  };

  const releaser = (l: Lane) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      l.inFlight--;
      drain(l);
    };
  };

  return {
    acquire(key, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const l = lane(key);
      if (l.waiters.length === 0 && l.inFlight < l.limit && l.pausedUntil <= now()) {
        l.inFlight++;
        return Promise.resolve(releaser(l));
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: () => resolve(releaser(l)),
          signal,
          onAbort: () => {
            const i = l.waiters.indexOf(waiter);
            if (i >= 0) l.waiters.splice(i, 1);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        l.waiters.push(waiter);
        drain(l);
      });
    },
    rateLimited(key, pauseMs) {
      const l = lane(key);
      l.limit = Math.max(1, Math.floor(l.limit / 2));
      l.successes = 0;
      l.pausedUntil = Math.max(l.pausedUntil, now() + Math.max(0, pauseMs));
    },
    succeeded(key) {
      const l = lane(key);
      if (l.limit >= max) return;
      if (++l.successes >= l.limit) {
        l.successes = 0;
        l.limit++;
        drain(l);
      }
    },
    open(key) {
      lane(key);
    },
    total() {
      const sum = { limit: 0, inFlight: 0, waiting: 0, lanes: lanes.size };
      for (const l of lanes.values()) {
        sum.limit += l.limit;
        sum.inFlight += l.inFlight;
        sum.waiting += l.waiters.length;
      }
      return sum;
    },
    state(key) {
      const l = lane(key);
      return {
        limit: l.limit,
        inFlight: l.inFlight,
        waiting: l.waiters.length,
        pausedForMs: Math.max(0, l.pausedUntil - now()),
      };
    },
  };
}
