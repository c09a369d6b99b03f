// Reads of the chain, kept per block: the routes that read contracts or balances on every request (the staking
// position and stats, the portfolios) pin their calls to one block and keep the answer under (their input, that
// block) in the read cache (read-cache.ts), so repeated reads within one block make one JSON-RPC batch.
//
// Which block is the latest (ChainHead): an unconditional request asks the node (one eth_blockNumber, shared by the
// requests that arrive meanwhile, coalesce.ts), so a read sent right after a transaction sees it. A conditional
// request (If-None-Match) is first compared with the answer kept for the block this process last read, while that
// reading is younger than CHAIN_HEAD_REUSE_MS: when the tag still matches, it is answered 304 without any call to
// the node. A client polling with If-None-Match therefore costs the node at most one eth_blockNumber per
// CHAIN_HEAD_REUSE_MS and process, however often it polls; its 304 may be that much behind the chain's head. A tag
// that does not match, no kept answer, or a request asking for a fresh validation (Cache-Control: no-cache or
// max-age=0) reads the head afresh.
import { createCoalescer } from './coalesce.ts';
import type { CachedReads, JsonReply } from './read-cache.ts';

export interface ChainHead {
  /** The chain's latest block, read from the node now (requests waiting meanwhile share the next reading). */
  latest(): Promise<bigint>;
  /** The latest block as last read, while that reading began less than `reuseMs` ago; undefined otherwise. */
  recent(): bigint | undefined;
}

export function createChainHead(
  read: () => Promise<bigint>,
  reuseMs: number,
  now: () => number = () => performance.now(),
): ChainHead {
  // A reading the node did not answer fails those waiting for the next one too: during an outage a request gets
  // its 503 within one RPC timeout, not two.
  const readings = createCoalescer({ shareFailures: true });
  let known: { block: bigint; at: number } | undefined;
  return {
    latest: () =>
      readings('head', async () => {
        const at = now();
        const block = await read();
        if (known === undefined || at >= known.at) known = { block, at };
        return block;
      }),
    recent: () => (known !== undefined && now() - known.at < reuseMs ? known.block : undefined),
  };
}

export interface BlockReads {
  /** Answers the body `build` makes at the block it is given, kept per (key, block). */
  send<R>(reply: JsonReply<R>, key: string, build: (block: bigint) => Promise<unknown>): Promise<R>;
}

/** The per-block reads of one route: `cached` is the route's read cache (its tables, if it also reads any). */
export function blockReads(head: ChainHead, cached: CachedReads): BlockReads {
  return {
    async send(reply, key, build) {
      const headers = reply.request.headers;
      // A client that asks for a fresh validation (`Cache-Control: no-cache` or `max-age=0`, as a browser sends once
      // a page refetches after a transaction) is answered at the latest block, never from the one last read.
      const fresh = /(?:^|,)\s*(?:no-cache|max-age=0)\s*(?:,|$)/i.test(String(headers['cache-control'] ?? ''));
      const recent = headers['if-none-match'] === undefined || fresh ? undefined : head.recent();
      if (recent !== undefined) {
        const answered = await cached.notModified(reply, `${key}@${recent}`);
        if (answered !== undefined) return answered.sent;
      }
      const block = await head.latest();
      return cached.send(reply, `${key}@${block}`, () => build(block));
    },
  };
}
