// Staking the primary token: the pool's totals and base APY, the connected wallet's stake, boost (its card's tier),
// pending emission and its balances of both tokens, each with its symbol; stake (the approval, when the allowance
// falls short, only together with a deposit that would succeed), unstake, harvest (saying how much it paid) and
// applying the best card the wallet holds as its boost (in the stake itself when the wallet holds a better card than
// the one its stake uses, or none; by the page's button, naming the card, when a better card came after the stake).
// Every transaction is simulated before it is signed.

import { StakingAbi } from '@ai-economy/shared/abis';
import { CARD_TIERS, type CardTier, cardTierOf, NO_CARD_MULTIPLIER } from '@ai-economy/shared/constants';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Address, erc20Abi, parseEventLogs } from 'viem';
import { usePublicClient, useReadContracts } from 'wagmi';
import { api, data } from '../api';
import { Notice, type Said, said } from '../errors';
import { amountOf, formatNumber } from '../format';
import { hasEntryPoint } from '../permit';
import { platformTokensInWords, usePlatformUnits } from '../symbols';
import { chainSeconds } from '../trade/chain-reads';
import { checkAmount } from '../trade/inputs';
import { RefusedError, type Step, useTransactions } from '../transactions';
import { Empty, Page, Query } from '../ui';
import { useChainInfo } from '../wallet';
import { useWalletCardIds } from '../wallet-companies';

type Action = 'stake' | 'unstake' | 'harvest' | 'boost';

/** How long a stake's permit (and the stake) may wait to be mined. */
const PERMIT_DEADLINE_S = 600n;

/** A card the wallet holds, with its tier. */
interface HeldCard {
  id: bigint;
  tier: CardTier;
}

/**
 * The card among `ids` that boosts more than a stake recorded with `stakeTier` (the position's tier, NONE without a
 * card): the one of the highest multiplier, the first of them, as the contract's own scan picks. None when no card
 * held does better.
 */
function betterCard(ids: readonly bigint[] | undefined, stakeTier: string): HeldCard | undefined {
  let best: HeldCard | undefined;
  for (const id of ids ?? []) {
    const tier = cardTierOf(Number(id));
    if (tier !== undefined && (best === undefined || tier.multiplier > best.tier.multiplier)) best = { id, tier };
  }
  const inUse = CARD_TIERS.find((t) => t.name === stakeTier)?.multiplier ?? NO_CARD_MULTIPLIER;
  return best !== undefined && best.tier.multiplier > inUse ? best : undefined;
}

const boostOf = (card: HeldCard) => `${card.tier.label} card's boost (x${card.tier.multiplier})`;

