// The trade form: buy with USDC or sell the token, through the launcher (the curve while bonding, the v4 pool once
// graduated, or both in one buy that completes the curve). It shows the balances with 25/50/75% and Max, checks each
// field as it is typed, quotes what the trade will do (route, fees, average price, impact, minimum received),
// warns above 5% impact and asks for an explicit confirmation above 15%, and sends nothing that would fail.

import { TokenLauncherAbi } from '@ai-economy/shared/abis';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type Address, erc20Abi, formatUnits, parseEventLogs } from 'viem';
import { usePublicClient } from 'wagmi';
import type { RevertContext } from '../chain-errors';
import { Notice, RefusedError, type Said, said } from '../errors';
import { amountOf, short, type Unit, USDC } from '../format';
import { hasEntryPoint } from '../permit';
import { type Step, useTransactions } from '../transactions';
import { lastingCap } from './allowance';
import { chainSeconds, readHoldings, readQuote, type TradeContracts } from './chain-reads';
import { AmountField, LimitFields } from './fields';
import { checkAmount, checkDeadline, checkSlippage } from './inputs';
import { LastingAllowance } from './lasting-allowance';
import { CurveReserveError, minimumOut, priceUpdate, type Quote } from './quote';
import { PriceUpdated, percent, QuoteView } from './quote-view';

const CONFIRM_IMPACT_BPS = 1500;

type Side = 'buy' | 'sell';

