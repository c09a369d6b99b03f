// Sending contract transactions with the connected wallet, so that nothing is sent that would fail: every step is
// simulated before the wallet is asked to sign, the steps of one action together (an approval is never sent when
// the trade after it would revert), and a refusal reads as a sentence. Each transaction gets a toast (signature,
// pending, mined or failed) and, once mined, the page's balances and positions are read again.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Abi, type Address, erc20Abi, type Hash, type TransactionReceipt } from 'viem';
import { useConnection, usePublicClient, useWalletClient } from 'wagmi';
import { readFresh, technicalDetail } from './api';
import { explain, type RevertContext } from './chain-errors';
import { RefusedError } from './errors';
import { amountOf, type Unit } from './format';
import { type PermitSignature, signPermit } from './permit';
import { useToasts } from './toasts';

export interface WriteRequest {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
}

/** One transaction of an action: its toast's title, the call, and what a refusal's sentence says it is about. */
export interface Step {
  title: string;
  request: WriteRequest;
  context: RevertContext;
}

/** What an action spends: `value` of `token` (a `unit`), taken by `spender`, which the wallet allows `allowance`. */
export interface Spending {
  token: Address;
  unit: Unit;
  spender: Address;
  value: bigint;
  allowance: bigint;
  /** The deadline a permit is signed with: the call's own, which the entry point passes on to the permit. */
  deadline: bigint;
  /**
   * A lasting allowance the person chose instead of a one-call permit: `spender` is approved for this cap (at least
   * `value`), so later calls within it need no signature and no approval.
   */
  lasting?: { cap: bigint; title: string } | undefined;
}

export { RefusedError };

/**
 * A failure of a step's call as a RefusedError: its sentence, its technical text and, for a call refused before it
 * was sent (nothing spent, so the form may act on it: a price that moved asks again), the contract error's name.
 */
function refused(err: unknown, context: RevertContext, mined?: string): RefusedError {
  const { text, errorName } = explain(err, context);
  return mined
    ? new RefusedError(`${mined} reverted on-chain: ${text}`, technicalDetail(err))
    : new RefusedError(text, technicalDetail(err), errorName);
}

const callOf = (r: WriteRequest) => ({ to: r.address, abi: r.abi, functionName: r.functionName, args: r.args ?? [] });

export function useTransactions() {
  const { address } = useConnection();
  const { data: wallet } = useWalletClient();
  const client = usePublicClient();
  const toasts = useToasts();
  const queries = useQueryClient();
  const [pending, setPending] = useState<string | undefined>();

  /** Simulates `steps` in order on the latest state: the first refusal, said, or undefined. */
  async function refusal(steps: readonly Step[]): Promise<RefusedError | undefined> {
    if (!client || !address) return new RefusedError('Connect a wallet first.');
    if (steps.length > 1) {
      // One simulation of all the steps in sequence (eth_simulateV1), so the approval's effect is seen by the trade.
      const simulated = (await client
        .simulateCalls({ account: address, calls: steps.map((s) => callOf(s.request)) as never })
        .catch(() => undefined)) as { results: readonly { status: string; error?: Error }[] } | undefined;
      if (simulated) {
        const failed = simulated.results.findIndex((r) => r.status !== 'success');
        return failed < 0 ? undefined : refused(simulated.results[failed]!.error, steps[failed]!.context);
      }
      // A node without eth_simulateV1: the first step alone; the next ones are simulated before they are signed.
    }
    const first = steps[0]!;
    return client.simulateContract({ ...first.request, account: address } as never).then(
      () => undefined,
      (err: unknown) => refused(err, first.context),
    );
  }

  /**
   * The transactions of an action that spends a token: the call alone when the allowance covers it; else, once a
   * simulation shows the call would succeed with the allowance, the one-transaction entry point with a permit the
   * wallet signs (`withPermit`), or, where no permit can be had, an approval of exactly the amount, then the call; with
   * a lasting allowance chosen (`spending.lasting`), an approval of its cap, then the call.
   */
  async function spend(
    spending: Spending,
    call: Step,
    withPermit?: (permit: PermitSignature) => Step,
  ): Promise<Step[]> {
    if (spending.allowance >= spending.value) return [call];
    const lasting = spending.lasting && spending.lasting.cap >= spending.value ? spending.lasting : undefined;
    const approval: Step = {
      title: lasting?.title ?? `Approve ${amountOf(spending.value, spending.unit)}`,
      request: {
        address: spending.token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [spending.spender, lasting?.cap ?? spending.value],
      },
      context: { action: 'approval', spent: spending.unit },
    };
    // Nothing is signed for a call that would fail: simulated as if approved.
    const why = await refusal([approval, call]);
    if (why) throw why;
    // A lasting allowance is an approval of its cap: later calls within it are one transaction, with no signature.
    if (lasting) return [approval, call];
    if (withPermit && wallet && client && address) {
      setPending('Sign the permit in your wallet');
      try {
        const permit = await signPermit(client, wallet, { ...spending, owner: address });
        if (permit) return [withPermit(permit)];
      } finally {
        setPending(undefined);
      }
    }
    return [approval, call];
  }

  /** Sends `steps` one after another, each simulated first and mined before the next; their receipts. */
  async function send(steps: readonly Step[]): Promise<TransactionReceipt[]> {
    if (!wallet || !address || !client) throw new RefusedError('Connect a wallet first.');
    const receipts: TransactionReceipt[] = [];
    try {
      for (const [i, step] of steps.entries()) {
        setPending(step.title);
        const why = await refusal(steps.slice(i));
        if (why) throw why;
        receipts.push(await sendOne(step));
      }
      return receipts;
    } finally {
      setPending(undefined);
      // Balances, allowances, positions and the token's state: whatever the page shows may have changed.
      if (receipts.length > 0) {
        readFresh();
        void queries.invalidateQueries();
      }
    }
  }

  async function sendOne(step: Step): Promise<TransactionReceipt> {
    const toast = toasts.open(step.title);
    const request = { ...step.request, account: address!, chain: wallet!.chain };
    let hash: Hash | undefined;
    try {
      // The node's estimate plus 30% and 100,000: the estimate runs on the latest block, the transaction on a later
      // one, where time has passed. A call that catches an inner call's failure (the staking contract's card checks)
      // can estimate below what it needs, and a pool whose emission starts to accrue in that later block writes
      // storage from zero (about 20,000 gas a slot: its accumulator, the position's debt, the banked reward). Gas
      // left unused is not paid for.
      const gas = ((await client!.estimateContractGas(request as never)) * 13n) / 10n + 100_000n;
      hash = await wallet!.writeContract({ ...request, gas } as never);
      toasts.update(toast, { state: 'pending', hash });
      const receipt = await client!.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') {
        // Why: the same call replayed on the state it ran on.
        throw await client!.simulateContract({ ...request, blockNumber: receipt.blockNumber - 1n } as never).then(
          () => new RefusedError(`${step.title} reverted on-chain: it ran out of gas. Try again.`),
          (err: unknown) => refused(err, step.context, step.title),
        );
      }
      toasts.update(toast, { state: 'mined' });
      return receipt;
    } catch (err) {
      const failure = err instanceof RefusedError ? err : refused(err, step.context);
      toasts.update(toast, {
        state: 'failed',
        detail: failure.message,
        ...(failure.detail && { technical: failure.detail }),
        ...(hash ? { hash } : {}),
      });
      throw failure;
    }
  }

  return { send, spend, refusal, pending, ready: !!wallet && !!address, address };
}