export default function Staking() {
  const info = useChainInfo();
  const staking = info.contracts.staking as Address;
  const primary = info.contracts.primaryToken as Address;
  const emission = info.contracts.emissionToken as Address;
  const units = usePlatformUnits();
  const { send, spend, pending, ready, address } = useTransactions();
  const client = usePublicClient();
  const stats = useQuery({ queryKey: ['staking'], queryFn: () => data(api.GET('/api/staking/stats')) });
  const position = useQuery({
    queryKey: ['staking', address],
    enabled: !!address,
    queryFn: () => data(api.GET('/api/staking/position/{wallet}', { params: { path: { wallet: address! } } })),
  });
  const wallet = useReadContracts({
    contracts: [
      { address: primary, abi: erc20Abi, functionName: 'balanceOf', args: [address!] },
      { address: emission, abi: erc20Abi, functionName: 'balanceOf', args: [address!] },
      { address: primary, abi: erc20Abi, functionName: 'allowance', args: [address!, staking] },
    ],
    allowFailure: false,
    query: { enabled: !!address },
  });
  const heldCards = useWalletCardIds(address);
  const [primaryBalance, emissionBalance] = (wallet.data ?? []) as [bigint?, bigint?, bigint?];
  const [amountText, setAmountText] = useState('100');
  const [message, setMessage] = useState<string | Said | undefined>();
  const amount = checkAmount(amountText, units.primary);
  const amountError = amountText.trim() === '' ? undefined : amount.ok ? undefined : amount.error;

  async function act(e: FormEvent | undefined, what: Action) {
    e?.preventDefault();
    setMessage(undefined);
    const value = amount.ok ? amount.value : 0n;
    const context = { action: what === 'boost' ? 'boost' : what, spent: units.primary };
    const call = (functionName: string, args: readonly unknown[]) => ({
      address: staking,
      abi: StakingAbi,
      functionName,
      args,
    });
    try {
      if ((what === 'stake' || what === 'unstake') && !amount.ok) throw new RefusedError(amount.error);
      const steps: Step[] = [];
      let boosted = false;
      let applied: HeldCard | undefined;
      if (what === 'stake') {
        // Read afresh at the click, not from what the page holds: a click before the wallet's reads arrived, or a
        // card bought since (in another tab, on another page), would otherwise stake without the card's boost and
        // ask for a permit the allowance may not need.
        const [fresh, held, ids] = await Promise.all([wallet.refetch(), position.refetch(), heldCards.refetch()]);
        const read = fresh.data;
        const tier = held.data?.tier;
        if (read === undefined || tier === undefined || ids.data === undefined) {
          throw new RefusedError('Your balances and your stake could not be read. Try again in a moment.');
        }
        const [balance, , allowed] = read as [bigint, bigint, bigint];
        if (value > balance) throw new RefusedError(`You hold ${amountOf(balance, units.primary)}.`);
        // A card that boosts more than the one the stake uses (or than none) boosts it in the same transaction: one
        // prompt for a boosted stake with an allowance, two (the permit's signature, the stake) without, instead of a
        // third for the boost. The contract picks the best of the cards, as betterCard does.
        const boostWith = hasEntryPoint(StakingAbi, 'depositAndBoost') ? betterCard(ids.data, tier) : undefined;
        const boost = boostWith !== undefined;
        boosted = boost;
        const deposit: Step = {
          title: `Stake ${amountOf(value, units.primary)}${boostWith ? ` with your ${boostOf(boostWith)}` : ''}`,
          request: call(boost ? 'depositAndBoost' : 'deposit', [0n, value]),
          context,
        };
        const deadline = (await chainSeconds(client!)) + PERMIT_DEADLINE_S;
        steps.push(
          ...(await spend(
            { token: primary, unit: units.primary, spender: staking, value, allowance: allowed, deadline },
            deposit,
            hasEntryPoint(StakingAbi, 'depositWithPermit')
              ? (p) => ({
                  ...deposit,
                  request: call(boost ? 'depositWithPermitAndBoost' : 'depositWithPermit', [
                    0n,
                    value,
                    deadline,
                    p.v,
                    p.r,
                    p.s,
                  ]),
                })
              : undefined,
          )),
        );
      } else if (what === 'unstake') {
        steps.push({
          title: `Unstake ${amountOf(value, units.primary)}`,
          request: call('withdraw', [0n, value]),
          context,
        });
      } else if (what === 'harvest') {
        steps.push({ title: `Harvest ${units.emission.symbol}`, request: call('harvest', [0n]), context });
      } else {
        // The best card the wallet holds now, named: read afresh at the click (a card sold or bought since).
        const [held, ids] = await Promise.all([position.refetch(), heldCards.refetch()]);
        if (held.data === undefined || ids.data === undefined) {
          throw new RefusedError('Your cards and your stake could not be read. Try again in a moment.');
        }
        const better = betterCard(ids.data, held.data.tier);
        if (better === undefined) throw new RefusedError('No card you hold boosts more than the one your stake uses.');
        applied = better;
        steps.push({ title: `Apply my ${boostOf(better)}`, request: call('refreshBoost', [0n, better.id]), context });
      }
      const receipts = await send(steps);
      if (what === 'harvest') {
        const paid = parseEventLogs({ abi: StakingAbi, logs: receipts.at(-1)!.logs, eventName: 'Harvested' }).reduce(
          (sum, l) => sum + l.args.amount,
          0n,
        );
        setMessage(`Harvested ${amountOf(paid, units.emission, 4)}.`);
      } else {
        setMessage(
          what === 'stake'
            ? `Staked ${amountOf(value, units.primary)}${boosted ? ', boosted by your card' : ''}.`
            : what === 'unstake'
              ? `Unstaked ${amountOf(value, units.primary)}.`
              : `Boost applied: your ${applied!.tier.label} card, #${applied!.id}.`,
        );
      }
      await Promise.all([position.refetch(), stats.refetch(), wallet.refetch()]);
    } catch (err) {
      setMessage(said(err, 'staking action'));
    }
  }
  const busy = !ready || !!pending;
  return (
    <Page title="Staking">
      <p className="muted" data-testid="platform-tokens">
        {platformTokensInWords(units)}
      </p>
      <Query query={stats} what="the staking pool" skeleton="line">
        {(s) => (
          <p className="lead">
            {amountOf(BigInt(s.totalStakedPrimary), units.primary, 0)} of effective stake in the pool · base APY{' '}
            {formatNumber(s.currentBaseApy, 2, undefined, 2)}% ·{' '}
            {amountOf(BigInt(s.emissionPerSecond), units.emission, 4)} emitted a second
          </p>
        )}
      </Query>
      {!address ? (
        <Empty>Connect a wallet to stake.</Empty>
      ) : (
        <Query query={position} what="your stake">
          {(p) => {
            const staked = BigInt(p.stakedPrimary) > 0n;
            const better = betterCard(heldCards.data, p.tier);
            return (
              <section className="panel" aria-labelledby="position-h">
                <h2 id="position-h">Your position</h2>
                <dl className="facts">
                  <dt>Staked</dt>
                  <dd data-testid="staked">{amountOf(BigInt(p.stakedPrimary), units.primary)}</dd>
                  <dt>Card boost</dt>
                  <dd data-testid="boost">
                    {p.tier === 'NONE'
                      ? (heldCards.data?.length ?? 0) > 0
                        ? staked
                          ? 'none yet: apply your card below'
                          : 'none yet: your card boosts the stake you make'
                        : 'none (hold an access card to boost)'
                      : `${p.tier} card, x${p.multiplier}`}
                    {p.tier !== 'NONE' && better && (
                      <span className="muted" data-testid="better-card">
                        {' '}
                        · your {better.tier.label} card #{String(better.id)} would boost x{better.tier.multiplier}
                        {staked ? ': apply it below' : ''}
                      </span>
                    )}
                  </dd>
                  <dt>Your APY</dt>
                  <dd>{formatNumber(p.effectiveApy, 2, undefined, 2)}%</dd>
                  <dt>Pending emission</dt>
                  <dd data-testid="pending">{amountOf(BigInt(p.pendingEmission), units.emission, 4)}</dd>
                  <dt>Wallet balance</dt>
                  <dd data-testid="wallet-primary">
                    {primaryBalance === undefined ? '…' : amountOf(primaryBalance, units.primary)}
                  </dd>
                  <dt>Emission balance</dt>
                  <dd data-testid="wallet-emission">
                    {emissionBalance === undefined ? '…' : amountOf(emissionBalance, units.emission, 4)}
                  </dd>
                </dl>
                <form onSubmit={(e) => void act(e, 'stake')} noValidate>
                  <label>
                    Amount of {units.primary.symbol}
                    <input
                      name="amount"
                      value={amountText}
                      onChange={(e) => {
                        setAmountText(e.target.value);
                        setMessage(undefined);
                      }}
                      inputMode="decimal"
                      aria-invalid={amountError ? true : undefined}
                      aria-describedby="stake-amount-error"
                    />
                  </label>
                  <p id="stake-amount-error" className="field-error">
                    {amountError}
                  </p>
                  <div className="row">
                    <button type="submit" disabled={busy}>
                      Stake
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => void act(undefined, 'unstake')}
                    >
                      Unstake
                    </button>
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => void act(undefined, 'harvest')}
                    >
                      Harvest
                    </button>
                    {/* The contract boosts only a stake (StakingNoStake otherwise): stake first. */}
                    {better && staked && (
                      <button type="button" disabled={busy} onClick={() => void act(undefined, 'boost')}>
                        Apply my {boostOf(better)}
                      </button>
                    )}
                  </div>
                </form>
                {pending ? <output className="notice">{pending}…</output> : <Notice message={message} />}
              </section>
            );
          }}
        </Query>
      )}
    </Page>
  );
}