export function TradePanel({ contracts, symbol }: { contracts: TradeContracts; symbol: string }) {
  const token: Unit = { symbol, decimals: 18 };
  const client = usePublicClient();
  const { send, spend, pending, ready, address } = useTransactions();
  const [side, setSide] = useState<Side>('buy');
  const [amountText, setAmountText] = useState('');
  const [slippageText, setSlippageText] = useState('1');
  const [deadlineText, setDeadlineText] = useState('10');
  /**
   * The price impact the person accepted with the confirmation box: a quote read again (another trade, a new block)
   * whose impact is higher is not covered by it, so the box clears and asks again.
   */
  const [confirmedBps, setConfirmedBps] = useState<number>();
  const [outcome, setOutcome] = useState<Said | undefined>();
  /** A fresh quote worse than the one shown, or on another route: nothing is sent until it is accepted. */
  const [update, setUpdate] = useState<{ was: Quote; wasMinimum: bigint; now: Quote; minimum: bigint }>();
  /** The person chose a lasting allowance (a capped approval) over a permit for this trade only. */
  const [keepAllowance, setKeepAllowance] = useState(false);
  const queries = useQueryClient();
  const ids = { amount: useId(), slippage: useId(), deadline: useId(), quote: useId(), lasting: useId() };

  const spent = side === 'buy' ? USDC : token;
  const received = side === 'buy' ? token : USDC;
  const holdings = useQuery({
    queryKey: ['holdings', contracts.token, address],
    enabled: !!client && !!address,
    queryFn: () => readHoldings(client!, contracts, address!),
  });
  const balance = holdings.data ? (side === 'buy' ? holdings.data.usdc : holdings.data.tokens) : undefined;
  /** What the launcher may already take of the token this side spends (a lasting allowance given earlier). */
  const allowance = holdings.data
    ? side === 'buy'
      ? holdings.data.usdcAllowance
      : holdings.data.tokenAllowance
    : undefined;

  const amount = checkAmount(amountText, spent);
  const slippage = checkSlippage(slippageText);
  const deadline = checkDeadline(deadlineText);
  const overBalance = amount.ok && balance !== undefined && amount.value > balance;
  const amountError = !amount.ok
    ? amountText.trim() === ''
      ? undefined
      : amount.error
    : overBalance
      ? side === 'sell'
        ? `You hold ${amountOf(balance!, token)}.`
        : `You have ${amountOf(balance!, USDC)}; this buy needs ${amountOf(amount.value, USDC)}.`
      : undefined;

  // Read again on each trade of the token (live.tsx), so the figures on screen are the chain's latest.
  const quoteKey = ['quote', contracts.token, side, amount.ok ? amount.value.toString() : ''];
  const quote = useQuery({
    queryKey: quoteKey,
    enabled: !!client && amount.ok && !overBalance,
    queryFn: () => readQuote(client!, contracts, side, (amount as { value: bigint }).value),
    retry: false,
  });
  const q = quote.data;
  const least = q && slippage.ok ? minimumOut(q.out, slippage.value) : undefined;
  const needsConfirmation = q !== undefined && q.impactBps > CONFIRM_IMPACT_BPS;
  const confirmed = q !== undefined && confirmedBps !== undefined && q.impactBps <= confirmedBps;
  const tooSmall = q !== undefined && q.out === 0n;
  // Covered by the allowance already given: one prompt. Otherwise the person may give a lasting one (its cap said).
  const covered = amount.ok && allowance !== undefined && allowance >= amount.value;
  const cap = amount.ok && !covered ? lastingCap(side, amount.value, balance) : undefined;
  const capWords = cap !== undefined ? amountOf(cap, spent) : undefined;

  // Any edit clears what the last attempt said and any confirmation of a previous quote.
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setOutcome(undefined);
    setConfirmedBps(undefined);
    setUpdate(undefined);
  };
  function switchSide(next: Side) {
    if (next === side) return;
    setSide(next);
    setAmountText('');
    // A lasting allowance is consented to for one side's token (a buy's USDC, a sale's tokens), never carried over.
    setKeepAllowance(false);
    setConfirmedBps(undefined);
    setOutcome(undefined);
    setUpdate(undefined);
  }
  function preset(percent: number) {
    if (balance === undefined) return;
    edit(setAmountText)(formatUnits((balance * BigInt(percent)) / 100n, spent.decimals));
  }

  const canSubmit =
    ready &&
    !pending &&
    amount.ok &&
    !overBalance &&
    slippage.ok &&
    deadline.ok &&
    q !== undefined &&
    least !== undefined &&
    update === undefined &&
    !tooSmall &&
    (!needsConfirmation || confirmed);

  /** Sets the launcher's allowance of the token this side spends back to 0: the lasting allowance ends. */
  async function removeAllowance() {
    setOutcome(undefined);
    const asset = side === 'buy' ? contracts.usdc : contracts.token;
    try {
      await send([
        {
          title: `Remove the launcher's allowance of ${spent.symbol}`,
          request: { address: asset, abi: erc20Abi, functionName: 'approve', args: [contracts.launcher, 0n] },
          context: { action: 'approval', spent },
        },
      ]);
      setKeepAllowance(false);
      setOutcome({ text: `The launcher may no longer spend your ${spent.symbol}.` });
    } catch (err) {
      setOutcome(said(err, { action: 'approval', spent }));
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!canSubmit || !client || !address || !amount.ok || !slippage.ok || !deadline.ok || !q || least === undefined)
      return;
    setOutcome(undefined);
    const amountIn = amount.value;
    const context: RevertContext = { action: side, spent, received };
    try {
      // What is sent is what was shown: a fresh quote just before signing that would give less than the minimum on
      // screen, or takes another route, is shown as "Price updated" and must be accepted first.
      const fresh = await readQuote(client, contracts, side, amountIn);
      const changed = priceUpdate(q, least, fresh, slippage.value);
      if (changed) {
        setConfirmedBps(undefined);
        setUpdate({ was: q, wasMinimum: least, now: fresh, minimum: changed.minimum });
        return;
      }
      const minOut = least;
      const until = (await chainSeconds(client)) + BigInt(deadline.value * 60);
      const held = await readHoldings(client, contracts, address);
      const trade: Step = {
        title: side === 'buy' ? `Buy ${symbol} with ${amountOf(amountIn, USDC)}` : `Sell ${amountOf(amountIn, token)}`,
        request: {
          address: contracts.launcher,
          abi: TokenLauncherAbi,
          functionName: side,
          args: [contracts.token, amountIn, minOut, until],
        },
        context,
      };
      const entry = side === 'buy' ? 'buyWithPermit' : 'sellWithPermit';
      // One transaction with a permit; an approval of exactly the amount where no permit can be had.
      const steps = await spend(
        {
          token: side === 'buy' ? contracts.usdc : contracts.token,
          unit: spent,
          spender: contracts.launcher,
          value: amountIn,
          allowance: side === 'buy' ? held.usdcAllowance : held.tokenAllowance,
          deadline: until,
          lasting:
            keepAllowance && cap !== undefined
              ? { cap, title: `Allow the launcher to spend up to ${amountOf(cap, spent)}` }
              : undefined,
        },
        trade,
        hasEntryPoint(TokenLauncherAbi, entry)
          ? (p) => ({
              ...trade,
              request: {
                ...trade.request,
                functionName: entry,
                args: [contracts.token, amountIn, minOut, until, p.v, p.r, p.s],
              },
            })
          : undefined,
      );
      const receipts = await send(steps);
      const got = receivedIn(receipts.at(-1)!, side === 'buy' ? contracts.token : contracts.usdc, address);
      setOutcome({
        text:
          side === 'buy'
            ? `Bought ${amountOf(got, token)} for ${amountOf(amountIn, USDC)}.`
            : `Sold ${amountOf(amountIn, token)} for ${amountOf(got, USDC)}.`,
      });
      setAmountText('');
    } catch (err) {
      if (err instanceof RefusedError && err.errorName === 'LauncherSlippage') {
        // The price moved after the check above (while the wallet was asked to sign): the simulation before sending
        // refused it, nothing was sent, and the new figures are shown to be accepted, as above.
        const fresh = await readQuote(client, contracts, side, amountIn).catch(() => undefined);
        const changed = fresh && priceUpdate(q, least, fresh, slippage.value);
        if (fresh && changed) {
          setConfirmedBps(undefined);
          setUpdate({ was: q, wasMinimum: least, now: fresh, minimum: changed.minimum });
          return;
        }
      }
      setOutcome(said(err, context));
    }
  }

  return (
    <section className="panel" aria-labelledby="trade-h">
      <h2 id="trade-h" tabIndex={-1}>
        Trade
      </h2>
      <form onSubmit={submit} className="trade-form" noValidate>
        <fieldset className="segmented">
          <legend className="sr-only">Side</legend>
          <button type="button" aria-pressed={side === 'buy'} onClick={() => switchSide('buy')}>
            Buy
          </button>
          <button type="button" aria-pressed={side === 'sell'} onClick={() => switchSide('sell')}>
            Sell
          </button>
        </fieldset>
        <AmountField
          id={ids.amount}
          side={side}
          symbol={symbol}
          amountText={amountText}
          onAmount={edit(setAmountText)}
          amountError={amountError}
          address={address}
          holdings={holdings.data}
          spent={spent}
          token={token}
          balance={balance}
          preset={preset}
        />
        <LimitFields
          slippageId={ids.slippage}
          deadlineId={ids.deadline}
          slippageText={slippageText}
          deadlineText={deadlineText}
          onSlippage={edit(setSlippageText)}
          onDeadline={edit(setDeadlineText)}
          slippage={slippage}
          deadline={deadline}
        />
        <QuoteView
          id={ids.quote}
          quote={q}
          least={least}
          spent={spent}
          received={received}
          symbol={symbol}
          state={
            !amount.ok || overBalance
              ? 'idle'
              : quote.isError
                ? quote.error instanceof CurveReserveError
                  ? `The curve holds ${amountOf(quote.error.available, USDC)}; this sale would take ${amountOf(quote.error.requested, USDC)}. Sell less.`
                  : 'The quote could not be read. Try again in a moment.'
                : q === undefined
                  ? 'loading'
                  : tooSmall
                    ? `This amount is too small: it would give no ${received.symbol} back.`
                    : 'ready'
          }
        />
        {update && (
          <PriceUpdated
            {...update}
            received={received}
            onAccept={() => {
              // The fresh quote becomes the one on screen, and the one the next confirmation sends.
              queries.setQueryData(quoteKey, update.now);
              setUpdate(undefined);
            }}
          />
        )}
        {needsConfirmation && (
          <label className="confirm">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(e) => setConfirmedBps(e.target.checked ? q!.impactBps : undefined)}
            />
            I accept that this trade moves the price by {percent(q!.impactBps)} and may cost me much more than the
            current price.
          </label>
        )}
        {address && amount.ok && !overBalance && (
          <LastingAllowance
            id={ids.lasting}
            covered={covered}
            allowance={allowance}
            spent={spent}
            capWords={capWords}
            checked={keepAllowance}
            onChange={setKeepAllowance}
            onRemove={() => void removeAllowance()}
            busy={!!pending}
          />
        )}
        <button type="submit" disabled={!canSubmit}>
          {pending
            ? `${pending}…`
            : ready
              ? side === 'buy'
                ? `Buy ${symbol}`
                : `Sell ${symbol}`
              : 'Connect a wallet to trade'}
        </button>
        {address && <p className="muted">Trading as {short(address)}</p>}
        <Notice message={outcome} />
      </form>
    </section>
  );
}

/** What `wallet` received of `token` in the receipt's transfers. */
function receivedIn(receipt: { logs: Parameters<typeof parseEventLogs>[0]['logs'] }, token: Address, wallet: Address) {
  return parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })
    .filter((l) => l.address.toLowerCase() === token.toLowerCase() && l.args.to.toLowerCase() === wallet.toLowerCase())
    .reduce((sum, l) => sum + l.args.value, 0n);
}
