// A limit on how many tasks of one kind run at once in this process.
//
// A transaction that holds an advisory lock while it waits on the chain, and needs a second pooled connection to
// finish (the outbox writes its own row), must not be able to take the whole pool: with as many holders as pooled
// connections, each one waits for a connection that none of them gives back, until the pool's connection timeout
// answers every request 503 DATABASE_UNAVAILABLE.

export type Gate = <T>(fn: () => Promise<T>) => Promise<T>;

export interface GateOptions {
  /** How long a task may wait for its turn; past it the task is not run and `busy()` is thrown instead. */
  waitMs?: number;
  /** The error a task that waited too long fails with. */
  busy?: () => Error;
}

/** Runs at most `max` tasks at once; the others wait their turn, first come first served, for up to `waitMs`. */
export function createGate(max: number, options: GateOptions = {}): Gate {
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = () =>
    new Promise<void>((resolve, reject) => {
      const go = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      waiting.push(go);
      const timer =
        options.waitMs === undefined
          ? undefined
          : setTimeout(() => {
              // Still waiting: leave the queue (the slot never came to it, so there is nothing to give back).
              waiting.splice(waiting.indexOf(go), 1);
              reject(options.busy?.() ?? new Error(`waited ${options.waitMs} ms for a turn`));
            }, options.waitMs);
    });
  return async (fn) => {
    if (running < max) running++;
    else await turn();
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next task waiting, or is given back.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
