// chainMsOrServer (src/chain/time.ts): the chain's clock for reads that must answer at once while the node does not.
// A client stands in for the node: its blocks answer, answer late, never answer or fail.
import { describe, expect, it } from 'vitest';
import { chainMsOrServer } from '../../src/chain/time.ts';

type Answer = () => Promise<{ timestamp: bigint }>;

/** A client whose getBlock (latest and pending alike) gives what `answer` says. */
function nodeOf(answer: { current: Answer }) {
  return { getBlock: () => answer.current() } as never;
}

const at =
  (seconds: bigint): Answer =>
  () =>
    Promise.resolve({ timestamp: seconds });
const never: Answer = () => new Promise(() => {});
const failing: Answer = () => Promise.reject(new Error('connection refused'));

describe('chainMsOrServer', () => {
  it("answers the chain's time, not the server's, while the node answers", async () => {
    const answer = { current: at(2_000_000_000n) };
    expect(await chainMsOrServer(nodeOf(answer), () => 1_000, 50)).toBe(2_000_000_000_000);
  });

  it("runs the last reading on by the server's clock when the node stops answering, within the wait", async () => {
    const answer = { current: at(2_000_000_000n) };
    const client = nodeOf(answer);
    let server = 1_000;
    await chainMsOrServer(client, () => server, 50);
    answer.current = never;
    server = 1_000 + 7_000;
    const started = Date.now();
    expect(await chainMsOrServer(client, () => server, 50)).toBe(2_000_000_000_000 + 7_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    answer.current = failing;
    expect(await chainMsOrServer(client, () => server, 50)).toBe(2_000_000_000_000 + 7_000);
  });

  it("answers the server's clock for a node never read that does not answer", async () => {
    expect(await chainMsOrServer(nodeOf({ current: failing }), () => 123_456, 50)).toBe(123_456);
    expect(await chainMsOrServer(nodeOf({ current: never }), () => 654_321, 50)).toBe(654_321);
  });

  it('takes a node that answers just within the wait, and not one that answers after it', async () => {
    const late =
      (ms: number, seconds: bigint): Answer =>
      () =>
        new Promise((resolve) => setTimeout(() => resolve({ timestamp: seconds }), ms));
    expect(await chainMsOrServer(nodeOf({ current: late(10, 5n) }), () => 1, 200)).toBe(5_000);
    expect(await chainMsOrServer(nodeOf({ current: late(400, 5n) }), () => 1, 50)).toBe(1);
  });
});
