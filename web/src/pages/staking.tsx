// Staking the primary token: the pool's totals and base APY, the connected wallet's stake, boost (its card's tier)
// and pending emission, and stake, unstake and harvest.
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Address, erc20Abi, formatUnits, parseUnits } from 'viem';
import { useReadContract } from 'wagmi';
import { StakingAbi } from '../../../src/chain/generated/abis';
import { api, data, humanError } from '../api';
import { Empty, money, Page, Query } from '../ui';
import { useChainInfo, useTransactions } from '../wallet';

export default function Staking() {
  const info = useChainInfo();
  const staking = info.contracts.staking as Address;
  const primary = info.contracts.primaryToken as Address;
  const { send, pending, ready, address } = useTransactions();
  const stats = useQuery({ queryKey: ['staking'], queryFn: () => data(api.GET('/api/staking/stats')) });
  const position = useQuery({
    queryKey: ['staking', address],
    enabled: !!address,
    queryFn: () => data(api.GET('/api/staking/position/{wallet}', { params: { path: { wallet: address! } } })),
  });
  const balance = useReadContract({
    address: primary,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address!],
    query: { enabled: !!address },
  });
  const [amount, setAmount] = useState('100');
  const [message, setMessage] = useState<string | undefined>();
  const cards = useReadContract({
    address: info.contracts.accessCard as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address!],
    query: { enabled: !!address },
  });
  async function act(e: FormEvent | undefined, what: 'stake' | 'unstake' | 'harvest' | 'boost') {
    e?.preventDefault();
    setMessage(undefined);
    try {
      const value = what === 'harvest' ? 0n : parseUnits(amount, 18);
      if (what === 'stake') {
        await send('Approve', { address: primary, abi: erc20Abi, functionName: 'approve', args: [staking, value] });
        await send('Stake', { address: staking, abi: StakingAbi, functionName: 'deposit', args: [0n, value] });
      } else if (what === 'unstake') {
        await send('Unstake', { address: staking, abi: StakingAbi, functionName: 'withdraw', args: [0n, value] });
      } else if (what === 'harvest') {
        await send('Harvest', { address: staking, abi: StakingAbi, functionName: 'harvest', args: [0n] });
      } else {
        // The best card the wallet holds boosts its stake (the contract picks it).
        await send('Boost', { address: staking, abi: StakingAbi, functionName: 'refreshBoost', args: [0n] });
      }
      setMessage(`${what[0]!.toUpperCase()}${what.slice(1)}: done.`);
      await Promise.all([position.refetch(), stats.refetch(), balance.refetch()]);
    } catch (err) {
      setMessage(humanError(err));
    }
  }
  return (
    <Page title="Staking">
      <Query query={stats} what="the staking pool">
        {(s) => (
          <p className="lead">
            {money(Number(s.totalStakedPrimary) / 1e18, 0)} effective stake in the pool · base APY{' '}
            {s.currentBaseApy.toFixed(2)}% · {money(Number(s.emissionPerSecond) / 1e18, 4)} emission tokens a second
          </p>
        )}
      </Query>
      {!address ? (
        <Empty>Connect a wallet to stake.</Empty>
      ) : (
        <Query query={position} what="your stake">
          {(p) => (
            <section className="panel" aria-labelledby="position-h">
              <h2 id="position-h">Your position</h2>
              <dl className="facts">
                <dt>Staked</dt>
                <dd data-testid="staked">{money(formatUnits(BigInt(p.stakedPrimary), 18))}</dd>
                <dt>Card boost</dt>
                <dd data-testid="boost">
                  {p.tier === 'NONE'
                    ? (cards.data ?? 0n) > 0n
                      ? 'none yet: apply your card below'
                      : 'none (hold an access card to boost)'
                    : `${p.tier} card, x${p.multiplier}`}
                </dd>
                <dt>Your APY</dt>
                <dd>{p.effectiveApy.toFixed(2)}%</dd>
                <dt>Pending emission</dt>
                <dd>{money(formatUnits(BigInt(p.pendingEmission), 18), 4)}</dd>
                <dt>Wallet balance</dt>
                <dd>{balance.data === undefined ? '…' : money(formatUnits(balance.data, 18))}</dd>
              </dl>
              <form onSubmit={(e) => void act(e, 'stake')}>
                <label>
                  Amount of the primary token
                  <input
                    value={amount}
                    onChange={(e) => setAmount(e.target.value)}
                    inputMode="decimal"
                    pattern="^[0-9]+(\.[0-9]+)?$"
                    required
                  />
                </label>
                <div className="row">
                  <button type="submit" disabled={!ready || !!pending}>
                    Stake
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    disabled={!ready || !!pending}
                    onClick={() => void act(undefined, 'unstake')}
                  >
                    Unstake
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    disabled={!ready || !!pending}
                    onClick={() => void act(undefined, 'harvest')}
                  >
                    Harvest
                  </button>
                  {p.tier === 'NONE' && (cards.data ?? 0n) > 0n && (
                    <button type="button" disabled={!ready || !!pending} onClick={() => void act(undefined, 'boost')}>
                      Apply my card's boost
                    </button>
                  )}
                </div>
              </form>
              {(pending || message) && <output className="notice">{pending ? `${pending}…` : message}</output>}
            </section>
          )}
        </Query>
      )}
    </Page>
  );
}
