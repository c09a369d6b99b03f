// Identical concurrent reads share one read: the read cache's round trips to the change feed, and its reads while
// the feed cannot say what changed (read-cache.ts).
// A request only ever joins a read that starts after it arrived: while a read of its key is running, arrivals wait
// for the next one, which starts when the running one ends and answers all of them. So an answer never predates
// its request (a client that wrote and then reads sees its write), and a key has at most one read running and
// one waiting, however many requests ask for it.

interface Waiting {
  load: () => Promise<unknown>;
  promise: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

interface Slot {
  next: Waiting | undefined;
}

export type Coalescer = <T>(key: string, load: () => Promise<T>) => Promise<T>;

export interface CoalescerOptions {
  /**
   * When a running read fails, those waiting for the next one fail with it instead of starting it: a node that did
   * not answer the running read will not answer the next one sooner, and its callers should not wait twice the
   * timeout for their error. An answer never predates a request either way; a failure may.
   */
  shareFailures?: boolean;
}

export function createCoalescer(options: CoalescerOptions = {}): Coalescer {
  const slots = new Map<string, Slot>();

  const startRead = (key: string, slot: Slot, load: () => Promise<unknown>): Promise<unknown> => {
    let running: Promise<unknown>;
    try {
      running = load();
    } catch (err) {
      running = Promise.reject(err);
    }
    const after = () => {
      const next = slot.next;
      if (next === undefined) {
        slots.delete(key);
        return;
      }
      slot.next = undefined;
      startRead(key, slot, next.load).then(next.resolve, next.reject);
    };
    const failed = (reason: unknown) => {
      const next = slot.next;
      if (!options.shareFailures || next === undefined) return after();
      slot.next = undefined;
      slots.delete(key);
      next.reject(reason);
    };
    running.then(after, failed);
    return running;
  };

  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const slot = slots.get(key);
    if (slot === undefined) {
      const fresh: Slot = { next: undefined };
      slots.set(key, fresh);
      return startRead(key, fresh, load) as Promise<T>;
    }
    if (slot.next === undefined) {
      let resolve!: (value: unknown) => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<unknown>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      slot.next = { load, promise, resolve, reject };
    }
    return slot.next.promise as Promise<T>;
  };
}
